#!/usr/bin/python3
"""gen_grad.py — golden gradients and optimizer steps from real PyTorch autograd, for engine/train.

Run with Debian's torch 1.13 (not the pyenv python):  /usr/bin/python3 tests/golden/gen_grad.py
Writes tests/golden/grad/<case>.bin + <case>.json in the format of gen_models.py (tests/engine/ops/golden.h
reads it). Integer tensors (class labels) are stored as float32 (exact). The C++ tests repeat each op's
hyper-parameters (stride, dims, ...) next to its case name.

ops        per case <c>: the inputs, a random cotangent <c>.g (or a loss), the output <c>.y and torch's
           gradients <c>.d<input> of sum(y * g): conv2d (stride, padding, dilation, groups, depthwise; conv_d /
           conv_e: 3x3, stride 1, padding 1, 8 or more channels a group),
           linear, relu, hardtanh, sigmoid, max_pool2d (maxpool_e: overlapping windows
           sharing a maximum, float accumulation visible), adaptive_avg_pool2d, mean, add / mul / div with
           broadcasting, sqrt, flatten, cat, batch_norm (train and eval), fake_quantize per tensor and per
           channel, FusedMovingAvgObsFakeQuantize (per tensor and per-channel weight; <c>.scale / <c>.zp
           afterwards), cross_entropy and mse_loss (<c>.loss and <c>.dx).
<model>    every zoo model (gen_models.py's definitions), seed-0 init with non-trivial BatchNorm state
           drawn after seed 1 (as gen_models.py), model.train(), x = randn(3, *input_shape) after seed 5;
           classifiers (tiny, mlp): loss = cross_entropy(model(x), labels); the others: out.backward(g)
           with a fixed random cotangent g. state.<k>, x, labels or g, out, loss, grad.<param>, dx, and
           after.<buffer> = the running statistics after the forward.
optim      a parameter p [7] and three gradients g1..g3; for each optimizer configuration <o> the
           parameter after each step, <o>.p1 .. <o>.p3 (torch's single-tensor path, foreach=False); sgd_schedule /
           adam_schedule change param_groups[0]'s lr and momentum / betas after the first step.
losses     F.cross_entropy and F.mse_loss with torch's keyword arguments: per case <c> the input <c>.x, labels
           <c>.labels (or target <c>.t), class weights <c>.weight where given, the loss <c>.loss and <c>.dx (the
           gradient of sum(loss * <c>.g) for reduction='none', of the loss otherwise); the keyword arguments are
           repeated in tests/engine/train/test_losses.cpp next to each case name.
tiny_<opt> three training steps of TinyConvNet (seed-0 init) with SGD(lr=0.05, momentum=0.9,
           dampening=0.1, weight_decay=1e-3) / Adam(lr=0.01, betas=(0.9, 0.99), eps=1e-6,
           weight_decay=1e-3): per step k (x<k> [8, 3, 16, 16], labels<k>): loss<k> (before the update),
           then step<k>.<name> for every parameter and BatchNorm running statistic after optimizer.step().
"""
import os

import torch
import torch.nn.functional as F
from torch.ao.quantization import FusedMovingAvgObsFakeQuantize
from torch.ao.quantization.observer import MovingAveragePerChannelMinMaxObserver

import gen_models

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "grad")


def Writer():
    return gen_models.Writer(OUT)


def leaf(t):
    return t.detach().clone().requires_grad_(True)


def gen_ops():
    w = Writer()
    torch.manual_seed(3)
    r = torch.randn

    def case(name, fn, **inputs):
        """y = fn(**leaves); backward of sum(y * g); writes inputs, g, y and the inputs' gradients."""
        leaves = {k: leaf(v) for k, v in inputs.items()}
        y = fn(**leaves)
        g = r(*y.shape)
        y.backward(g)
        for k, v in inputs.items():
            w.add("%s.%s" % (name, k), v)
        w.add(name + ".g", g)
        w.add(name + ".y", y)
        for k, v in leaves.items():
            if v.grad is not None:
                w.add("%s.d%s" % (name, k), v.grad)

    case("conv_a", lambda x, w, b: F.conv2d(x, w, b, (2, 1), (1, 2), (1, 2)), x=r(2, 3, 7, 9), w=r(5, 3, 3, 2), b=r(5))
    case("conv_b", lambda x, w: F.conv2d(x, w, None, 1, 1, 1, 2), x=r(3, 4, 6, 5), w=r(6, 2, 3, 3))
    case("conv_c", lambda x, w, b: F.conv2d(x, w, b, 2, 0, 1, 4), x=r(2, 4, 5, 5), w=r(4, 1, 3, 3), b=r(4))
    case("linear", lambda x, w, b: F.linear(x, w, b), x=r(3, 5, 7), w=r(4, 7), b=r(4))
    x = 3 * r(3, 5, 7)
    x[0, 0, :3] = 0.0  # relu at exactly 0 passes no gradient
    case("relu", lambda x: F.relu(x), x=x)
    x = 2 * r(4, 9)
    x[0, :4] = torch.tensor([-1.0, 1.0, -0.5, 1.5])  # on the bounds: no gradient
    case("hardtanh", lambda x: F.hardtanh(x), x=x)
    case("hardtanh_b", lambda x: F.hardtanh(x, -0.5, 1.5), x=x)
    case("sigmoid", lambda x: torch.sigmoid(x), x=3 * r(5, 7))
    case("maxpool_a", lambda x: F.max_pool2d(x, 3, 2, 1), x=r(2, 3, 9, 7))
    case("maxpool_b", lambda x: F.max_pool2d(x, 2), x=r(1, 2, 8, 8))
    case("maxpool_c", lambda x: F.max_pool2d(x, 3, 2, 0, 1, ceil_mode=True), x=r(2, 2, 8, 8))
    case("maxpool_d", lambda x: F.max_pool2d(x, 2, 1, 0, 2), x=r(1, 2, 9, 9))
    case("adaptive_a", lambda x: F.adaptive_avg_pool2d(x, (3, 2)), x=r(2, 3, 7, 5))
    case("adaptive_b", lambda x: F.adaptive_avg_pool2d(x, 1), x=r(2, 3, 5, 5))
    case("mean_a", lambda x: x.mean(dim=(1, 3)), x=r(3, 4, 5, 6))
    case("mean_b", lambda x: x.mean(dim=(2, 3), keepdim=True), x=r(3, 4, 5, 6))
    case("add", lambda a, b: torch.add(a, b, alpha=2.0), a=r(2, 3, 4, 5), b=r(3, 1, 5))
    case("mul", lambda a, b: a * b, a=r(2, 3, 4, 5), b=r(1, 3, 1, 1))
    case("div", lambda a, b: a / b, a=r(2, 3, 4, 5), b=torch.rand(3, 1, 1) + 0.5)
    case("sqrt", lambda x: torch.sqrt(x), x=torch.rand(3, 7) + 0.1)
    case("flatten", lambda x: torch.flatten(x, 1), x=r(2, 3, 4, 5))
    case("cat", lambda a, b, c: torch.cat([a, b, c], 1), a=r(2, 3, 4), b=r(2, 5, 4), c=r(2, 1, 4))
    rm, rv = 0.3 * r(5), torch.rand(5) + 0.5
    case("bn_train", lambda x, w, b: F.batch_norm(x, rm.clone(), rv.clone(), w, b, True, 0.1, 1e-5),
         x=2 * r(3, 5, 4, 7) + 1, w=torch.rand(5) + 0.5, b=r(5))
    case("bn_train_2d", lambda x, w, b: F.batch_norm(x, None, None, w, b, True, 0.1, 1e-3),
         x=r(6, 5), w=torch.rand(5) + 0.5, b=r(5))
    case("bn_eval", lambda x, w, b: F.batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5),
         x=r(3, 5, 4, 7), w=torch.rand(5) + 0.5, b=r(5))
    w.add("bn_eval.rm", rm), w.add("bn_eval.rv", rv)
    w.add("bn_train.rm", rm), w.add("bn_train.rv", rv)
    case("fq_tensor", lambda x: torch.fake_quantize_per_tensor_affine(x, 0.05, 3, -128, 127), x=3 * r(4, 9))
    case("fq_channel", lambda x: torch.fake_quantize_per_channel_affine(
        x, torch.tensor([0.02, 0.05, 0.1, 0.01]), torch.tensor([0, 2, -1, 0], dtype=torch.int32), 1, -127, 127),
        x=2 * r(3, 4, 5))
    fq = FusedMovingAvgObsFakeQuantize()  # quint8 0..255, per-tensor affine
    case("fused_tensor", lambda x: fq(x), x=3 * r(4, 9) + 1)
    w.add("fused_tensor.scale", fq.scale)
    w.add("fused_tensor.zp", fq.zero_point.float())
    fqc = FusedMovingAvgObsFakeQuantize(observer=MovingAveragePerChannelMinMaxObserver, quant_min=-127, quant_max=127,
                                        dtype=torch.qint8, qscheme=torch.per_channel_symmetric, eps=2 ** -12)
    case("fused_channel", lambda x: fqc(x), x=0.3 * r(6, 3, 3, 3))
    w.add("fused_channel.scale", fqc.scale)
    w.add("fused_channel.zp", fqc.zero_point.float())

    x, labels = leaf(2 * r(7, 5)), torch.randint(0, 5, (7,))
    loss = F.cross_entropy(x, labels)
    loss.backward()
    w.add("ce.x", x), w.add("ce.labels", labels.float()), w.add("ce.loss", loss), w.add("ce.dx", x.grad)
    x, t = leaf(r(3, 4, 5)), r(3, 4, 5)
    loss = F.mse_loss(x, t)
    loss.backward()
    w.add("mse.x", x), w.add("mse.t", t), w.add("mse.loss", loss), w.add("mse.dx", x.grad)
    # Overlapping windows that share their maximum: torch adds each window's gradient into the input's
    # gradient in float, in output order (cpu_max_pool_backward), so the sum's rounding is visible:
    # cotangents of very different sizes, the large ones first.
    x = r(2, 3, 7, 7)
    x[:, :, 3, 3] = 10.0
    x[0, 1, 1:4, 1:4] = 5.0  # a tie: the first maximum of each window wins
    xl = leaf(x)
    y = F.max_pool2d(xl, 3, 1, 1)
    g = r(*y.shape) * torch.pow(2.0, -torch.randint(0, 26, y.shape).float())
    y.backward(g)
    w.add("maxpool_e.x", x), w.add("maxpool_e.g", g), w.add("maxpool_e.y", y), w.add("maxpool_e.dx", xl.grad)
    # 3x3 at stride 1 and padding 1 with 8 or more channels a group (the engine's Winograd gradients): odd sizes and
    # channel counts, then two groups.
    case("conv_d", lambda x, w, b: F.conv2d(x, w, b, 1, 1), x=r(3, 9, 7, 5), w=r(10, 9, 3, 3), b=r(10))
    case("conv_e", lambda x, w: F.conv2d(x, w, None, 1, 1, 1, 2), x=r(2, 16, 6, 9), w=r(16, 8, 3, 3))
    w.save("ops")


def nontrivial_bn(m):
    """gen_models.py's non-trivial BatchNorm state (seed 1), so the BN gradients see real weights."""
    torch.manual_seed(1)
    with torch.no_grad():
        for mod in m.modules():
            if isinstance(mod, torch.nn.BatchNorm2d):
                n = mod.num_features
                mod.weight.copy_(torch.rand(n) + 0.5)
                mod.bias.copy_(0.2 * torch.randn(n))
                mod.running_mean.copy_(0.3 * torch.randn(n))
                mod.running_var.copy_(torch.rand(n) * 1.5 + 0.5)


CLASSIFIERS = {"tiny", "mlp"}


def gen_model(name):
    ctor, shape, _ = gen_models.ZOO[name]
    w = Writer()
    torch.manual_seed(0)
    m = ctor()
    nontrivial_bn(m)
    for k, v in gen_models.state_items(m):
        w.add("state." + k, v)
    m.train()
    torch.manual_seed(5)
    x = leaf(torch.randn(3, *shape))
    out = m(x)
    w.add("x", x)
    w.add("out", out)
    if name in CLASSIFIERS:
        labels = torch.randint(0, out.shape[1], (3,))
        loss = F.cross_entropy(out, labels)
        w.add("labels", labels.float())
        w.add("loss", loss)
        loss.backward()
    else:
        g = torch.randn(*out.shape)
        w.add("g", g)
        out.backward(g)
    for k, p in m.named_parameters():
        w.add("grad." + k, p.grad)
    w.add("dx", x.grad)
    for k, b in m.named_buffers():
        if not k.endswith("num_batches_tracked"):
            w.add("after." + k, b)
    w.save(name)


def gen_losses():
    w = Writer()
    torch.manual_seed(11)
    r = torch.randn

    def record(name, x, target, target_name, loss_fn, **kw):
        """loss_fn(x, target, **kw) (class weights drawn when kw asks "weighted"), then backward of it, or of
        sum(loss * <name>.g) for a per-sample loss; writes x, the target, the weights, loss, dx and g."""
        if kw.pop("weighted", False):
            kw["weight"] = torch.rand(x.shape[1]) + 0.25
            w.add(name + ".weight", kw["weight"])
        loss = loss_fn(x, target, **kw)
        g = r(*loss.shape) if loss.dim() else None
        loss.backward(g)
        w.add(name + ".x", x), w.add(name + "." + target_name, target), w.add(name + ".loss", loss)
        w.add(name + ".dx", x.grad)
        if g is not None:
            w.add(name + ".g", g)

    def ce(name, n, c, ignore=(), **kw):  # class indices (stored as float32)
        x, labels = leaf(2 * r(n, c)), torch.randint(0, c, (n,))
        for i in ignore:
            labels[i] = kw.get("ignore_index", -100)
        record(name, x, labels.float(), "labels", lambda x, t, **k: F.cross_entropy(x, t.long(), **k), **kw)

    ce("ce_weight", 7, 5, ignore=(3,), weighted=True)
    ce("ce_sum", 6, 4, reduction="sum")
    ce("ce_none", 5, 6, ignore=(1,), ignore_index=2, reduction="none", weighted=True)
    ce("ce_smooth", 8, 5, label_smoothing=0.1)
    ce("ce_smooth_weight", 7, 4, ignore=(0, 5), ignore_index=3, label_smoothing=0.25, weighted=True)
    ce("ce_smooth_sum", 4, 3, label_smoothing=0.4, reduction="sum", weighted=True)
    ce("ce_smooth_none", 6, 5, ignore=(2,), label_smoothing=0.3, reduction="none", weighted=True)
    ce("ce_all_ignored", 3, 4, ignore=(0, 1, 2))  # mean over no sample: 0 / 0
    ce("ce_negative_smoothing", 5, 4, label_smoothing=-0.3)  # no smoothing (torch smooths only for > 0)

    def soft(name, n, c, **kw):  # class probabilities: a target of the input's shape
        x, t = leaf(2 * r(n, c)), torch.softmax(2 * r(n, c), 1)
        record(name, x, t, "t", F.cross_entropy, **kw)

    soft("ce_prob", 6, 5)
    soft("ce_prob_smooth_weight", 5, 4, label_smoothing=0.2, weighted=True)
    soft("ce_prob_sum", 4, 3, reduction="sum", weighted=True)
    soft("ce_prob_none", 5, 6, label_smoothing=0.1, reduction="none")
    for red in ("sum", "none"):
        record("mse_" + red, leaf(r(3, 4, 5)), r(3, 4, 5), "t", F.mse_loss, reduction=red)
    w.save("losses")


def gen_optim():
    w = Writer()
    torch.manual_seed(9)
    p0, grads = torch.randn(7), [torch.randn(7) for _ in range(3)]
    w.add("p", p0)
    for k, g in enumerate(grads):
        w.add("g%d" % (k + 1), g)
    configs = {
        "sgd_plain": lambda ps: torch.optim.SGD(ps, lr=0.1, foreach=False),
        "sgd_momentum": lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.2, weight_decay=0.05,
                                                   foreach=False),
        "sgd_nesterov": lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.8, nesterov=True, foreach=False),
        "sgd_maximize": lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.5, weight_decay=0.1, maximize=True,
                                                   foreach=False),
        "adam": lambda ps: torch.optim.Adam(ps, lr=0.1, foreach=False),
        "adam_wd": lambda ps: torch.optim.Adam(ps, lr=0.05, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1,
                                               foreach=False),
        "adam_amsgrad": lambda ps: torch.optim.Adam(ps, lr=0.1, amsgrad=True, foreach=False),
        "adam_maximize": lambda ps: torch.optim.Adam(ps, lr=0.1, maximize=True, foreach=False),
    }
    for name, make in configs.items():
        p = torch.nn.Parameter(p0.clone())
        opt = make([p])
        for k, g in enumerate(grads):
            p.grad = g.clone()
            opt.step()
            w.add("%s.p%d" % (name, k + 1), p)
    # A schedule: param_groups[0]'s hyper-parameters changed after the first step (the buffers and moments stay).
    schedules = {
        "sgd_schedule": (lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, foreach=False), {"lr": 0.02, "momentum": 0.5}),
        "adam_schedule": (lambda ps: torch.optim.Adam(ps, lr=0.1, foreach=False), {"lr": 0.03, "betas": (0.5, 0.9)}),
    }
    for name, (make, change) in schedules.items():
        p = torch.nn.Parameter(p0.clone())
        opt = make([p])
        for k, g in enumerate(grads):
            p.grad = g.clone()
            opt.step()
            if k == 0:
                opt.param_groups[0].update(change)
            w.add("%s.p%d" % (name, k + 1), p)
    w.save("optim")


def gen_tiny_steps(opt_name, make):
    w = Writer()
    torch.manual_seed(0)
    m = gen_models.TinyConvNet()
    m.train()
    opt = make(m.parameters())
    torch.manual_seed(11)
    for k in range(1, 4):
        x, labels = torch.randn(8, 3, 16, 16), torch.randint(0, 4, (8,))
        w.add("x%d" % k, x)
        w.add("labels%d" % k, labels.float())
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(m(x), labels)
        loss.backward()
        opt.step()
        w.add("loss%d" % k, loss)
        for name, t in gen_models.state_items(m):
            w.add("step%d.%s" % (k, name), t)
    w.save("tiny_" + opt_name)


if __name__ == "__main__":
    torch.set_num_threads(1)  # [N, C] batch norm sums per thread: one thread = the engine's order
    os.makedirs(OUT, exist_ok=True)
    gen_ops()
    for name in gen_models.ZOO:
        gen_model(name)
    gen_optim()
    gen_losses()
    gen_tiny_steps("sgd", lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9, dampening=0.1, weight_decay=1e-3,
                                                     foreach=False))
    gen_tiny_steps("adam", lambda ps: torch.optim.Adam(ps, lr=0.01, betas=(0.9, 0.99), eps=1e-6, weight_decay=1e-3,
                                                       foreach=False))
    print("wrote", sorted(os.listdir(OUT)))
