#!/usr/bin/python3
# torch_observers.py — the torch 1.13 side of bench/observers/run.js (spawned by it; prints one JSON line).
#
#   /usr/bin/python3 bench/observers/torch_observers.py data.f32 [rounds]
#
# Times, single-threaded, on the float32 data in the file:
#   forward            — torchao 0.18's HistogramObserver.forward (aminmax + histc + merge), run with
#                        torch 1.13 primitives by the transcription in tests/golden/gen_histogram.py
#   calculate_qparams  — the same transcription's search (_non_linear_param_search + calculate_qparams)
#   forward_1_13_class — torch 1.13's own HistogramObserver.forward, for reference only (it is a
#                        different algorithm, docs/algorithms.md; its calculate_qparams is not comparable)
# Each step: warm-up, then timed calls; wall-clock min and median and the median thread CPU time per
# call, each the lowest over the rounds (bench/torch_timing.py).
import json
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, ".."), os.path.join(here, "..", "..", "tests", "golden")]
from gen_histogram import AOHistogramObserver  # noqa: E402
from torch_timing import best_of, load, timed  # noqa: E402


def new_observer():
    return AOHistogramObserver(2048, torch.qint8, torch.per_tensor_affine, -128, 127, 2 ** -12)


def main():
    x = load(sys.argv[1], "<f4")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    obs = new_observer()
    obs.forward(x)
    forward = best_of(rounds, lambda: timed(lambda: obs.forward(x), 5, 30))
    obs = new_observer()
    obs.forward(x)
    result = {}

    def calc():
        obs.n_errors = 0
        scale, zp, _, _ = obs.calculate_qparams()
        result.update(scale=float(scale), zero_point=int(zp), evaluations=obs.n_errors)

    calculate = best_of(rounds, lambda: timed(calc, 1, 5))
    ref = torch.ao.quantization.observer.HistogramObserver(dtype=torch.qint8, quant_min=-128, quant_max=127)
    ref(x)
    forward_113 = best_of(rounds, lambda: timed(lambda: ref(x), 5, 30))
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "forward": forward,
                      "calculate_qparams": calculate, "forward_1_13_class": forward_113, **result}))


if __name__ == "__main__":
    main()
