#!/usr/bin/python3
"""gen_qat.py — golden data for batch_norm in training mode and the QAT conv-bn fusion, from real PyTorch.

Run with Debian's torch 1.13 (not the pyenv python):  /usr/bin/python3 tests/golden/gen_qat.py
Writes tests/golden/qat/<case>.bin (raw little-endian float32) + <case>.json in the format of
gen_models.py (tests/engine/ops/golden.h reads it). Torch 1.13 has no PT2E; what it does have is
F.batch_norm(training=True) and torch.nn.intrinsic.qat.ConvBn2d, whose `_forward_approximate` is
the computation torchao's `_fuse_conv_bn_qat` writes into the graph (docs/algorithms.md, _fuse_conv_bn_qat).

bn_train_a   x [4, 6, 5, 5], weight, bias, running stats; y1 / rm1 / rv1 after F.batch_norm(training=True,
             momentum=0.1, eps=1e-5) on x, then y2 / rm2 / rv2 after a second call on x2 (stats accumulate)
bn_train_b   2-D x [8, 5], no weight / bias, momentum 0.3, eps 1e-3
bn_train_c   x [16, 16, 16, 16] * 3 + 1 (long per-channel sums, as the stem model's batch norm sees)
stem         the Stem model (conv 3->16 no bias, bn, relu) as gen_models.py builds it: seed-0 init,
             then non-trivial BN state after seed 1 (state.*); example x [8, 3, 16, 16] (seed 7);
             train_bn = bn(conv(x)) in train mode, train_out = relu of it, train_rm / train_rv = the
             running stats afterwards (model.train(), one forward)
convbn       nn.intrinsic.qat.ConvBn2d(3, 16, 3, padding=1, bias=False) loaded with stem's state, qconfig
             weight = FusedMovingAvgObsFakeQuantize(MovingAveragePerChannelMinMaxObserver, qint8, -127..127,
             per_channel_symmetric, eps=2^-12) (XNNPACK's QAT per-channel weight spec); train(), one forward
             on stem's x: out (the BN output), scaled_weight = w * bn.weight / sqrt(rv + eps),
             weight_scale / weight_zero_point of its weight_fake_quant afterwards, rm / rv afterwards.
"""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.intrinsic.qat as nniqat
from torch.ao.quantization import FakeQuantize, FusedMovingAvgObsFakeQuantize, QConfig
from torch.ao.quantization.observer import MovingAveragePerChannelMinMaxObserver

import gen_models  # its Writer: the same .bin / .json format

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "qat")


def Writer():
    return gen_models.Writer(OUT)


def gen_bn_train():
    torch.manual_seed(11)
    w = Writer()
    x, x2 = torch.randn(4, 6, 5, 5), torch.randn(4, 6, 5, 5) * 2 - 0.5
    wt, b = torch.rand(6) + 0.5, torch.randn(6)
    rm, rv = 0.5 * torch.randn(6), torch.rand(6) + 0.5
    for k, v in [("x", x), ("x2", x2), ("w", wt), ("b", b), ("rm", rm), ("rv", rv)]:
        w.add(k, v)
    y1 = F.batch_norm(x, rm, rv, wt, b, training=True, momentum=0.1, eps=1e-5)
    w.add("y1", y1), w.add("rm1", rm), w.add("rv1", rv)
    y2 = F.batch_norm(x2, rm, rv, wt, b, training=True, momentum=0.1, eps=1e-5)
    w.add("y2", y2), w.add("rm2", rm), w.add("rv2", rv)
    w.extra = {"momentum": 0.1, "eps": 1e-5}
    w.save("bn_train_a")

    w = Writer()
    x = torch.randn(8, 5)
    rm, rv = torch.zeros(5), torch.ones(5)
    w.add("x", x), w.add("rm", rm), w.add("rv", rv)
    y = F.batch_norm(x, rm, rv, None, None, training=True, momentum=0.3, eps=1e-3)
    w.add("y1", y), w.add("rm1", rm), w.add("rv1", rv)
    w.extra = {"momentum": 0.3, "eps": 1e-3}
    w.save("bn_train_b")

    w = Writer()
    x = torch.randn(16, 16, 16, 16) * 3 + 1
    wt, b = torch.rand(16) + 0.5, torch.randn(16)
    rm, rv = torch.zeros(16), torch.ones(16)
    for k, v in [("x", x), ("w", wt), ("b", b), ("rm", rm), ("rv", rv)]:
        w.add(k, v)
    y = F.batch_norm(x, rm, rv, wt, b, training=True, momentum=0.1, eps=1e-5)
    w.add("y1", y), w.add("rm1", rm), w.add("rv1", rv)
    w.extra = {"momentum": 0.1, "eps": 1e-5}
    w.save("bn_train_c")


class Stem(nn.Module):  # as tests/golden/gen_models.py and engine/graph/models.cpp
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(16)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


def state_items(m):
    return [(k, v) for k, v in m.state_dict().items() if not k.endswith("num_batches_tracked")]


def gen_stem_and_convbn():
    torch.manual_seed(0)
    m = Stem()
    with torch.no_grad():
        torch.manual_seed(1)
        n = m.bn.num_features
        m.bn.weight.copy_(torch.rand(n) + 0.5)
        m.bn.bias.copy_(0.2 * torch.randn(n))
        m.bn.running_mean.copy_(0.3 * torch.randn(n))
        m.bn.running_var.copy_(torch.rand(n) * 1.5 + 0.5)
    torch.manual_seed(7)
    x = torch.randn(8, 3, 16, 16)
    state = {k: v.clone() for k, v in state_items(m)}

    w = Writer()
    for k, v in state.items():
        w.add("state." + k, v)
    w.add("x", x)
    m.train()
    with torch.no_grad():
        bn_out = m.bn(m.conv(x))
    w.add("train_bn", bn_out)
    w.add("train_out", F.relu(bn_out))
    w.add("train_rm", m.bn.running_mean)
    w.add("train_rv", m.bn.running_var)
    w.save("stem")

    weight_fq = FusedMovingAvgObsFakeQuantize.with_args(
        observer=MovingAveragePerChannelMinMaxObserver, quant_min=-127, quant_max=127, dtype=torch.qint8,
        qscheme=torch.per_channel_symmetric, eps=2 ** -12)
    qconfig = QConfig(activation=FakeQuantize, weight=weight_fq)
    cb = nniqat.ConvBn2d(3, 16, 3, padding=1, bias=False, qconfig=qconfig)
    with torch.no_grad():
        cb.weight.copy_(state["conv.weight"])
        for k in ["weight", "bias", "running_mean", "running_var"]:
            getattr(cb.bn, k).copy_(state["bn." + k])
    cb.train()
    w = Writer()
    with torch.no_grad():
        sf = cb.bn.weight / torch.sqrt(cb.bn.running_var + cb.bn.eps)
        w.add("scaled_weight", cb.weight * sf.reshape(-1, 1, 1, 1))
        out = cb(x)
    w.add("out", out)
    w.add("weight_scale", cb.weight_fake_quant.scale)
    w.add("weight_zero_point", cb.weight_fake_quant.zero_point.float())
    w.add("rm", cb.bn.running_mean)
    w.add("rv", cb.bn.running_var)
    w.save("convbn")


if __name__ == "__main__":
    torch.set_num_threads(1)  # [N, C] batch norm sums per thread: one thread = the engine's order
    gen_bn_train()
    gen_stem_and_convbn()
    print("wrote", OUT)
