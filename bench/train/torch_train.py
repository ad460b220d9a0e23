#!/usr/bin/python3
# torch_train.py — the torch 1.13 side of bench/train/run.js: spawned once, it times one round of its
# workloads per line read from stdin and answers each with one JSON line (so run.js can interleave
# torch's rounds with the engine's).
#
#   /usr/bin/python3 bench/train/torch_train.py data.f32 labels.i32 conv_x.f32 conv_w.f32
#   stdin "round <warmup> <min_calls> <min_ms>\n"  ->  {"float_step": {...}, "forward": {...}, "conv": {...}}
#
# One thread (torch.set_num_threads(1)). The model is tests/golden/gen_models.py's TinyConvNet (the
# engine's `tiny`), seed-0 init, train mode, SGD(lr 0.05, momentum 0.9); the batch [32, 3, 16, 16] and
# its labels are the engine's (written by run.js). Workloads:
#   float_step — optimizer.zero_grad(set_to_none=True); loss = F.cross_entropy(model(x), labels);
#                loss.backward(); optimizer.step()   (the engine's train_step)
#   forward    — the model in eval mode on the batch, under torch.no_grad()
#   conv       — F.conv2d(x [1, 32, 32, 32], w [32, 32, 3, 3], padding=1), NCHW
# Each: warm-up calls, then timed calls until both a count and a time budget are met; per call the
# wall-clock time and the thread CPU time; the round's min, median and median CPU time (bench/torch_timing.py).
import json
import os
import sys

import torch
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, ".."), os.path.join(here, "..", "..", "tests", "golden")]
from gen_models import TinyConvNet  # noqa: E402
from torch_timing import load, timed  # noqa: E402


def main():
    x = load(sys.argv[1], "<f4", (32, 3, 16, 16))
    labels = load(sys.argv[2], "<i4", (32,)).long()
    conv_x = load(sys.argv[3], "<f4", (1, 32, 32, 32))
    conv_w = load(sys.argv[4], "<f4", (32, 32, 3, 3))

    torch.manual_seed(0)
    model = TinyConvNet().train()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    eval_model = TinyConvNet().eval()

    def float_step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), labels)
        loss.backward()
        opt.step()

    def forward():
        with torch.no_grad():
            eval_model(x)

    def conv():
        with torch.no_grad():
            F.conv2d(conv_x, conv_w, None, 1, 1)

    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads()}), flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd or cmd[0] != "round":
            break
        warmup, min_calls, min_ms = int(cmd[1]), int(cmd[2]), float(cmd[3])
        out = {name: timed(fn, warmup, min_calls, min_ms) for name, fn in
               (("float_step", float_step), ("forward", forward), ("conv", conv))}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
