#!/usr/bin/python3
"""gen_models.py — golden data for the engine's float ops and model zoo, computed by real PyTorch.

Run with Debian's torch 1.13 (not the pyenv python):  /usr/bin/python3 tests/golden/gen_models.py
Writes tests/golden/models/<case>.bin (raw little-endian float32, tensors back to back) and
<case>.json ({"tensors": [{"name", "shape", "offset"}], ...}; offset counts floats). Tests read these
without torch.

ops: inputs and torch outputs for each reference op (parameters are repeated in the C++ tests).
<model> (one per zoo model), every tensor named as below:
  init.<param>       state_dict right after torch.manual_seed(0) and construction (checks init order)
  example            torch.randn(batch, *input_shape) drawn right after construction
  state.<param>      state_dict used for the output checks: init, but every BatchNorm gets
                     non-trivial weight / bias / running_mean / running_var drawn after
                     torch.manual_seed(1) (so folding is exercised)
  out                model.eval()(example) with `state`
  fold.<conv>.weight / fold.<conv>.bias   torch.nn.utils.fusion.fuse_conv_bn_eval of each conv/bn pair
  out_folded         the forward with every conv/bn pair replaced by its fused conv
  init_fold.<conv>.weight   fuse_conv_bn_eval of the *init* state (default BN) — seed M01-2 weight scales
The model definitions mirror engine/graph/models.cpp.
"""
import json
import os
import struct

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.fusion import fuse_conv_bn_eval

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")


class Writer:
    """Float32 tensors to <out>/<case>.bin and their names / shapes / offsets to <case>.json (golden.h reads them)."""

    def __init__(self, out=OUT):
        self.out, self.tensors, self.data, self.extra = out, [], bytearray(), {}

    def add(self, name, t):
        t = t.detach().to(torch.float32).contiguous()
        self.tensors.append({"name": name, "shape": list(t.shape), "offset": len(self.data) // 4})
        self.data += struct.pack("<%df" % t.numel(), *t.flatten().tolist())

    def save(self, case):
        os.makedirs(self.out, exist_ok=True)
        with open(os.path.join(self.out, case + ".bin"), "wb") as f:
            f.write(self.data)
        with open(os.path.join(self.out, case + ".json"), "w") as f:
            head = {"case": case, "torch": torch.__version__, **self.extra}
            f.write(json.dumps(head)[:-1] + ', "tensors": [\n')  # one tensor per line
            f.write(",\n".join(json.dumps(t) for t in self.tensors) + "\n]}\n")


# ---- models (same structure, names and construction order as engine/graph/models.cpp) ----------

class ConvReLU(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.conv(x))


class Stem(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.conv(x)))


class ResidualBlock(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch)
        self.relu1, self.relu2 = nn.ReLU(), nn.ReLU()

    def forward(self, x):
        y = self.relu1(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return self.relu2(y + x)


class CatPoolNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 8, 3, padding=1)
        self.b = nn.Conv2d(3, 8, 3, padding=1)
        self.out = nn.Conv2d(16, 8, 3, padding=1)
        self.relu1, self.relu2 = nn.ReLU(), nn.ReLU()

    def forward(self, x):
        y = torch.cat([self.relu1(self.a(x)), self.relu2(self.b(x))], 1)
        y = self.out(F.max_pool2d(y, 2))
        return y + y.mean(dim=(2, 3), keepdim=True)


class TinyConvNet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.conv3 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn3 = nn.BatchNorm2d(16)
        self.conv4 = nn.Conv2d(16, 32, 3, padding=1, bias=False)
        self.bn4 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32, num_classes)
        self.relu1, self.relu2, self.relu3, self.relu4 = nn.ReLU(), nn.ReLU(), nn.ReLU(), nn.ReLU()

    def forward(self, x):
        x = F.max_pool2d(self.relu1(self.bn1(self.conv1(x))), 2)
        y = self.relu2(self.bn2(self.conv2(x)))
        y = self.bn3(self.conv3(y))
        x = F.max_pool2d(self.relu3(y + x), 2)
        x = self.relu4(self.bn4(self.conv4(x)))
        x = torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)
        return self.fc(x)


class LinearSigmoid(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 8)

    def forward(self, x):
        return torch.sigmoid(self.fc(x))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class ConvReLUAdd(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.relu = nn.ReLU()

    def forward(self, x):
        y = self.conv(x)
        return self.relu(y) + y


ZOO = {  # name: (constructor, per-sample input shape, batch)
    "conv_relu": (ConvReLU, (3, 16, 16), 2),
    "stem": (Stem, (3, 16, 16), 2),
    "residual": (ResidualBlock, (8, 16, 16), 2),
    "cat_pool": (CatPoolNet, (3, 16, 16), 2),
    "tiny": (TinyConvNet, (3, 16, 16), 2),
    "linear_sigmoid": (LinearSigmoid, (16,), 3),
    "mlp": (MLP, (16,), 3),
    "conv_relu_add": (ConvReLUAdd, (3, 16, 16), 2),
}


def conv_bn_pairs(m):
    mods = dict(m.named_children())
    return [(c, b) for c, b in zip(list(mods), list(mods)[1:])
            if isinstance(mods[c], nn.Conv2d) and isinstance(mods[b], nn.BatchNorm2d)]


def folded_copy(m):
    """The model with each conv/bn pair replaced by the fused conv and the bn by Identity."""
    import copy
    f = copy.deepcopy(m)
    for c, b in conv_bn_pairs(m):
        setattr(f, c, fuse_conv_bn_eval(getattr(m, c), getattr(m, b)))
        setattr(f, b, nn.Identity())
    return f


def state_items(m):
    return [(k, v) for k, v in m.state_dict().items() if not k.endswith("num_batches_tracked")]


def gen_model(name):
    ctor, shape, batch = ZOO[name]
    w = Writer()
    torch.manual_seed(0)
    m = ctor().eval()
    ex = torch.randn(batch, *shape)
    for k, v in state_items(m):
        w.add("init." + k, v)
    w.add("example", ex)
    with torch.no_grad():
        for c, b in conv_bn_pairs(m):
            w.add("init_fold.%s.weight" % c, fuse_conv_bn_eval(getattr(m, c), getattr(m, b)).weight)
        torch.manual_seed(1)
        for mod in m.modules():
            if isinstance(mod, nn.BatchNorm2d):
                n = mod.num_features
                mod.weight.copy_(torch.rand(n) + 0.5)
                mod.bias.copy_(0.2 * torch.randn(n))
                mod.running_mean.copy_(0.3 * torch.randn(n))
                mod.running_var.copy_(torch.rand(n) * 1.5 + 0.5)
        for k, v in state_items(m):
            w.add("state." + k, v)
        w.add("out", m(ex))
        f = folded_copy(m)
        for c, _ in conv_bn_pairs(m):
            w.add("fold.%s.weight" % c, getattr(f, c).weight)
            w.add("fold.%s.bias" % c, getattr(f, c).bias)
        w.add("out_folded", f(ex))
    w.extra = {"input_shape": list(shape), "batch": batch, "folds": [c for c, _ in conv_bn_pairs(m)]}
    w.save(name)


def gen_ops():
    w = Writer()
    torch.manual_seed(42)
    r = torch.randn

    def case(name, out, **inputs):
        for k, v in inputs.items():
            w.add(name + "." + k, v)
        w.add(name + ".out", out)

    x, wt, b = r(2, 3, 9, 8), r(4, 3, 3, 3), r(4)
    case("conv2d_pad1", F.conv2d(x, wt, b, 1, 1), x=x, w=wt, b=b)
    x, wt = r(1, 4, 11, 10), r(6, 4, 3, 2)
    case("conv2d_s2_p12_d2_nobias", F.conv2d(x, wt, None, 2, (1, 2), 2), x=x, w=wt)
    x, wt, b = r(2, 4, 7, 7), r(6, 2, 3, 3), r(6)
    case("conv2d_groups2_s21", F.conv2d(x, wt, b, (2, 1), 0, 1, 2), x=x, w=wt, b=b)
    x, wt, b = r(5, 7), r(3, 7), r(3)
    case("linear_bias", F.linear(x, wt, b), x=x, w=wt, b=b)
    x, wt = r(2, 3, 7), r(3, 7)
    case("linear_3d_nobias", F.linear(x, wt), x=x, w=wt)
    x = 3 * r(3, 4, 5)
    case("relu", F.relu(x), x=x)
    case("sigmoid", torch.sigmoid(x), x=x)
    case("hardtanh", F.hardtanh(x, -0.5, 0.75), x=x)
    x = r(2, 3, 8, 8)
    case("max_pool2d_k2", F.max_pool2d(x, 2), x=x)
    x = r(1, 2, 9, 7)
    case("max_pool2d_k3_s2_p1", F.max_pool2d(x, 3, 2, 1), x=x)
    x = r(1, 2, 7, 7)
    case("max_pool2d_k2_ceil", F.max_pool2d(x, 2, 2, 0, 1, ceil_mode=True), x=x)
    case("max_pool2d_k2_s1_d2", F.max_pool2d(x, 2, 1, 0, 2), x=x)
    x = r(2, 3, 7, 5)
    case("adaptive_avg_pool2d_1", F.adaptive_avg_pool2d(x, 1), x=x)
    case("adaptive_avg_pool2d_32", F.adaptive_avg_pool2d(x, (3, 2)), x=x)
    x = r(2, 3, 4, 5)
    case("mean_23_keep", x.mean(dim=(2, 3), keepdim=True), x=x)
    case("mean_m1", x.mean(dim=-1), x=x)
    case("mean_02", x.mean(dim=(0, 2)), x=x)
    a, c = r(2, 3, 4, 5), r(3, 1, 5)
    case("add_broadcast_alpha", torch.add(a, c, alpha=2.5), a=a, b=c)
    a, c = r(4, 1, 5), r(1, 3, 1)
    case("mul_broadcast", a * c, a=a, b=c)
    a, c = r(2, 3, 4), r(2, 5, 4)
    case("cat_dim1", torch.cat([a, c], 1), a=a, b=c)
    a, c = r(2, 3, 4), r(2, 3, 2)
    case("cat_dim_m1", torch.cat([a, c], -1), a=a, b=c)
    x = r(2, 3, 4, 5)
    case("flatten_1_2", torch.flatten(x, 1, 2), x=x)
    x, wt, b, rm, rv = r(2, 4, 5, 5), r(4), r(4), r(4), torch.rand(4) + 0.1
    case("batch_norm_eps1e-3", F.batch_norm(x, rm, rv, wt, b, False, 0.1, 1e-3), x=x, w=wt, b=b, rm=rm, rv=rv)
    w.save("ops")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    gen_ops()
    for name in ZOO:
        gen_model(name)
    print("wrote", sorted(os.listdir(OUT)))
