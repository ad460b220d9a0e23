#!/usr/bin/python3
"""gen_fidelity.py — golden data for the places where the engine follows a torch / torchao code path that
the quant goldens (gen_quant.py) do not reach (issue #13).

Run with Debian's torch 1.13 (the oracle):   /usr/bin/python3 tests/golden/gen_fidelity.py
Writes tests/golden/fidelity/cases.json (every number inline; float32 values as uint32 bit patterns).

Sections:
  fbgemm_qparams     ChooseQuantizationParams for (min, max, qmin, qmax, symmetric). torch's x86 wheels
                     are built with USE_FBGEMM, so torch.fused_moving_avg_obs_fake_quant (ATen
                     quantized/cpu/fused_obs_fake_quant.cpp, choose_qparams_fake_quant) calls FBGEMM's
                     src/QuantUtils.cc ChooseQuantizationParams. Debian's torch 1.13 is built without
                     FBGEMM (torch.backends.quantized.supported_engines has no 'fbgemm'), so its fused op
                     takes ATen's fallback, quant_utils::ChooseQuantizationParams
                     (quantized/cpu/QuantUtils.h). Each case therefore has two answers:
                       scale_bits / zero_point: fbgemm_choose_qparams below, a restatement of FBGEMM's
                         function (float32 scale, zero point from the end with the smaller |q| + |m/s|),
                         checked against FBGEMM's own source on every case here (see the commit that
                         added this file);
                       aten_scale_bits / aten_zero_point: what torch 1.13's fused op returned for the
                         same range (a first forward on the tensor [min, max]).
                     The cases are exact .5 ties of the zero point, where the two disagree, plus random
                     ranges, where they agree.
  fused_empty        torch.fused_moving_avg_obs_fake_quant on an empty tensor: a copy, state untouched.
  float_qparams      FakeQuantize(observer=PerChannelMinMaxObserver, qscheme=per_channel_affine_float_qparams)
                     forward on three batches (torchao fake_quantize.py FakeQuantize is the same class),
                     and the op fake_quantize_per_channel_affine with float zero points on ties.
  fixed_qparams      FixedQParamsFakeQuantize(observer=FixedQParamsObserver.with_args(...)) forward.
"""
import json
import os
import random
import struct

import numpy as np
import torch
from torch.ao.quantization import fake_quantize as tfq
from torch.ao.quantization import observer as tobs

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fidelity")
F32 = np.float32
SMALL_SCALE_THRESHOLD = F32(6.1e-5)


def bits(v):
    return struct.unpack("<I", struct.pack("<f", float(v)))[0]


def f32_bits(t):
    return [bits(v) for v in t.detach().reshape(-1).to(torch.float32).tolist()]


def fbgemm_choose_qparams(mn, mx, qmin, qmax, preserve_sparsity):
    """FBGEMM src/QuantUtils.cc ChooseQuantizationParams (force_scale_power_of_two=False), in the C++
    types: float32 where the source has float, float64 where it has double."""
    mn, mx = F32(mn), F32(mx)
    if mn < 0 and mx > 0 and preserve_sparsity:
        sym_qmin = -((qmax - qmin) // 2 + 1)
        sym_qmax = (qmax - qmin) // 2
        max_scale = float(max(abs(mn / F32(sym_qmin)), abs(mx / F32(sym_qmax))))
        mn = F32(max_scale * sym_qmin)
        mx = F32(max_scale * sym_qmax)
    mn = min(mn, F32(0))
    mx = max(mx, F32(0))
    scale = F32((float(mx) - float(mn)) / float(qmax - qmin))
    with np.errstate(divide="ignore", over="ignore"):
        if scale == F32(0) or np.isinf(F32(1) / scale):
            scale = F32(0.1)
    if scale < SMALL_SCALE_THRESHOLD:
        org = scale
        scale = SMALL_SCALE_THRESHOLD
        if mn == F32(0):
            mx = SMALL_SCALE_THRESHOLD * F32(qmax - qmin)
        elif mx == F32(0):
            mn = -SMALL_SCALE_THRESHOLD * F32(qmax - qmin)
        else:
            amp = SMALL_SCALE_THRESHOLD / org
            mn, mx = mn * amp, mx * amp
    s = float(scale)
    from_min, from_max = qmin - float(mn) / s, qmax - float(mx) / s
    err_min, err_max = abs(qmin) + abs(float(mn) / s), abs(qmax) + abs(float(mx) / s)
    zp = from_min if err_min < err_max else from_max
    if mn < 0 and mx > 0 and preserve_sparsity:
        zp = (qmin + qmax) / 2
    if zp < qmin:
        nudged = qmin
    elif zp > qmax:
        nudged = qmax
    else:
        nudged = int(round(zp))  # Python rounds half to even, as nearbyint does
    return scale, nudged


RANGES = [(0, 255, False, "quint8"), (-128, 127, False, "qint8"), (0, 255, True, "quint8"),
          (-128, 127, True, "qint8"), (-127, 127, True, "qint8")]


def aten_choose_qparams(mn, mx, qmin, qmax, symmetric, dtype):
    """torch 1.13's fused op on its first step: the running min / max become the input's."""
    fq = tfq.FusedMovingAvgObsFakeQuantize(
        observer=tobs.MovingAverageMinMaxObserver, quant_min=qmin, quant_max=qmax,
        dtype=getattr(torch, dtype), qscheme=torch.per_tensor_symmetric if symmetric else torch.per_tensor_affine)
    fq(torch.tensor([mn, mx], dtype=torch.float32))
    return float(fq.scale[0]), int(fq.zero_point[0])


def tie_ranges():
    """(min, max) with exact dyadic ends whose zero point lands on .5 in exact arithmetic:
    -min / ((max - min) / (qmax - qmin)) = k + 0.5, for the ranges of RANGES."""
    out = []
    for den in (2, 6, 10, 34, 170):
        for m in range(1, den, 2 if den < 100 else 14):
            if 2 * 255 * m % den:
                continue
            for unit in (1.0 / 16, 0.37, 3.0):
                mn, mx = F32(-m * unit), F32((den - m) * unit)
                out.append((float(mn), float(mx)))
    return out


def fbgemm_cases():
    rng = random.Random(2026)
    ranges = tie_ranges()
    for _ in range(30):
        a, b = rng.uniform(-5, 0), rng.uniform(0, 5)
        ranges.append((float(F32(a)), float(F32(b))))
    ranges += [(0.0, 0.0), (-1e-6, 1e-6), (0.0, 1e-6), (-1e-6, 0.0), (0.5, 3.0), (-3.0, -0.5)]
    cases, differ = [], 0
    for mn, mx in ranges:
        for qmin, qmax, sym, dtype in RANGES:
            scale, zp = fbgemm_choose_qparams(mn, mx, qmin, qmax, sym)
            a_scale, a_zp = aten_choose_qparams(mn, mx, qmin, qmax, sym, dtype)
            differ += (bits(a_scale), a_zp) != (bits(scale), zp)
            cases.append(dict(min_bits=bits(mn), max_bits=bits(mx), quant_min=qmin, quant_max=qmax, symmetric=sym,
                              scale_bits=bits(scale), zero_point=zp, aten_scale_bits=bits(a_scale),
                              aten_zero_point=a_zp))
    assert differ > 0, "no case tells FBGEMM's formula from ATen's fallback"
    return cases


def fused_empty():
    fq = tfq.FusedMovingAvgObsFakeQuantize(observer=tobs.MovingAverageMinMaxObserver, quant_min=0, quant_max=255)
    before = (fq.activation_post_process.min_val.clone(), fq.scale.clone(), fq.zero_point.clone())
    y = fq(torch.empty(0, 3))
    after = (fq.activation_post_process.min_val, fq.scale, fq.zero_point)
    assert all(torch.equal(a, b) for a, b in zip(before, after))
    return dict(shape=list(y.shape), min_val_is_inf=bool(torch.isinf(after[0])), scale_bits=f32_bits(after[1]),
                zero_point=int(after[2][0]))


def float_qparams():
    torch.manual_seed(7)
    batches = [torch.randn(4, 6) * torch.linspace(0.2, 2.0, 4).reshape(4, 1) + 0.3 * i for i in range(3)]
    fq = tfq.FakeQuantize(observer=tobs.PerChannelMinMaxObserver, quant_min=0, quant_max=255, dtype=torch.quint8,
                          qscheme=torch.per_channel_affine_float_qparams, ch_axis=0)
    assert fq.zero_point.dtype == torch.float32
    steps = []
    for b in batches:
        y = fq(b)
        steps.append(dict(input_bits=f32_bits(b), shape=list(b.shape), output_bits=f32_bits(y),
                          scale_bits=f32_bits(fq.scale), zero_point_bits=f32_bits(fq.zero_point)))
    x = torch.tensor([[0.5, 1.25, -3.0, 2.5, 0.75], [0.1, 0.75, 7.0, -1.0, 0.375]])
    s, zp = torch.tensor([0.5, 0.25]), torch.tensor([1.5, -0.25])
    y, mask = torch.ops.aten.fake_quantize_per_channel_affine_cachemask(x, s, zp, 0, 0, 15)
    op = dict(input_bits=f32_bits(x), shape=list(x.shape), scale_bits=f32_bits(s), zero_point_bits=f32_bits(zp),
              axis=0, quant_min=0, quant_max=15, output_bits=f32_bits(y), mask=[int(v) for v in mask.reshape(-1)])
    return dict(steps=steps, op=op)


def fixed_qparams():
    torch.manual_seed(11)
    x = torch.randn(40) * 3
    fq = tfq.FixedQParamsFakeQuantize(observer=tobs.FixedQParamsObserver.with_args(
        scale=1.0 / 256.0, zero_point=0, dtype=torch.quint8, quant_min=0, quant_max=255))
    y = fq(torch.sigmoid(x))
    return dict(input_bits=f32_bits(torch.sigmoid(x)), output_bits=f32_bits(y), scale_bits=f32_bits(fq.scale),
                zero_point=int(fq.zero_point[0]))


def main():
    assert "fbgemm" not in torch.backends.quantized.supported_engines
    os.makedirs(OUT, exist_ok=True)
    doc = dict(fbgemm_qparams=fbgemm_cases(), fused_empty=fused_empty(), float_qparams=float_qparams(),
               fixed_qparams=fixed_qparams())
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print({k: len(v) for k, v in doc.items()},
          sum((c["scale_bits"], c["zero_point"]) != (c["aten_scale_bits"], c["aten_zero_point"])
              for c in doc["fbgemm_qparams"]), "cases where FBGEMM and ATen differ")


if __name__ == "__main__":
    main()
