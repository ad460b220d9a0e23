#!/usr/bin/python3
"""gen_fold_change.py — how much torch's own float32 conv changes a model's output when its BNs are folded.

Run with Debian's torch 1.13 (not the pyenv python):  /usr/bin/python3 tests/golden/gen_fold_change.py
Writes tests/golden/models/fold_change.json. tests/api/graph.test.js ('fold_bn ... keeps the output') folds the
residual block the same way and holds the engine to torch's own rounding: the folded conv computes the same sum
with other weights, so the two forward passes differ by float32 rounding, in torch as in the engine.

Setup, as the JS test: manual_seed(0); ResidualBlock(ch=8) in eval mode (default BN statistics); randn(4, 8, 16, 16)
(the export example); x = randn(2, 8, 16, 16). Change = max_i |a_i - b_i| / max(1e-3, |a_i|) between the model and
its copy with each conv / bn pair replaced by torch.nn.utils.fusion.fuse_conv_bn_eval. Torch's x86 builds run conv
through oneDNN (mkldnn) by default; its other CPU path (im2col + sgemm) is recorded too.
"""
import copy
import json
import os

import torch
from torch.nn.utils.fusion import fuse_conv_bn_eval

from gen_models import ResidualBlock, OUT


def change(model, x):
    folded = copy.deepcopy(model)
    for conv, bn in (("conv1", "bn1"), ("conv2", "bn2")):
        setattr(folded, conv, fuse_conv_bn_eval(getattr(folded, conv), getattr(folded, bn)))
        setattr(folded, bn, torch.nn.Identity())
    a, b = model(x), folded(x)
    return ((a - b).abs() / a.abs().clamp(min=1e-3)).max().item()


if __name__ == "__main__":
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = ResidualBlock(8).eval()
    torch.randn(4, 8, 16, 16)
    x = torch.randn(2, 8, 16, 16)
    out = {"residual_default_bn": {"mkldnn": change(model, x)}}
    with torch.backends.mkldnn.flags(enabled=False):
        out["residual_default_bn"]["native"] = change(model, x)
    with open(os.path.join(OUT, "fold_change.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    print(out)
