#!/usr/bin/python3
# torch_timing.py — the torch 1.13 side of bench/observers/run.js (spawned by it; prints one JSON line).
#
#   /usr/bin/python3 bench/observers/torch_timing.py data.f32 [rounds]
#
# Times, single-threaded, on the float32 data in the file:
#   forward            — torchao 0.18's HistogramObserver.forward (aminmax + histc + merge), run with
#                        torch 1.13 primitives by the transcription in tests/golden/gen_histogram.py
#   calculate_qparams  — the same transcription's search (_non_linear_param_search + calculate_qparams)
#   forward_1_13_class — torch 1.13's own HistogramObserver.forward, for reference only (it is a
#                        different algorithm, docs/algorithms.md; its calculate_qparams is not comparable)
# Each step: warm-up, then timed calls; wall-clock min and median and the median thread CPU time per
# call, each the lowest over the rounds.
import json
import os
import statistics
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden"))
from gen_histogram import AOHistogramObserver  # noqa: E402

torch.set_num_threads(1)


def new_observer():
    return AOHistogramObserver(2048, torch.qint8, torch.per_tensor_affine, -128, 127, 2 ** -12)


def timed(fn, warmup, calls, rounds):
    best = None
    for _ in range(rounds):
        for _ in range(warmup):
            fn()
        ts, cpu = [], []
        for _ in range(calls):
            c0 = time.thread_time_ns()
            t0 = time.perf_counter_ns()
            fn()
            ts.append((time.perf_counter_ns() - t0) / 1e6)
            cpu.append((time.thread_time_ns() - c0) / 1e6)
        ts.sort()
        r = {"min": ts[0], "median": statistics.median(ts), "cpu": statistics.median(cpu), "calls": calls}
        best = r if best is None else {k: (min(best[k], r[k]) if k != "calls" else best[k] + r[k]) for k in r}
    return best


def main():
    x = torch.from_numpy(np.fromfile(sys.argv[1], dtype="<f4"))
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    obs = new_observer()
    obs.forward(x)
    forward = timed(lambda: obs.forward(x), 5, 30, rounds)
    obs = new_observer()
    obs.forward(x)
    result = {}

    def calc():
        obs.n_errors = 0
        scale, zp, _, _ = obs.calculate_qparams()
        result.update(scale=float(scale), zero_point=int(zp), evaluations=obs.n_errors)

    calculate = timed(calc, 1, 5, rounds)
    ref = torch.ao.quantization.observer.HistogramObserver(dtype=torch.qint8, quant_min=-128, quant_max=127)
    ref(x)
    forward_113 = timed(lambda: ref(x), 5, 30, rounds)
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "forward": forward,
                      "calculate_qparams": calculate, "forward_1_13_class": forward_113, **result}))


if __name__ == "__main__":
    main()
