# torch_timing.py — how the benches time torch 1.13 on one thread, shared by the torch side of each bench
# (bench/observers/torch_observers.py, bench/train/torch_train.py), the Python twin of bench/harness.js.
#
#   from torch_timing import timed, best_of, load
#   timed(fn, warmup=5, min_calls=30)            # one round: {"min", "median", "cpu", "calls"} in ms per call
#   timed(fn, 2, 10, min_ms=200)                 # ... calls until both 10 calls and 200 ms are reached
#   best_of(3, lambda: timed(fn, 5, 30))         # the lowest min / median / cpu over rounds, calls summed
#   load("x.f32", "<f4", (32, 3, 16, 16))        # a tensor from the raw file run.js wrote
#
# Per call: the wall-clock time (perf_counter) and the thread's CPU time (thread_time); a round reports the
# fastest call, the median call and the median CPU time.
import statistics
import time

import numpy as np
import torch

torch.set_num_threads(1)


def timed(fn, warmup, min_calls, min_ms=0.0):
    for _ in range(warmup):
        fn()
    ts, cpu = [], []
    start = time.perf_counter_ns()
    while len(ts) < min_calls or (time.perf_counter_ns() - start) / 1e6 < min_ms:
        c0 = time.thread_time_ns()
        t0 = time.perf_counter_ns()
        fn()
        ts.append((time.perf_counter_ns() - t0) / 1e6)
        cpu.append((time.thread_time_ns() - c0) / 1e6)
    ts.sort()
    return {"min": ts[0], "median": statistics.median(ts), "cpu": statistics.median(cpu), "calls": len(ts)}


def best_of(rounds, measure):
    best = None
    for _ in range(rounds):
        r = measure()
        best = r if best is None else {k: best[k] + r[k] if k == "calls" else min(best[k], r[k]) for k in r}
    return best


def load(path, dtype, shape=None):
    a = np.fromfile(path, dtype=dtype)
    return torch.from_numpy((a if shape is None else a.reshape(shape)).copy())
