#!/usr/bin/python3
"""gen_int8.py — golden outputs of torch's own quantized engines for the X86 lowering path (engine/lower).

Run with Debian's torch 1.13 (the oracle):   /usr/bin/python3 tests/golden/gen_int8.py
Writes tests/golden/int8/cases.json: for each case the uint8 input codes, the int8 per-channel weight codes
(symmetric, zero point 0, as X86InductorQuantizer makes them), the float32 weight scales and bias (as bit
patterns), the input / output qparams, and the output codes of torch.ops.quantized.conv2d[_relu] /
linear[_relu] / add[_relu] under each quantized engine this torch has: 'qnnpack' and 'onednn' (Debian's
build has no 'fbgemm'; onednn is the x86 CPU engine, the one X86InductorQuantizer's Inductor lowering
runs as onednn.qconv2d_pointwise / qlinear_pointwise). tests/engine/lower/test_int8_golden.cpp lowers
the same q/dq pattern with the x86 backend and compares code by code (no torch at test time).

Activations are quint8 with their zero point anywhere in 0..255 (reduce_range cases keep the input codes
in 0..127, what a reduce_range observer gives); outputs are quint8 0..255, as torch's ops produce them.
"""
import json
import os
import struct

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "int8")
ENGINES = [e for e in ("qnnpack", "onednn", "fbgemm") if e in torch.backends.quantized.supported_engines]


def f32_bits(t):
    return [struct.unpack("<I", struct.pack("<f", float(v)))[0] for v in t.reshape(-1).tolist()]


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def act_qparams(lo, hi, qmax=255):
    scale = f32((hi - lo) / qmax)
    zp = int(min(max(round(-lo / scale), 0), qmax))
    return scale, zp


def weight(shape, gen):
    w = torch.randn(shape, generator=gen) * 0.2
    w[0] *= 0.05  # one channel with a much smaller range
    scales = (w.reshape(shape[0], -1).abs().amax(1) / 127.0).clamp(min=2 ** -12).to(torch.float32)
    qw = torch.quantize_per_channel(w, scales.to(torch.float64), torch.zeros(shape[0], dtype=torch.int64), 0, torch.qint8)
    return qw, scales


def run(engine, fn):
    torch.backends.quantized.engine = engine
    return fn().int_repr().reshape(-1).tolist()


def conv_case(name, gen, n, c, h, w, o, k, stride, padding, groups, relu, reduce_range=False):
    x = torch.randn(n, c, h, w, generator=gen) * 1.5 + 0.3
    x_scale, x_zp = act_qparams(float(x.min()), float(x.max()), 127 if reduce_range else 255)
    qx = torch.quantize_per_tensor(x, x_scale, x_zp, torch.quint8)
    qw, w_scales = weight((o, c // groups, k, k), gen)
    bias = torch.randn(o, generator=gen) * 0.1
    ref = torch.nn.functional.conv2d(qx.dequantize(), qw.dequantize(), bias, stride, padding, 1, groups)
    if relu:
        ref = torch.relu(ref)
    out_scale, out_zp = act_qparams(min(float(ref.min()), 0.0), float(ref.max()))
    op = torch.ops.quantized.conv2d_relu if relu else torch.ops.quantized.conv2d
    outs = {}
    for e in ENGINES:
        def f():
            packed = torch.ops.quantized.conv2d_prepack(qw, bias, [stride, stride], [padding, padding], [1, 1], groups)
            return op(qx, packed, out_scale, out_zp)
        outs[e] = run(e, f)
    return dict(name=name, op="conv2d", relu=relu, input_shape=list(x.shape), weight_shape=list(qw.shape),
                stride=stride, padding=padding, groups=groups, x=qx.int_repr().reshape(-1).tolist(),
                x_scale_bits=f32_bits(torch.tensor([x_scale])), x_zero_point=x_zp,
                w=qw.int_repr().reshape(-1).tolist(), w_scale_bits=f32_bits(w_scales), bias_bits=f32_bits(bias),
                out_scale_bits=f32_bits(torch.tensor([out_scale])), out_zero_point=out_zp, outputs=outs)


def linear_case(name, gen, n, k, o, relu):
    x = torch.randn(n, k, generator=gen) * 2.0 - 0.4
    x_scale, x_zp = act_qparams(float(x.min()), float(x.max()))
    qx = torch.quantize_per_tensor(x, x_scale, x_zp, torch.quint8)
    qw, w_scales = weight((o, k), gen)
    bias = torch.randn(o, generator=gen) * 0.1
    ref = torch.nn.functional.linear(qx.dequantize(), qw.dequantize(), bias)
    if relu:
        ref = torch.relu(ref)
    out_scale, out_zp = act_qparams(min(float(ref.min()), 0.0), float(ref.max()))
    op = torch.ops.quantized.linear_relu if relu else torch.ops.quantized.linear
    outs = {}
    for e in ENGINES:
        outs[e] = run(e, lambda: op(qx, torch.ops.quantized.linear_prepack(qw, bias), out_scale, out_zp))
    return dict(name=name, op="linear", relu=relu, input_shape=list(x.shape), weight_shape=list(qw.shape),
                x=qx.int_repr().reshape(-1).tolist(), x_scale_bits=f32_bits(torch.tensor([x_scale])),
                x_zero_point=x_zp, w=qw.int_repr().reshape(-1).tolist(), w_scale_bits=f32_bits(w_scales),
                bias_bits=f32_bits(bias), out_scale_bits=f32_bits(torch.tensor([out_scale])), out_zero_point=out_zp,
                outputs=outs)


def add_case(name, gen, shape, relu):
    a = torch.randn(shape, generator=gen) * 1.2 + 0.5
    b = torch.randn(shape, generator=gen) * 0.7 - 0.2
    a_scale, a_zp = act_qparams(float(a.min()), float(a.max()))
    b_scale, b_zp = act_qparams(float(b.min()), float(b.max()))
    qa = torch.quantize_per_tensor(a, a_scale, a_zp, torch.quint8)
    qb = torch.quantize_per_tensor(b, b_scale, b_zp, torch.quint8)
    ref = qa.dequantize() + qb.dequantize()
    if relu:
        ref = torch.relu(ref)
    out_scale, out_zp = act_qparams(min(float(ref.min()), 0.0), float(ref.max()))
    op = torch.ops.quantized.add_relu if relu else torch.ops.quantized.add
    outs = {}
    for e in ENGINES:
        outs[e] = run(e, lambda: op(qa, qb, out_scale, out_zp))
    return dict(name=name, op="add", relu=relu, input_shape=list(shape), x=qa.int_repr().reshape(-1).tolist(),
                x_scale_bits=f32_bits(torch.tensor([a_scale])), x_zero_point=a_zp,
                y=qb.int_repr().reshape(-1).tolist(), y_scale_bits=f32_bits(torch.tensor([b_scale])), y_zero_point=b_zp,
                out_scale_bits=f32_bits(torch.tensor([out_scale])), out_zero_point=out_zp, outputs=outs)


def main():
    os.makedirs(OUT, exist_ok=True)
    gen = torch.Generator().manual_seed(2024)
    cases = [
        conv_case("conv3x3_pad1", gen, 2, 8, 12, 12, 16, 3, 1, 1, 1, False),
        conv_case("conv3x3_pad1_relu", gen, 2, 16, 10, 10, 16, 3, 1, 1, 1, True),
        conv_case("conv3x3_stride2", gen, 1, 8, 15, 15, 8, 3, 2, 1, 1, False),
        conv_case("conv1x1", gen, 2, 16, 8, 8, 32, 1, 1, 0, 1, True),
        conv_case("conv_depthwise3x3", gen, 2, 16, 9, 9, 16, 3, 1, 1, 16, False),
        conv_case("conv3x3_reduce_range", gen, 2, 3, 16, 16, 8, 3, 1, 1, 1, True, reduce_range=True),
        linear_case("linear", gen, 8, 48, 20, False),
        linear_case("linear_relu", gen, 5, 33, 7, True),
        add_case("add", gen, (2, 8, 6, 6), False),
        add_case("add_relu", gen, (3, 16, 5, 5), True),
    ]
    doc = dict(torch_version=torch.__version__, engines=ENGINES, cases=cases)
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print("wrote", len(cases), "cases for engines", ENGINES)


if __name__ == "__main__":
    main()
