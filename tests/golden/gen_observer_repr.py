#!/usr/bin/python3
"""gen_observer_repr.py — how torch prints an observer or a fake-quant module (repr(obs)), for their toString().

Run with Debian's torch 1.13 (not the pyenv python):  /usr/bin/python3 tests/golden/gen_observer_repr.py
Writes tests/golden/repr/observer_repr.json: per case the class, its keyword arguments as the JS API spells them,
the inputs it observed (float32 values as exact doubles), whether fake quant was then disabled, and torch's repr.
tests/api/observer_repr.test.js builds the same object with pt.<Class>(kwargs), runs the same inputs and compares
toString() with the string.

The printed fields are each class's extra_repr. torchao v0.18.0's PT2E copies (torchao/quantization/pt2e/
observer.py: MinMaxObserver, PerChannelMinMaxObserver, HistogramObserver; fake_quantize.py: FakeQuantize,
FixedQParamsFakeQuantize, FusedMovingAvgObsFakeQuantize) print the same fields in the same order as torch 1.13's
torch.ao.quantization classes used here. PlaceholderObserver is the exception (torchao prints its dtype and
is_dynamic; torch 1.13 prints nothing), so it is not generated here; the test states torchao's form.
"""
import json
import os

import torch
import torch.ao.quantization as tq
from torch.ao.quantization.fake_quantize import FixedQParamsFakeQuantize, FusedMovingAvgObsFakeQuantize

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "repr")
CLASSES = {c.__name__: c for c in (tq.MinMaxObserver, tq.MovingAverageMinMaxObserver, tq.PerChannelMinMaxObserver,
                                   tq.MovingAveragePerChannelMinMaxObserver, tq.HistogramObserver,
                                   tq.FixedQParamsObserver, tq.FakeQuantize, FusedMovingAvgObsFakeQuantize,
                                   FixedQParamsFakeQuantize)}


def torch_kwargs(kwargs):
    out = {}
    for k, v in kwargs.items():
        if k == "dtype":
            v = getattr(torch, v)
        elif k == "qscheme":
            v = getattr(torch, v)
        elif k == "observer":
            v = CLASSES[v]
        out[k] = v
    return out


def build(cls, kwargs):
    if cls == "FixedQParamsFakeQuantize":  # torch takes the observer; the JS API takes its scale and zero point
        return FixedQParamsFakeQuantize(observer=tq.FixedQParamsObserver.with_args(**torch_kwargs(kwargs)))
    return CLASSES[cls](**torch_kwargs(kwargs))


def case(name, cls, kwargs, inputs=(), disable_fake_quant=False):
    obs = build(cls, kwargs)
    for x in inputs:
        obs(x)
    if disable_fake_quant:
        obs.disable_fake_quant()
    return {"name": name, "class": cls, "kwargs": kwargs,
            "inputs": [{"shape": list(x.shape), "values": x.reshape(-1).tolist()} for x in inputs],
            "disable_fake_quant": disable_fake_quant, "repr": repr(obs)}


def main():
    torch.manual_seed(0)
    x = torch.randn(2, 3)
    cases = [
        case("MinMaxObserver before any input", "MinMaxObserver", {}),
        case("MinMaxObserver", "MinMaxObserver", {}, [x]),
        case("MinMaxObserver, tiny values (exponent notation)", "MinMaxObserver",
             {"dtype": "qint8", "qscheme": "per_tensor_symmetric"}, [torch.randn(8) * 1e-6]),
        case("MovingAverageMinMaxObserver, large values", "MovingAverageMinMaxObserver",
             {"averaging_constant": 0.5}, [torch.randn(8) * 1e17, torch.randn(8) * 1e17]),
        case("MovingAverageMinMaxObserver, integer-valued range", "MovingAverageMinMaxObserver", {},
             [torch.tensor([-3.0, 0.0, 5.0])]),
        case("PerChannelMinMaxObserver before any input", "PerChannelMinMaxObserver", {}),
        case("PerChannelMinMaxObserver", "PerChannelMinMaxObserver", {"ch_axis": 1}, [torch.randn(2, 3, 4)]),
        case("MovingAveragePerChannelMinMaxObserver", "MovingAveragePerChannelMinMaxObserver", {},
             [torch.randn(4, 2), torch.randn(4, 2)]),
        case("HistogramObserver", "HistogramObserver", {}, [torch.randn(100)]),
        case("FixedQParamsObserver", "FixedQParamsObserver", {"scale": 1.0 / 256, "zero_point": 0}),
        case("FakeQuantize before any input", "FakeQuantize", {}),
        case("FakeQuantize", "FakeQuantize", {}, [x]),
        case("FakeQuantize per channel", "FakeQuantize",
             {"observer": "MovingAveragePerChannelMinMaxObserver", "quant_min": -128, "quant_max": 127,
              "dtype": "qint8", "qscheme": "per_channel_symmetric", "ch_axis": 0}, [torch.randn(3, 4)]),
        case("FakeQuantize with fake quant disabled", "FakeQuantize", {}, [x], disable_fake_quant=True),
        case("FusedMovingAvgObsFakeQuantize", "FusedMovingAvgObsFakeQuantize", {}, [x]),
        case("FusedMovingAvgObsFakeQuantize, reduce_range, disabled", "FusedMovingAvgObsFakeQuantize",
             {"reduce_range": True}, [x], disable_fake_quant=True),
        case("FixedQParamsFakeQuantize", "FixedQParamsFakeQuantize", {"scale": 1.0 / 256, "zero_point": 0},
             [x]),
    ]
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "observer_repr.json"), "w") as fh:
        json.dump({"torch": torch.__version__, "cases": cases}, fh, indent=1)
        fh.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}/observer_repr.json")
    for c in cases:
        print(c["repr"])


if __name__ == "__main__":
    main()
