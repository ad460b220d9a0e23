"""pt2e_course.py — the helpers the PyTorch cells of the PT2E Playground course use, in one file.

Put it next to a lesson's notebook (the page's "download as notebook" writes it into the notebook's first cell)
and every page's PyTorch cells run in order with torch 2.x, torchao 0.18 and ExecuTorch 1.5:

    from pt2e_course import get_model, example_inputs, calibration_batches, get_xnnpack_quantizer, calibrate, sqnr

What is here, each the PyTorch side of a name the page's cells use:
- the zoo: get_model(name) builds the course's models (conv_relu, stem, residual, cat_pool, tiny, linear_sigmoid,
  mlp, conv_relu_add) in eval mode, layers created in forward order right after the caller's manual_seed, as the page's engine
  does, each relu an nn.ReLU module of its own (torch 2.14's export records it in nn_module_stack, where
  X86InductorQuantizer looks for its conv / linear + relu patterns); input_shape(name) is one sample's shape;
- data: example_inputs(batch) (torch.randn(batch, 3, 16, 16)), calibration_batches(n, batch_size) (a synthetic
  4-class image set: bars, rings, checkerboards, gradients drawn in [0, 1] from a private generator seeded 2024,
  normalized per channel with the set's own mean / std) and held_out_images(first, count);
- PT2E plumbing: export_module, export_zoo, get_xnnpack_quantizer, calibrate, sqnr (torchao's compute_error);
- reports: short, op_counts, diff_ops, observer_nodes, qdq_nodes, observer_placement_table, annotation_table,
  unannotated_ops, table (prints rows), draw / draw_stages (print the graph; the page draws it);
- batch norm (M04 pages): set_bn_statistics(gm) (statistics of its own for every BN), state_dict, max_abs_diff;
- M07-M09: node_values, integer_codes, quantize_multiplier, fixed_point_requantize (the integer picture by hand),
  delegation_table / draw_partition (ExecuTorch's delegation report), time_forward (milliseconds per call);
- M05 / M06: train_batches, accuracy, fold_bn, layer_names, quantize_one_layer_alone, keep_one_layer_float,
  rank_by_sensitivity, sqnr_vs_layers_kept_float (the debugger page); synthetic_images (ten classes), evaluate_accuracy,
  train_steps (the QAT page);
- the fictional VPU of M10 / M10-1: PowerOfTwoMinMaxObserver, VPUQuantizer (annotate + validate), vpu_refusal.
"""
import copy
import math
import time

import torch
import torch.nn.functional as F
from torchao.quantization.pt2e import move_exported_model_to_train
from torchao.quantization.pt2e.observer import MinMaxObserver
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.quantization.pt2e.quantizer import (
    DerivedQuantizationSpec, FixedQParamsQuantizationSpec, QuantizationAnnotation, QuantizationSpec, Quantizer,
    SharedQuantizationSpec)
from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
    X86InductorQuantizer, get_default_x86_inductor_quantization_config)
from torchao.quantization.pt2e.utils import _fuse_conv_bn_
from torchao.quantization.utils import compute_error
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

ANNOTATION_KEY = "quantization_annotation"
QDQ_OPS = ("quantize_per_tensor", "dequantize_per_tensor", "quantize_per_channel", "dequantize_per_channel")


# ---- the zoo -------------------------------------------------------------------------------------------

class ConvReLU(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(self.conv(x))


class Stem(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(16)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.conv(x)))


class ResidualBlock(torch.nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(ch)
        self.conv2 = torch.nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(ch)
        self.relu1, self.relu2 = torch.nn.ReLU(), torch.nn.ReLU()

    def forward(self, x):
        y = self.relu1(self.bn1(self.conv1(x)))
        return self.relu2(self.bn2(self.conv2(y)) + x)


class CatPoolNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.b = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.out = torch.nn.Conv2d(16, 8, 3, padding=1)
        self.relu1, self.relu2 = torch.nn.ReLU(), torch.nn.ReLU()

    def forward(self, x):
        y = torch.cat([self.relu1(self.a(x)), self.relu2(self.b(x))], dim=1)
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
        self.relu1, self.relu2, self.relu3, self.relu4 = (torch.nn.ReLU() for _ in range(4))

    def forward(self, x):
        x = F.max_pool2d(self.relu1(self.bn1(self.conv1(x))), 2)
        y = self.bn3(self.conv3(self.relu2(self.bn2(self.conv2(x)))))
        x = F.max_pool2d(self.relu3(y + x), 2)
        x = self.relu4(self.bn4(self.conv4(x)))
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
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))   # relu is a module of its own: it belongs to neither fc1 nor fc2


class ConvReLUAdd(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        y = self.conv(x)
        return self.relu(y) + y     # the conv has two users: relu and add


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


# ---- M04, M04-1, M04-2: batch norm -------------------------------------------------------------------------

def set_bn_statistics(gm):
    """Every batch norm of an exported graph gets statistics of its own, as a trained network has them (so folding it
    is not an identity): per BN in graph order weight = 0.5 + 1.5 * rand, bias = 0.5 * randn, running_mean = 0.5 *
    randn, running_var = 0.1 + 2 * rand, from torch's generator (the page's engine draws the same numbers)."""
    params = dict(gm.named_parameters())
    params.update(gm.named_buffers())
    new = {}
    for n in gm.graph.nodes:
        if n.target == torch.ops.aten.batch_norm.default:
            w, b, mean, var = (a.target for a in n.args[1:5])
            new[w] = torch.rand(params[w].shape) * 1.5 + 0.5
            new[b] = torch.randn(params[b].shape) * 0.5
            new[mean] = torch.randn(params[mean].shape) * 0.5
            new[var] = torch.rand(params[var].shape) * 2 + 0.1
    gm.load_state_dict(new, strict=False)
    return gm


def state_dict(gm):
    """{name: tensor} of a graph's parameters and buffers, detached."""
    return {k: v.detach() for k, v in gm.state_dict().items()}


def max_abs_diff(a, b):
    return (a - b).abs().max().item()


# ---- M07-M09: the integer picture, lowering, two backends -------------------------------------------------

def node_values(gm, *inputs):
    """Every node's output when gm runs on inputs (torch.fx.Interpreter), by node name."""
    values = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n):
            values[n.name] = super().run_node(n)
            return values[n.name]

    with torch.no_grad():
        Recorder(gm).run(*inputs)
    return values


def integer_codes(y, gm):
    """The int codes behind a converted graph's float output: its last quantize's round(y / scale) + zero_point."""
    q = [n for n in gm.graph.nodes if short(n.target) in ("quantize_per_tensor",)][-1]
    return torch.round(y / q.args[1]) + q.args[2]


def quantize_multiplier(m):
    """TFLite's QuantizeMultiplier: m = q * 2**(shift - 31) with q an int32 in [2**30, 2**31)."""
    frac, shift = math.frexp(m)
    q = round(frac * 2 ** 31)
    if q == 2 ** 31:
        q, shift = q // 2, shift + 1
    return q, shift


def fixed_point_requantize(acc, q, shift):
    """gemmlowp's MultiplyByQuantizedMultiplier on an int tensor: the doubled high product, rounding divide by 2**-shift."""
    acc = acc.long() * 2 ** max(shift, 0)
    ab = acc * q
    nudge = torch.where(ab >= 0, torch.full_like(ab, 1 << 30), torch.full_like(ab, 1 - (1 << 30)))
    high = torch.div(ab + nudge, 1 << 31, rounding_mode="trunc")
    right = max(-shift, 0)
    mask = (1 << right) - 1
    threshold = (mask >> 1) + (high < 0).long()
    return (high >> right) + ((high & mask) > threshold).long()


def delegation_table(delegation_info):
    """ExecuTorch's get_delegation_info(graph_module): the summary and the per-op breakdown, printed."""
    print(delegation_info.get_summary())
    print(delegation_info.get_operator_delegation_dataframe())


def draw_partition(gm, delegation_info, title="", **_view_options):
    """The page draws the graph with delegated nodes marked; here: the graph and the delegation table."""
    draw(gm, title)
    delegation_table(delegation_info)


def time_forward(fn, x, repeats=5):
    """The median wall-clock milliseconds of fn(x) over `repeats` calls, after one warm-up call."""
    with torch.no_grad():
        fn(x)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn(x)
            times.append((time.perf_counter() - t0) * 1000)
    return sorted(times)[len(times) // 2]


# ---- M05: which layers stay fp32 ------------------------------------------------------------------------
# Training a few steps, and the layer experiments the page runs on top of torchao's numeric debugger: the model's
# output SQNR (compute_sqnr(quantized, float), as compare_results computes it) with some layers left in fp32.


def train_batches(gm, batches, steps, lr=0.05, momentum=0.9):
    """SGD (cross entropy) over `batches` [(x, labels)] in order, epoch after epoch, for `steps` steps (the page's
    pt.TrainLoop over batches); batch norms in training mode. Returns the model."""
    move_exported_model_to_train(gm)
    opt = torch.optim.SGD(gm.parameters(), lr=lr, momentum=momentum)
    for step in range(steps):
        x, labels = batches[step % len(batches)]
        opt.zero_grad()
        F.cross_entropy(gm(x), labels.long()).backward()
        opt.step()
    return gm


def accuracy(model, x, labels):
    """Top-1 accuracy in percent."""
    with torch.no_grad():
        return 100.0 * (model(x).argmax(dim=1) == labels.long()).float().mean().item()


def fold_bn(gm):
    """Folds every conv -> batch_norm into the conv, in place, as prepare_pt2e does first."""
    _fuse_conv_bn_(gm)
    return gm


def x86_quantizer_keeping_float(keep_float):
    """X86InductorQuantizer with its default config, the layers named in keep_float left in fp32."""
    q = X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())
    for layer in keep_float:
        q.set_module_name_qconfig(layer, None)
    return q


def layer_names(gm):
    """The model's conv / linear layers (their module names), in graph order."""
    names = []
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target in (torch.ops.aten.conv2d.default, torch.ops.aten.linear.default):
            fqn = list(n.meta["nn_module_stack"].values())[-1][0]
            if fqn not in names:
                names.append(fqn)
    return names


def quantize_and_compare(gm, quantizer, calibration, inputs):
    """prepare_pt2e / calibrate / convert_pt2e a copy of gm; the output SQNR (dB) of the converted model on `inputs`."""
    converted = convert_pt2e(calibrate(prepare_pt2e(copy.deepcopy(gm), quantizer), calibration))
    with torch.no_grad():
        return compute_error(converted(inputs), fold_bn(copy.deepcopy(gm))(inputs)).item()


def quantize_one_layer_alone(gm, quantizer_for, layers, data):
    """For each layer: every other layer kept float, the model's output SQNR."""
    return [{"layer": layer, "model_sqnr": quantize_and_compare(gm, quantizer_for([o for o in layers if o != layer]), *data)}
            for layer in layers]


def keep_one_layer_float(gm, quantizer_for, layers, data):
    """For each layer: only it kept float, the model's output SQNR."""
    return [{"layer": layer, "model_sqnr": quantize_and_compare(gm, quantizer_for([layer]), *data)} for layer in layers]


def rank_by_sensitivity(alone):
    """Layers ordered by the SQNR of quantizing them alone, lowest (most sensitive) first."""
    return [p["layer"] for p in sorted(alone, key=lambda p: p["model_sqnr"])]


def sqnr_vs_layers_kept_float(gm, quantizer_for, ranking, data):
    """The output SQNR with the first k layers of `ranking` kept float, k = 0 .. len(ranking)."""
    return [{"kept_float": ranking[:k], "model_sqnr": quantize_and_compare(gm, quantizer_for(ranking[:k]), *data)}
            for k in range(len(ranking) + 1)]


# ---- M06: QAT training ------------------------------------------------------------------------------------
# The ten-class synthetic image set the page trains on (the engine's synthetic_images: ten shapes, per-sample
# colours, pixel noise, normalized with the train split's own per-channel mean / std — the same recipe drawn with
# torch's generator, so the same kind of images, not the same bits), test accuracy, and a few training steps.

def _shape_mask(gen, label, h, w):
    """Shape `label` of the ten (0..3 as _draw_image; 4 disc, 5 plus, 6 diagonal, 7 frame, 8 dots, 9 cross)."""
    def rand(lo=0.0, hi=1.0):
        return lo + (hi - lo) * float(torch.rand(1, generator=gen))

    def randint(lo, hi):   # lo..hi inclusive
        return int(torch.randint(lo, hi + 1, (1,), generator=gen))

    hh, ww = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    if label == 4:   # disc
        cy, cx, r = rand(0.25, 0.75) * h, rand(0.25, 0.75) * w, rand(0.2, 0.35) * min(h, w)
        return torch.clamp(r - torch.hypot(hh + 0.5 - cy, ww + 0.5 - cx) + 0.5, 0, 1)
    if label == 5:   # plus
        cy, cx, t = randint(h // 4, h - 1 - h // 4), randint(w // 4, w - 1 - w // 4), randint(2, 3)
        return (((hh >= cy - t // 2) & (hh < cy - t // 2 + t)) | ((ww >= cx - t // 2) & (ww < cx - t // 2 + t))).float()
    if label == 6:   # diagonal stripes
        coord = hh + ww if randint(0, 1) == 1 else hh - ww
        period = randint(4, 6)
        phase = randint(0, period - 1)
        return ((coord + phase) % period < period // 2).float()
    if label == 7:   # frame
        side = max(4, int(rand(0.45, 0.8) * min(h, w)))
        top, left = randint(0, h - side), randint(0, w - side)
        y, x = hh - top, ww - left
        inside = (y >= 0) & (x >= 0) & (y < side) & (x < side)
        return (inside & ((y < 2) | (x < 2) | (y >= side - 2) | (x >= side - 2))).float()
    if label == 8:   # dots
        period = randint(4, 5)
        oy, ox = randint(0, period - 1), randint(0, period - 1)
        return (((hh + oy) % period < 2) & ((ww + ox) % period < 2)).float()
    cy, cx = rand(0.25, 0.75) * h, rand(0.25, 0.75) * w   # 9 cross: the two diagonals through (cy, cx)
    y, x = hh + 0.5 - cy, ww + 0.5 - cx
    return torch.clamp(1 - torch.minimum((y - x).abs(), (y + x).abs()) / math.sqrt(2) / 1.5, min=0)


def _synthetic_split(n, num_classes, noise, seed, shape=(3, 16, 16)):
    gen = torch.Generator().manual_seed(seed)
    c, h, w = shape
    images = []
    for i in range(n):
        label = i % num_classes
        if label < 4:
            images.append(torch.clamp(_draw_image(gen, label, c, h, w) + (noise - 0.05) * torch.randn(c, h, w, generator=gen), 0, 1))
            continue
        mask = _shape_mask(gen, label, h, w)
        bg = torch.tensor([0.3 * float(torch.rand(1, generator=gen)) for _ in range(c)]).view(c, 1, 1)
        fg = torch.tensor([0.6 + 0.4 * float(torch.rand(1, generator=gen)) for _ in range(c)]).view(c, 1, 1)
        images.append(torch.clamp(bg + (fg - bg) * mask + noise * torch.randn(c, h, w, generator=gen), 0, 1))
    return torch.stack(images), torch.arange(n) % num_classes


def synthetic_images(split, n, num_classes=10, noise=0.3, seed=2024):
    """A TensorDataset (x [n, 3, 16, 16], labels [n]) of the ten-class image set; 'test' draws from seed + 1."""
    stats, _ = _synthetic_split(1024, num_classes, noise, seed)
    mean = stats.mean(dim=(0, 2, 3), keepdim=True)
    std = stats.std(dim=(0, 2, 3), keepdim=True, unbiased=False)
    images, labels = _synthetic_split(n, num_classes, noise, seed + 1 if split == "test" else seed)
    return torch.utils.data.TensorDataset((images - mean) / std, labels)


def evaluate_accuracy(model, dataset, batch_size=256):
    """Top-1 test accuracy in percent over a TensorDataset (put batch norms in eval mode first)."""
    x, labels = dataset.tensors
    with torch.no_grad():
        right = sum((model(x[i:i + batch_size]).argmax(dim=1) == labels[i:i + batch_size]).sum().item()
                    for i in range(0, len(labels), batch_size))
    return 100.0 * right / len(labels)


def train_steps(gm, loader, opt, steps):
    """`steps` SGD steps (cross entropy) over the loader, a new epoch whenever one ends; the losses."""
    losses = []
    while len(losses) < steps:
        for x, labels in loader:
            opt.zero_grad()
            loss = F.cross_entropy(gm(x), labels.long())
            loss.backward()
            opt.step()
            losses.append(loss.item())
            if len(losses) == steps:
                break
    return losses


# ---- the fictional VPU (lessons M10, M10-1) --------------------------------------------------------------
# The page's pt.VPUQuantizer in torchao's terms: power-of-two symmetric int8 scales, an int32 derived bias,
# shared add / cat scales, a Q3.12 (int16, 2**-12) model output, relu only fused, validate() naming the node.


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
