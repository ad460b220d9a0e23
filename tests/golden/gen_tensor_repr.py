#!/usr/bin/python3
"""gen_tensor_repr.py — how torch prints a tensor (str(t) / repr(t)), for the JS Tensor's toString().

Run with Debian's torch 1.13 (not the pyenv python):  /usr/bin/python3 tests/golden/gen_tensor_repr.py
Writes tests/golden/repr/tensor_repr.json: per case the values (float32 values as the exact doubles, with
"nan" / "inf" / "-inf" spelled out, since JSON has no such numbers), the shape, our dtype name and torch's
repr. tests/api/tensor_repr.test.js builds each tensor with pt.tensor and compares toString() to the string.

The printing code (torch/_tensor_str.py: _Formatter, _tensor_str, _str_intern) is the same in torch 1.13 and
torch 2.x for these dtypes and the default print options; the cases cover its branches: fixed and scientific
notation, integer-valued floats, non-finite values, ties that round half to even, line wrapping at 80 columns,
summarisation of more than 1000 elements, empty and 0-dim tensors, integer dtypes and the dtype suffix.
"""
import json
import math
import os

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "repr")
DTYPES = {"float32": torch.float32, "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16,
          "int32": torch.int32}


def encode(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def case(name, t):
    dtype = next(k for k, d in DTYPES.items() if d == t.dtype)
    return {"name": name, "shape": list(t.shape), "dtype": dtype,
            "values": [encode(v) for v in t.reshape(-1).tolist()], "repr": repr(t)}


def main():
    torch.manual_seed(0)
    f = lambda *v: torch.tensor(v, dtype=torch.float32)
    nan, inf = float("nan"), float("inf")
    cases = [
        case("randn 2x3", torch.randn(2, 3)),
        case("randn 5", torch.randn(5)),
        case("randn 3x4x5", torch.randn(3, 4, 5)),
        case("randn 2x3x2x2", torch.randn(2, 3, 2, 2)),
        case("wraps past 80 columns", torch.randn(30)),
        case("2-D rows that wrap", torch.randn(3, 17)),
        case("scientific: a wide range", f(1e-8, 123456.7, -0.5)),
        case("scientific: all small", torch.randn(6) * 1e-5),
        case("scientific: large", torch.randn(4) * 1e9),
        case("integer-valued floats", f(1, -2, 3, 100, 0)),
        case("integer-valued floats, scientific", f(1, 2000, -3)),
        case("integer-valued floats above 1e8", f(2e8, 3e8)),
        case("zeros", torch.zeros(4)),
        case("negative zero", f(-0.0, 0.0, 1.5)),
        case("non-finite only", f(nan, inf, -inf, 0)),
        case("non-finite among values", f(nan, 1.25, -inf, 0.5)),
        case("non-finite among integers", f(nan, 3, inf)),
        case("ties round half to even", f(0.03125, 0.09375, -0.03125, 1.00005, 2.5)),
        case("small values near the 1e-4 switch", f(1e-4, 0.5)),
        case("just under 1e-4", f(0.99e-4, 0.5)),
        case("ratio just over 1000", f(0.001, 1.0000001)),
        case("sci with 3-digit exponent", f(1e-38, 3e38)),
        case("denormal", f(1e-45, 1.0)),
        case("summarised 1-D", torch.randn(2000)),
        case("summarised 2-D", torch.randn(40, 40)),
        case("summarised 3-D", torch.randn(12, 10, 11)),
        case("summarised, few rows", torch.randn(2, 600)),
        case("summarised 4-D", torch.randn(2, 8, 8, 8)),
        case("scalar", torch.tensor(1.5)),
        case("scalar, integer dtype", torch.tensor(7, dtype=torch.int32)),
        case("empty 1-D", torch.zeros(0)),
        case("empty 2-D", torch.zeros(2, 0)),
        case("empty int8", torch.zeros(0, dtype=torch.int8)),
        case("int8", torch.tensor([[-128, 0, 127], [5, -7, 3]], dtype=torch.int8)),
        case("uint8", torch.tensor([0, 255, 17], dtype=torch.uint8)),
        case("int16 long row, dtype on its own line", torch.arange(-300, 300, 23, dtype=torch.int16)),
        case("int32", torch.tensor([2**31 - 1, -2**31, 0], dtype=torch.int32)),
        case("int32 summarised", torch.arange(0, 3000, dtype=torch.int32)),
        case("uint8 2-D", torch.randint(0, 256, (4, 30), dtype=torch.uint8)),
        case("one element", f(3.14159265)),
        case("large and small fixed", f(12345.678, 0.01)),
    ]
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "tensor_repr.json"), "w") as fh:
        json.dump({"torch": torch.__version__, "cases": cases}, fh, indent=0)
        fh.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}/tensor_repr.json")


if __name__ == "__main__":
    main()
