#!/usr/bin/python3
# gen_pt2e.py — golden output of seed M01-2's converted residual block (convert_pt2e numerics).
#
# Run with Debian's torch 1.13:  /usr/bin/python3 tests/golden/gen_pt2e.py
# torch 1.13 has no PT2E, so the converted graph is written out by hand in the order convert_pt2e
# emits it (docs/algorithms.md): x -> q/dq -> conv1 (BN folded, int8 per-channel weight -> dq) ->
# relu -> q/dq -> conv2 (same) -> q/dq -> add(., x's dq) -> relu -> q/dq. Activation qparams come from
# the torchao HistogramObserver transcription of gen_histogram.py over the seed's 8 calibration
# batches, weight qparams from torch's PerChannelMinMaxObserver (the same calculate_qparams as torchao);
# quantize is torch.quantize_per_tensor / quantize_per_channel, whose int_repr is the decomposed quantize.
# Writes tests/golden/models/pt2e_residual.{json,bin}: the example input, qparams, folded weights
# and the converted output.
import sys
import os

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_histogram import AOHistogramObserver  # noqa: E402
from gen_models import ResidualBlock, Writer, folded_copy  # noqa: E402

torch.set_num_threads(1)


def qdq(x, scale, zp):
    return torch.quantize_per_tensor(x, scale, zp, torch.qint8).dequantize()


def weight_qdq(w):
    obs = torch.ao.quantization.PerChannelMinMaxObserver(
        ch_axis=0, dtype=torch.qint8, qscheme=torch.per_channel_symmetric, quant_min=-127, quant_max=127, eps=2**-12)
    obs(w)
    s, z = obs.calculate_qparams()
    return torch.quantize_per_channel(w, s, z, 0, torch.qint8).dequantize(), s


def main():
    torch.manual_seed(0)
    m = ResidualBlock(8).eval()
    ex = torch.randn(4, 8, 16, 16)
    f = folded_copy(m)
    names = ["x", "relu", "conv2d_1", "relu_1"]
    obs = {k: AOHistogramObserver(2048, torch.qint8, torch.per_tensor_affine, -128, 127, 2**-12) for k in names}
    with torch.no_grad():
        for _ in range(8):
            x = torch.randn(4, 8, 16, 16)
            obs["x"].forward(x)
            r = F.relu(f.conv1(x))
            obs["relu"].forward(r)
            c = f.conv2(r)
            obs["conv2d_1"].forward(c)
            obs["relu_1"].forward(F.relu(c + x))
        qp = {k: o.calculate_qparams() for k, o in obs.items()}
        qp = {k: (float(v[0]), int(v[1])) for k, v in qp.items()}
        w1, s1 = weight_qdq(f.conv1.weight)
        w2, s2 = weight_qdq(f.conv2.weight)
        xd = qdq(ex, *qp["x"])
        r = qdq(F.relu(F.conv2d(xd, w1, f.conv1.bias, 1, 1)), *qp["relu"])
        c = qdq(F.conv2d(r, w2, f.conv2.bias, 1, 1), *qp["conv2d_1"])
        out = qdq(F.relu(c + xd), *qp["relu_1"])
    w = Writer()
    w.add("example", ex)
    w.add("w_scale.conv1", s1)
    w.add("w_scale.conv2", s2)
    for k in names:
        w.add("scale." + k, torch.tensor([qp[k][0]]))
        w.add("zero_point." + k, torch.tensor([float(qp[k][1])]))
    w.add("out", out)
    w.save("pt2e_residual")
    print({k: ("%.4g" % v[0], v[1]) for k, v in qp.items()})


if __name__ == "__main__":
    main()
