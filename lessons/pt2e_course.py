"""pt2e_course.py — the helpers the PyTorch cells of the PT2E Playground course use, in one file.

Put it next to a lesson's notebook (the page's "download as notebook" writes it into the notebook's first cell)
and every page's PyTorch cells run in order with torch 2.x, torchao 0.18 and ExecuTorch 1.5:

    from pt2e_course import get_model, example_inputs, calibration_batches, get_xnnpack_quantizer, calibrate, sqnr

What is here, each the PyTorch side of a name the page's cells use:
- the zoo: get_model(name) builds the course's models (conv_relu, stem, residual, cat_pool, tiny, linear_sigmoid,
  mlp, conv_relu_add) in eval mode, layers created in forward order right after the caller's manual_seed, as the page's engine
  does; input_shape(name) is one sample's shape;
- data: example_inputs(batch) (torch.randn(batch, 3, 16, 16)), calibration_batches(n, batch_size) (a synthetic
  4-class image set: bars, rings, checkerboards, gradients drawn in [0, 1] from a private generator seeded 2024,
  normalized per channel with the set's own mean / std) and held_out_images(first, count);
- PT2E plumbing: export_module, export_zoo, get_xnnpack_quantizer, calibrate, sqnr (torchao's compute_error);
- reports: short, op_counts, diff_ops, observer_nodes, qdq_nodes, observer_placement_table, annotation_table,
  unannotated_ops, table (prints rows), draw / draw_stages (print the graph; the page draws it);
- the fictional VPU of M10 / M10-1: PowerOfTwoMinMaxObserver, VPUQuantizer (annotate + validate), vpu_refusal.
"""
import math

import torch
import torch.nn.functional as F
from torchao.quantization.utils import compute_error
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

ANNOTATION_KEY = "quantization_annotation"
QDQ_OPS = ("quantize_per_tensor", "dequantize_per_tensor", "quantize_per_channel", "dequantize_per_channel")


# ---- the zoo -------------------------------------------------------------------------------------------

class ConvReLU(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


class Stem(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(16)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class ResidualBlock(torch.nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(ch)
        self.conv2 = torch.nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(ch)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(y)) + x)


class CatPoolNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.b = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.out = torch.nn.Conv2d(16, 8, 3, padding=1)

    def forward(self, x):
        y = torch.cat([torch.relu(self.a(x)), torch.relu(self.b(x))], dim=1)
        y = self.out(F.max_pool2d(y, 2))
        return y + y.mean(dim=(2, 3), keepdim=True)


class TinyConvNet(torch.nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        def conv(i, o):
            return torch.nn.Conv2d(i, o, 3, padding=1, bias=False)
        self.conv1, self.bn1 = conv(3, 16), torch.nn.BatchNorm2d(16)
        self.conv2, self.bn2 = conv(16, 16), torch.nn.BatchNorm2d(16)
        self.conv3, self.bn3 = conv(16, 16), torch.nn.BatchNorm2d(16)
        self.conv4, self.bn4 = conv(16, 32), torch.nn.BatchNorm2d(32)
        self.fc = torch.nn.Linear(32, num_classes)

    def forward(self, x):
        x = F.max_pool2d(torch.relu(self.bn1(self.conv1(x))), 2)
        y = self.bn3(self.conv3(torch.relu(self.bn2(self.conv2(x)))))
        x = F.max_pool2d(torch.relu(y + x), 2)
        x = torch.relu(self.bn4(self.conv4(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class LinearSigmoid(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 8)

    def forward(self, x):
        return torch.sigmoid(self.fc(x))


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(16, 32), torch.nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))   # relu is a function: it belongs to no module


class ConvReLUAdd(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        y = self.conv(x)
        return torch.relu(y) + y     # the conv has two users: relu and add


ZOO = {"conv_relu": ConvReLU, "stem": Stem, "residual": ResidualBlock, "cat_pool": CatPoolNet, "tiny": TinyConvNet,
       "linear_sigmoid": LinearSigmoid, "mlp": MLP, "conv_relu_add": ConvReLUAdd}


def model_names():
    return list(ZOO)


def get_model(name, **kwargs):
    """A zoo model in eval mode (kwargs: ch for 'residual')."""
    if name not in ZOO:
        raise ValueError(f"get_model: unknown model '{name}' (expected one of {', '.join(ZOO)})")
    return ZOO[name](**kwargs).eval()


def input_shape(name, ch=8):
    """One sample's shape for a zoo model."""
    if name in ("linear_sigmoid", "mlp"):
        return (16,)
    return (ch, 16, 16) if name == "residual" else (3, 16, 16)


# ---- data -------------------------------------------------------------------------------------------

def example_inputs(batch):
    return (torch.randn(batch, 3, 16, 16),)


def _draw_image(gen, label, c, h, w):
    """One sample of the set in pixel space [0, 1]: the engine's draw order, from `gen` alone."""
    def rand():
        return float(torch.rand(1, generator=gen))

    def randint(lo, hi):   # lo..hi inclusive
        return int(torch.randint(lo, hi + 1, (1,), generator=gen))

    hh, ww = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    if label == 0:   # bars
        along_rows = randint(0, 1) == 1
        period = randint(4, 6)
        phase = randint(0, period - 1)
        mask = (((hh if along_rows else ww) + phase) % period < period // 2).float()
    elif label == 1:   # ring
        cy, cx = (0.25 + 0.5 * rand()) * h, (0.25 + 0.5 * rand()) * w
        r = (0.2 + 0.15 * rand()) * min(h, w)
        d = torch.hypot(hh + 0.5 - cy, ww + 0.5 - cx)
        mask = torch.clamp(1 - (d - r).abs() / 1.5, min=0)
    elif label == 2:   # checkerboard
        cell = randint(2, 4)
        oy, ox = randint(0, cell - 1), randint(0, cell - 1)
        mask = ((((hh + oy) // cell) + ((ww + ox) // cell)) % 2).float()
    else:   # gradient
        angle = 6.2831853 * rand()
        mask = math.sin(angle) * hh + math.cos(angle) * ww
        lo, hi = mask.min(), mask.max()
        mask = (mask - lo) / (hi - lo) if hi > lo else torch.full_like(mask, 0.5)
    bg, fg = [], []
    for _ in range(c):
        bg.append(0.3 * rand())
        fg.append(0.6 + 0.4 * rand())
    noise = torch.randn(c, h, w, generator=gen)
    bg, fg = torch.tensor(bg).view(c, 1, 1), torch.tensor(fg).view(c, 1, 1)
    return torch.clamp(bg + (fg - bg) * mask + 0.05 * noise, 0, 1)


def _image_set(n, shape=(3, 16, 16)):
    gen = torch.Generator().manual_seed(2024)
    images = torch.stack([_draw_image(gen, i % 4, *shape) for i in range(n)])
    return images, torch.arange(n, dtype=torch.int32) % 4


def _normalized(images):
    stats, _ = _image_set(1024, tuple(images.shape[1:]))   # the set's own per-channel mean / std
    mean = stats.mean(dim=(0, 2, 3), keepdim=True)
    std = stats.std(dim=(0, 2, 3), keepdim=True, unbiased=False)
    return (images - mean) / std


def calibration_batches(n=256, batch_size=32):
    """[(x, labels)]: samples 0..n-1 of the image set, normalized per channel, in batches."""
    images, labels = _image_set(n)
    x = _normalized(images)
    return [(x[i:i + batch_size], labels[i:i + batch_size]) for i in range(0, n, batch_size)]


def held_out_images(first=256, count=8):
    """Samples first..first+count-1 of the same set (not calibrated on when calibration used the first `first`)."""
    images, _ = _image_set(first + count)
    return _normalized(images)[first:]


# ---- PT2E plumbing -------------------------------------------------------------------------------------

def export_module(model, example):
    return torch.export.export(model, tuple(example)).module()


def export_zoo(name, batch=2):
    """A zoo model exported on a random batch (draws from torch's generator)."""
    return export_module(get_model(name), (torch.randn(batch, *input_shape(name)),))


def get_xnnpack_quantizer(**config):
    """XNNPACKQuantizer (torchao's test copy) with get_symmetric_quantization_config(**config) as global config."""
    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(**config))


def calibrate(prepared, batches):
    with torch.no_grad():
        for batch in batches:
            prepared(batch[0] if isinstance(batch, (tuple, list)) else batch)
    return prepared


def sqnr(reference, other):
    with torch.no_grad():
        return compute_error(reference, other).item()


# ---- reports ---------------------------------------------------------------------------------------------

def short(target):
    """'quantized_decomposed.quantize_per_tensor.default' -> 'quantize_per_tensor'."""
    parts = str(target).split(".")
    return parts[1] if len(parts) > 2 else str(target)


def op_counts(gm):
    counts = {}
    for n in gm.graph.nodes:
        if n.op == "call_function":
            key = short(n.target)
        elif n.op == "call_module":
            key = f"<module:{type(getattr(gm, n.target)).__name__}>"
        else:
            continue
        counts[key] = counts.get(key, 0) + 1
    return counts


def diff_ops(a, b):
    ca, cb = op_counts(a), op_counts(b)
    return [(op, ca.get(op, 0), cb.get(op, 0), cb.get(op, 0) - ca.get(op, 0)) for op in sorted(set(ca) | set(cb))]


def observer_nodes(gm):
    return [(n, getattr(gm, n.target)) for n in gm.graph.nodes if n.op == "call_module"]


def qdq_nodes(gm):
    """quantize / dequantize nodes by op name (a substring test on 'quantize' would also match choose_qparams)."""
    return [n for n in gm.graph.nodes if n.op == "call_function" and short(n.target) in QDQ_OPS]


def observer_placement_table(gm):
    rows = []
    for n, obs in observer_nodes(gm):
        try:
            scale, zp = obs.calculate_qparams()
            qparams = f"scale={scale.flatten()[0].item():.4g} zp={int(zp.flatten()[0])}"
        except Exception as e:   # PlaceholderObserver has no qparams
            qparams = type(e).__name__
        rows.append((n.name, type(obs).__name__, n.args[0].name, ", ".join(u.name for u in n.users), qparams))
    return rows


def annotation_table(gm):
    rows = []
    for n in gm.graph.nodes:
        a = n.meta.get(ANNOTATION_KEY)
        if a is not None:
            inputs = ", ".join(f"{k.name}:{type(v).__name__}" for k, v in a.input_qspec_map.items())
            rows.append((n.name, short(n.target), inputs or "-", type(a.output_qspec).__name__))
    return rows


def unannotated_ops(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function" and ANNOTATION_KEY not in n.meta]


def table(rows, headers=None):
    if headers:
        print(" | ".join(str(h) for h in headers))
    for r in rows:
        print(" | ".join(str(v) for v in r))


def draw(gm, title="", **_view_options):
    print(f"# {title}\n{gm.graph}")


def draw_stages(stages, title="", **_view_options):
    for gm, name in stages:
        draw(gm, f"{title}: {name}" if title else name)


# ---- the fictional VPU (lessons M10, M10-1) --------------------------------------------------------------
# The page's pt.VPUQuantizer in torchao's terms: power-of-two symmetric int8 scales, an int32 derived bias,
# shared add / cat scales, a Q3.12 (int16, 2**-12) model output, relu only fused, validate() naming the node.

from torchao.quantization.pt2e.observer import MinMaxObserver  # noqa: E402
from torchao.quantization.pt2e.quantizer import (  # noqa: E402
    DerivedQuantizationSpec, FixedQParamsQuantizationSpec, QuantizationAnnotation, QuantizationSpec, Quantizer,
    SharedQuantizationSpec)


class PowerOfTwoMinMaxObserver(MinMaxObserver):
    """MinMax statistics; the scale rounded UP to 2**k, so no observed value clips."""

    def calculate_qparams(self):
        amax = max(-self.min_val.item(), self.max_val.item(), 0.0)
        scale = 2.0 ** math.ceil(math.log2(max(amax / self.quant_max, self.eps.item())))
        return torch.tensor([scale]), torch.tensor([0], dtype=torch.int32)


def _power_of_two_spec(quant_min):
    return QuantizationSpec(dtype=torch.int8, quant_min=quant_min, quant_max=127, qscheme=torch.per_tensor_symmetric,
                            observer_or_fake_quant_ctr=PowerOfTwoMinMaxObserver.with_args(eps=2**-12))


VPU_ACT, VPU_WEIGHT = _power_of_two_spec(-128), _power_of_two_spec(-127)
VPU_Q3_12 = FixedQParamsQuantizationSpec(dtype=torch.int16, scale=2**-12, zero_point=0, quant_min=-32768,
                                         quant_max=32767, qscheme=torch.per_tensor_symmetric)
_VPU_RUNS = {torch.ops.aten.conv2d.default, torch.ops.aten.linear.default, torch.ops.aten.relu.default,
             torch.ops.aten.add.Tensor, torch.ops.aten.cat.default, torch.ops.aten.max_pool2d.default,
             torch.ops.aten.adaptive_avg_pool2d.default, torch.ops.aten.mean.dim, torch.ops.aten.flatten.using_ints}
_VPU_FUSES_RELU = {torch.ops.aten.conv2d.default, torch.ops.aten.linear.default, torch.ops.aten.add.Tensor}
_VPU_SHARES = {torch.ops.aten.max_pool2d.default, torch.ops.aten.flatten.using_ints,
               torch.ops.aten.adaptive_avg_pool2d.default, torch.ops.aten.mean.dim}


def _vpu_bias_spec(x, w, op):
    def derive(observers):
        (sa, _), (sw, _) = observers[0].calculate_qparams(), observers[1].calculate_qparams()
        return sa * sw, torch.zeros_like(sa, dtype=torch.int32)
    return DerivedQuantizationSpec(derived_from=[(x, op), (w, op)], derive_qparams_fn=derive, dtype=torch.int32,
                                   quant_min=-2**31, quant_max=2**31 - 1, qscheme=torch.per_tensor_symmetric)


def _fused_relu(n):
    users = list(n.users)
    return users[0] if len(users) == 1 and users[0].target == torch.ops.aten.relu.default else None


def vpu_refusal(n):
    """Why the VPU cannot run node n ("" when it can)."""
    if n.op != "call_function" or not isinstance(n.target, torch._ops.OpOverload) or "quantized_decomposed" in str(n.target):
        return ""
    if n.target not in _VPU_RUNS:
        return f"the VPU has no unit for {n.target}"
    if n.target == torch.ops.aten.relu.default:
        p = n.args[0]
        if p.target not in _VPU_FUSES_RELU or len(p.users) != 1:
            return "relu runs only fused into the conv2d / linear / add before it"
    if n.target == torch.ops.aten.add.Tensor and n.args[0].meta["val"].shape != n.args[1].meta["val"].shape:
        return "it broadcasts; the VPU adds codes element by element"
    return ""


class VPUQuantizer(Quantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.op != "call_function" or ANNOTATION_KEY in n.meta:
                continue
            relu = _fused_relu(n) if n.target in _VPU_FUSES_RELU else None
            last = relu or n
            out_is_model_output = any(u.op == "output" for u in last.users)
            if n.target in (torch.ops.aten.conv2d.default, torch.ops.aten.linear.default):
                x, w = n.args[0], n.args[1]
                inputs = {x: VPU_ACT, w: VPU_WEIGHT}
                if len(n.args) > 2 and n.args[2] is not None:
                    inputs[n.args[2]] = _vpu_bias_spec(x, w, n)
                out = VPU_ACT
            elif n.target == torch.ops.aten.add.Tensor:
                a, b = n.args[0], n.args[1]
                inputs, out = {a: VPU_ACT, b: SharedQuantizationSpec((a, n))}, SharedQuantizationSpec((a, n))
            elif n.target == torch.ops.aten.cat.default:
                first = n.args[0][0]
                inputs = {first: VPU_ACT, **{x: SharedQuantizationSpec((first, n)) for x in n.args[0][1:]}}
                out = SharedQuantizationSpec((first, n))
            elif n.target in _VPU_SHARES:
                inputs, out = {n.args[0]: VPU_ACT}, SharedQuantizationSpec((n.args[0], n))
            else:
                continue
            out = VPU_Q3_12 if out_is_model_output else out
            n.meta[ANNOTATION_KEY] = QuantizationAnnotation(input_qspec_map=inputs, output_qspec=None if relu else out,
                                                            _annotated=True)
            if relu:
                relu.meta[ANNOTATION_KEY] = QuantizationAnnotation(output_qspec=out, _annotated=True)
        return model

    def validate(self, model):
        for n in model.graph.nodes:
            why = vpu_refusal(n)
            if why:
                raise NotImplementedError(f"VPUQuantizer.validate: node {n.name} ({n.target}) cannot run on the VPU: {why}")
