#!/usr/bin/python3
"""gen_quant.py — golden data for the quant room (docs/algorithms.md, calculate_qmin_qmax
through FusedMovingAvgObsFakeQuantize).

Run with Debian's torch 1.13 (the oracle):   /usr/bin/python3 tests/golden/gen_quant.py
Writes tests/golden/quant/cases.json and raw little-endian .bin arrays next to it:
  data_<name>.bin   float32 inputs (generated here with torch's RNG; the C++ test reads them, so
                    it needs no RNG)
  <section>_<i>_<what>.bin   outputs: quantized ints in their dtype (int8 / uint8), floats as
                    float32, STE masks as uint8
Scales and float statistics are stored as float32 bit patterns (uint32) so the test compares bits.
tests/engine/quant/test_golden_*.cpp replay every case with the engine.

torch 1.13 has no quantized_decomposed ops: quantize / dequantize goldens run the decomposed ops'
formula with torch 1.13 tensor ops (clamp(round(x * (1/scale)) + zp, qmin, qmax).to(dtype)), and
the generator asserts that it equals torch.quantize_per_tensor / per_channel(...).int_repr() where
the range is the dtype's full range. choose_qparams runs MinMaxObserver's formula with
has_customized_qrange=False, which is determine_qparams (docs/algorithms.md, choose_qparams).
"""
import json
import os
import struct

import torch
from torch.ao.quantization import fake_quantize as tfq
from torch.ao.quantization import observer as tobs

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quant")
EPS12 = 2.0 ** -12
data_index = {}
data = {}


def f32_bits(t):
    t = t.detach().reshape(-1).to(torch.float32)
    return [struct.unpack("<I", struct.pack("<f", float(v)))[0] for v in t.tolist()]


def ints(t):
    return [int(v) for v in t.detach().reshape(-1).tolist()]


def write_bin(name, t):
    t = t.detach().contiguous()
    np_dtype = {torch.float32: "<f4", torch.int8: "i1", torch.uint8: "u1", torch.bool: "u1"}[t.dtype]
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(t.numpy().astype(np_dtype).tobytes())
    return name


def add_data(name, t):
    t = t.detach().to(torch.float32).contiguous()
    data[name] = t
    data_index[name] = {"shape": list(t.shape), "file": write_bin("data_" + name + ".bin", t)}


def make_data():
    torch.manual_seed(1234)
    add_data("gauss", torch.randn(1000) * 1.3 + 0.2)
    add_data("relu", torch.relu(torch.randn(800)))
    add_data("t3", torch.distributions.StudentT(3.0).sample((600,)))
    add_data("tiny", torch.rand(300) * 1e-4 - 2e-5)          # range below 6.1e-5·255 and near eps
    add_data("positive", torch.rand(200) * 3 + 0.5)           # min > 0: the range is stretched to 0
    add_data("negative", -torch.rand(200) * 2 - 0.25)         # max < 0
    add_data("allzero", torch.zeros(64))
    add_data("single", torch.full((10,), 0.7))
    add_data("negsingle", torch.full((7,), -2.5))
    add_data("ties", torch.arange(-40, 41, dtype=torch.float32) * 0.25)  # exact .5 multiples of 0.5
    for i in range(5):  # calibration batches with drifting ranges and one spike
        b = torch.randn(300) * (1.0 + 0.4 * i) + 0.3 * (i - 2)
        if i == 2:
            b[17] = 25.0
        add_data(f"batch{i}", b)
    add_data("w4d", torch.randn(4, 3, 3, 3) * 0.3)
    add_data("w2d", torch.randn(8, 16) * torch.linspace(0.05, 2.0, 8).reshape(8, 1))
    for i in range(3):
        add_data(f"cbatch{i}", torch.randn(6, 5) * (1 + i) + torch.arange(6).reshape(6, 1) * 0.1 * i)
    add_data("act4d", torch.relu(torch.randn(2, 3, 4, 4)) - 0.1)


def torch_kwargs(kw):
    out = dict(kw)
    if "dtype" in out:
        out["dtype"] = getattr(torch, out["dtype"])
    if "qscheme" in out:
        out["qscheme"] = getattr(torch, out["qscheme"])
    if "observer" in out:
        out["observer"] = getattr(tobs, out["observer"])
    return out


# ---- observers -----------------------------------------------------------------------------------
PER_TENSOR_CONFIGS = [
    dict(dtype="qint8", qscheme="per_tensor_affine"),
    dict(dtype="qint8", qscheme="per_tensor_symmetric"),
    dict(dtype="quint8", qscheme="per_tensor_affine"),
    dict(dtype="quint8", qscheme="per_tensor_symmetric"),
    dict(dtype="quint8", qscheme="per_tensor_symmetric", quant_min=0, quant_max=255),
    dict(dtype="qint8", qscheme="per_tensor_affine", quant_min=-128, quant_max=127, eps=EPS12),
    dict(dtype="qint8", qscheme="per_tensor_symmetric", quant_min=-127, quant_max=127, eps=EPS12),
    dict(dtype="qint8", qscheme="per_tensor_affine", reduce_range=True),
    dict(dtype="qint8", qscheme="per_tensor_symmetric", quant_min=-127, quant_max=127, reduce_range=True),
    dict(dtype="quint8", qscheme="per_tensor_affine", reduce_range=True, eps=EPS12),
    dict(dtype="quint8", qscheme="per_tensor_affine", quant_min=0, quant_max=15),
    dict(dtype="qint8", qscheme="per_tensor_affine", quant_min=-8, quant_max=7, eps=EPS12),
]
PER_TENSOR_DATA = [["gauss"], ["relu"], ["t3"], ["tiny"], ["positive"], ["negative"], ["allzero"], ["single"],
                   ["negsingle"], ["batch0", "batch1", "batch2", "batch3", "batch4"], ["batch2", "allzero"]]

PER_CHANNEL_CONFIGS = [
    dict(dtype="qint8", qscheme="per_channel_affine"),
    dict(dtype="qint8", qscheme="per_channel_symmetric", quant_min=-127, quant_max=127, eps=EPS12),
    dict(dtype="quint8", qscheme="per_channel_affine", reduce_range=True),
    dict(dtype="quint8", qscheme="per_channel_symmetric"),
    dict(dtype="quint8", qscheme="per_channel_affine_float_qparams"),
]
PER_CHANNEL_DATA = [(["w4d"], 0), (["w4d"], 1), (["w2d"], 0), (["w2d"], -1), (["act4d"], 1),
                    (["cbatch0", "cbatch1", "cbatch2"], 0), (["cbatch0", "cbatch1", "cbatch2"], 1)]


def run_observer(cls_name, kwargs, batches):
    obs = getattr(tobs, cls_name)(**torch_kwargs(kwargs))
    for b in batches:
        obs(data[b])
    scale, zp = obs.calculate_qparams()
    case = dict(name=cls_name, kwargs=kwargs, batches=batches, quant_min=obs.quant_min, quant_max=obs.quant_max,
                min_val_bits=f32_bits(obs.min_val), max_val_bits=f32_bits(obs.max_val), scale_bits=f32_bits(scale))
    if zp.dtype.is_floating_point:
        case["zero_point_bits"] = f32_bits(zp)
    else:
        case["zero_point"] = ints(zp)
    return case


def observer_cases():
    cases = []
    for cfg in PER_TENSOR_CONFIGS:
        for batches in PER_TENSOR_DATA:
            cases.append(run_observer("MinMaxObserver", cfg, batches))
            for c in (0.01, 0.1, 0.5):
                if c != 0.01 and batches[0] != "batch0":
                    continue
                kw = dict(cfg)
                if c != 0.01:
                    kw["averaging_constant"] = c
                cases.append(run_observer("MovingAverageMinMaxObserver", kw, batches))
    for cfg in PER_CHANNEL_CONFIGS:
        for batches, axis in PER_CHANNEL_DATA:
            kw = dict(cfg, ch_axis=axis)
            cases.append(run_observer("PerChannelMinMaxObserver", kw, batches))
            if cfg["qscheme"] != "per_channel_affine_float_qparams":
                cases.append(run_observer("MovingAveragePerChannelMinMaxObserver", dict(kw, averaging_constant=0.2),
                                          batches))
    return cases


# ---- FakeQuantize / FusedMovingAvgObsFakeQuantize --------------------------------------------------
FQ_CONFIGS = [
    ("FakeQuantize", dict(observer="MovingAverageMinMaxObserver", dtype="qint8", quant_min=-128, quant_max=127,
                          qscheme="per_tensor_affine", eps=EPS12)),
    ("FakeQuantize", dict(observer="MinMaxObserver", dtype="quint8", quant_min=0, quant_max=255,
                          qscheme="per_tensor_symmetric", averaging_constant=None)),
    ("FakeQuantize", dict(observer="MovingAveragePerChannelMinMaxObserver", dtype="qint8", quant_min=-127,
                          quant_max=127, qscheme="per_channel_symmetric", ch_axis=0, averaging_constant=0.3)),
    ("FakeQuantize", dict(observer="PerChannelMinMaxObserver", dtype="qint8", qscheme="per_channel_affine",
                          ch_axis=1)),
    ("FusedMovingAvgObsFakeQuantize", dict()),
    ("FusedMovingAvgObsFakeQuantize", dict(dtype="qint8", quant_min=-128, quant_max=127, qscheme="per_tensor_affine",
                                           averaging_constant=0.1)),
    ("FusedMovingAvgObsFakeQuantize", dict(dtype="qint8", quant_min=-128, quant_max=127,
                                           qscheme="per_tensor_symmetric", averaging_constant=0.5)),
    ("FusedMovingAvgObsFakeQuantize", dict(observer="MovingAveragePerChannelMinMaxObserver", dtype="qint8",
                                           quant_min=-127, quant_max=127, qscheme="per_channel_symmetric",
                                           ch_axis=0)),
    ("FusedMovingAvgObsFakeQuantize", dict(observer="MovingAveragePerChannelMinMaxObserver", dtype="quint8",
                                           qscheme="per_channel_affine", ch_axis=0, averaging_constant=0.25)),
]
# Each schedule: a list of steps; "x" = forward on a data set, the rest toggle flags.
FQ_SCHEDULES = {
    "per_tensor": ["batch0", "batch1", "disable_observer", "batch2", "enable_observer", "disable_fake_quant",
                   "batch3", "enable_fake_quant", "batch4", "tiny", "allzero"],
    "per_channel0": ["w4d", "w4d_scaled", "disable_observer", "w4d", "enable_observer", "disable_fake_quant",
                     "w4d_shifted", "enable_fake_quant", "w4d"],
    "per_channel1": ["act4d", "act4d_scaled", "disable_fake_quant", "act4d", "enable_fake_quant", "act4d"],
}


def fq_cases():
    add_data("w4d_scaled", data["w4d"] * 1.7)
    add_data("w4d_shifted", data["w4d"] + 0.2)
    add_data("act4d_scaled", data["act4d"] * 0.6 + 0.05)
    cases = []
    for i, (cls_name, kw) in enumerate(FQ_CONFIGS):
        kw = {k: v for k, v in kw.items() if v is not None}
        fq = getattr(tfq, cls_name)(**torch_kwargs(kw))
        per_channel = "per_channel" in kw.get("qscheme", "")
        sched = FQ_SCHEDULES["per_tensor" if not per_channel else
                             ("per_channel0" if kw.get("ch_axis", 0) == 0 else "per_channel1")]
        steps = []
        for j, s in enumerate(sched):
            if s in ("disable_observer", "enable_observer", "disable_fake_quant", "enable_fake_quant"):
                getattr(fq, s)()
                steps.append(dict(op=s))
                continue
            x = data[s].clone().requires_grad_(True)
            y = fq(x)
            y.sum().backward()
            apm = fq.activation_post_process
            steps.append(dict(op="forward", input=s, output=write_bin(f"fq_{i}_{j}_out.bin", y),
                              mask=write_bin(f"fq_{i}_{j}_mask.bin", x.grad != 0),
                              scale_bits=f32_bits(fq.scale), zero_point=ints(fq.zero_point),
                              min_val_bits=f32_bits(apm.min_val), max_val_bits=f32_bits(apm.max_val)))
        scale, zp = fq.calculate_qparams()
        cases.append(dict(name=cls_name, kwargs=kw, steps=steps, calc_scale_bits=f32_bits(scale),
                          calc_zero_point=ints(zp)))
    return cases


# ---- quantize / dequantize / choose_qparams / fake_quantize ops -------------------------------------
def decomposed_quantize(x, scale, zp, qmin, qmax, dtype):
    inv_scale = 1.0 / scale
    return torch.clamp(torch.round(x * inv_scale) + zp, qmin, qmax).to(dtype)


def decomposed_quantize_per_channel(x, scales, zps, axis, qmin, qmax, dtype):
    perm = list(range(x.dim()))
    perm[0], perm[axis] = perm[axis], perm[0]
    y = x.permute(perm)
    shape = [1] * y.dim()
    shape[0] = scales.numel()
    q = torch.clamp(torch.round(y * (1.0 / scales).view(shape)) + zps.view(shape), qmin, qmax)
    return q.permute(perm).to(dtype).contiguous()


def decomposed_dequantize_per_channel(q, scales, zps, axis):
    perm = list(range(q.dim()))
    perm[0], perm[axis] = perm[axis], perm[0]
    y = q.permute(perm).to(torch.int64)
    shape = [1] * y.dim()
    shape[0] = scales.numel()
    out = (y - zps.to(torch.int64).view(shape)) * scales.view(shape)
    return out.permute(perm).to(torch.float32).contiguous()


def qdtype(name):
    return {"int8": (torch.int8, torch.qint8), "uint8": (torch.uint8, torch.quint8)}[name]


def quantize_cases():
    cases = []
    per_tensor = [("gauss", 0.02, 3, -128, 127, "int8"), ("gauss", 0.0173, -7, -127, 127, "int8"),
                  ("relu", 0.011, 0, 0, 255, "uint8"), ("relu", 0.023, 128, 0, 255, "uint8"),
                  ("t3", 0.05, 10, -128, 127, "int8"), ("ties", 0.5, 0, -128, 127, "int8"),
                  ("ties", 0.5, 5, -10, 10, "int8"), ("ties", 0.25, 100, 0, 255, "uint8"),
                  ("tiny", EPS12, -128, -128, 127, "int8"), ("allzero", EPS12, 0, -128, 127, "int8"),
                  ("gauss", 0.1, 0, -64, 63, "int8"), ("gauss", 0.03, 17, 0, 127, "uint8")]
    for i, (src, s, zp, qmin, qmax, dt) in enumerate(per_tensor):
        s = float(torch.tensor(s, dtype=torch.float32))  # scales are float32 values, as observers make them
        x = data[src]
        dtype, qt = qdtype(dt)
        q = decomposed_quantize(x, s, zp, qmin, qmax, dtype)
        if (qmin, qmax) == (torch.iinfo(dtype).min, torch.iinfo(dtype).max):
            native = torch.quantize_per_tensor(x, s, zp, qt).int_repr()
            assert torch.equal(native, q), f"decomposed formula != torch.quantize_per_tensor for case {i}"
        dq = (q.to(torch.float32) - zp) * s
        cases.append(dict(op="per_tensor", input=src, scale_bits=f32_bits(torch.tensor([s]))[0], zero_point=zp,
                          quant_min=qmin, quant_max=qmax, dtype=dt, q=write_bin(f"q_{i}_q.bin", q),
                          dq=write_bin(f"q_{i}_dq.bin", dq)))
    per_channel = [("w4d", 0, -127, 127, "int8", True), ("w4d", 1, -128, 127, "int8", False),
                   ("w2d", 0, 0, 255, "uint8", False), ("w2d", 1, -127, 127, "int8", True),
                   ("act4d", 3, 0, 255, "uint8", False)]
    for k, (src, axis, qmin, qmax, dt, sym) in enumerate(per_channel):
        i = len(cases)
        x = data[src]
        dtype, qt = qdtype(dt)
        obs = tobs.PerChannelMinMaxObserver(ch_axis=axis, dtype=qt, quant_min=qmin, quant_max=qmax,
                                            qscheme=torch.per_channel_symmetric if sym else torch.per_channel_affine)
        obs(x)
        scales, zps = obs.calculate_qparams()
        scales = scales.to(torch.float32)
        zps = zps.to(torch.int32)
        q = decomposed_quantize_per_channel(x, scales, zps, axis, qmin, qmax, dtype)
        if (qmin, qmax) == (torch.iinfo(dtype).min, torch.iinfo(dtype).max):
            native = torch.quantize_per_channel(x, scales.double(), zps.long(), axis, qt).int_repr()
            assert torch.equal(native, q), f"decomposed formula != torch.quantize_per_channel for case {i}"
        dq = decomposed_dequantize_per_channel(q, scales, zps, axis)
        cases.append(dict(op="per_channel", input=src, axis=axis, scales_bits=f32_bits(scales), zero_points=ints(zps),
                          quant_min=qmin, quant_max=qmax, dtype=dt, q=write_bin(f"q_{i}_q.bin", q),
                          dq=write_bin(f"q_{i}_dq.bin", dq)))
    return cases


def choose_qparams_cases():
    cases = []
    for src in ["gauss", "relu", "t3", "tiny", "positive", "negative", "allzero", "single"]:
        for (qmin, qmax, dt, eps, sym) in [(-128, 127, "int8", EPS12, False), (0, 255, "uint8", EPS12, False),
                                           (-128, 127, "int8", 1.1920928955078125e-07, True),
                                           (0, 255, "uint8", EPS12, True), (-127, 127, "int8", EPS12, True)]:
            _, qt = qdtype(dt)
            obs = tobs.MinMaxObserver(dtype=qt, eps=eps,
                                      qscheme=torch.per_tensor_symmetric if sym else torch.per_tensor_affine)
            obs.quant_min, obs.quant_max, obs.has_customized_qrange = qmin, qmax, False
            obs(data[src])
            scale, zp = obs.calculate_qparams()
            cases.append(dict(input=src, quant_min=qmin, quant_max=qmax, dtype=dt, eps=eps, symmetric=sym,
                              scale_bits=f32_bits(scale)[0], zero_point=int(zp[0])))
    return cases


def fake_quantize_op_cases():
    cases = []
    per_tensor = [("gauss", 0.02, 3, -128, 127), ("gauss", 0.05, 0, -127, 127), ("relu", 0.01, 0, 0, 255),
                  ("ties", 0.5, 2, -10, 10), ("t3", 0.1, -20, -128, 127), ("tiny", EPS12, 0, -128, 127)]
    for i, (src, s, zp, qmin, qmax) in enumerate(per_tensor):
        x = data[src].clone().requires_grad_(True)
        y = torch.fake_quantize_per_tensor_affine(x, s, zp, qmin, qmax)
        y.sum().backward()
        cases.append(dict(op="per_tensor", input=src, scale_bits=f32_bits(torch.tensor([s]))[0], zero_point=zp,
                          quant_min=qmin, quant_max=qmax, output=write_bin(f"fqop_{i}_out.bin", y),
                          mask=write_bin(f"fqop_{i}_mask.bin", x.grad != 0)))
    per_channel = [("w4d", 0, [0.004, 0.0051, 0.0077, 0.006], [0, 1, -3, 2], -128, 127),
                   ("act4d", 1, [0.01, 0.007, 0.012], [0, 128, 30], 0, 255),
                   ("w2d", 1, [0.01 * (1 + k % 5) for k in range(16)], [k - 8 for k in range(16)], -128, 127)]
    for k, (src, axis, s, zp, qmin, qmax) in enumerate(per_channel):
        i = len(cases)
        x = data[src].clone().requires_grad_(True)
        st = torch.tensor(s, dtype=torch.float32)
        zt = torch.tensor(zp, dtype=torch.int32)
        y = torch.fake_quantize_per_channel_affine(x, st, zt, axis, qmin, qmax)
        y.sum().backward()
        cases.append(dict(op="per_channel", input=src, axis=axis, scales_bits=f32_bits(st), zero_points=zp,
                          quant_min=qmin, quant_max=qmax, output=write_bin(f"fqop_{i}_out.bin", y),
                          mask=write_bin(f"fqop_{i}_mask.bin", x.grad != 0)))
    return cases


def fused_first_step_cases():
    """A fresh FusedMovingAvgObsFakeQuantize on one batch: ChooseQuantizationParams' corner cases
    (scale 0 -> 0.1, the 6.1e-5 floor, the zero point picked from the smaller error term, the
    symmetric midpoint)."""
    add_data("tinyconst", torch.full((4,), 1e-6))
    add_data("pair", torch.tensor([-1.0, 2.0]))
    add_data("pair_neg", torch.tensor([-3.0, -0.5]))
    cases = []
    configs = [dict(dtype="qint8", quant_min=-128, quant_max=127), dict(),
               dict(qscheme="per_tensor_symmetric"),
               dict(dtype="qint8", quant_min=-128, quant_max=127, qscheme="per_tensor_symmetric"),
               dict(dtype="qint8", quant_min=-127, quant_max=127, qscheme="per_tensor_symmetric")]
    for src in ["allzero", "tinyconst", "pair", "pair_neg", "positive", "tiny", "gauss"]:
        for kw in configs:
            fq = tfq.FusedMovingAvgObsFakeQuantize(**torch_kwargs(kw))
            fq(data[src])
            cases.append(dict(input=src, kwargs=kw, scale_bits=f32_bits(fq.scale)[0], zero_point=int(fq.zero_point[0])))
    return cases


def sqnr_cases():
    cases = []
    for src, s, zp in [("gauss", 0.02, 3), ("relu", 0.03, -128), ("t3", 0.3, 0)]:
        x = data[src]
        y = torch.fake_quantize_per_tensor_affine(x, s, zp, -128, 127)
        value = 20 * torch.log10(torch.norm(x) / torch.norm(x - y))
        cases.append(dict(x=src, scale=s, zero_point=zp, sqnr=float(value)))
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    make_data()
    doc = dict(observers=observer_cases(), fake_quant=fq_cases(), quantize=quantize_cases(),
               choose_qparams=choose_qparams_cases(), fused_first_step=fused_first_step_cases(),
               fake_quantize_ops=fake_quantize_op_cases(), sqnr=sqnr_cases())
    doc["data"] = data_index
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print({k: len(v) for k, v in doc.items()})


if __name__ == "__main__":
    main()
