#!/usr/bin/python3
# gen_histogram.py — golden data for HistogramObserver (torchao 0.18 algorithm, docs/algorithms.md).
#
# Run with Debian's torch 1.13:  /usr/bin/python3 tests/golden/gen_histogram.py
# torch 1.13's own HistogramObserver is a different algorithm (docs/algorithms.md, Checking
# against torch 1.13), so the oracle below
# transcribes torchao 0.18's HistogramObserver step by step with torch 1.13 tensor primitives
# (aminmax, histc, linspace, repeat_interleave, bucketize, bincount, cumsum, sum, div floor) and
# takes the final (min, max) -> (scale, zero_point) step from 1.13's observer base class, whose
# formula is the same as torchao's calculate_qparams.
#
# Each case seeds the generator and feeds a list of batches; batch recipes are shared with
# tests/engine/quant/test_histogram_observer.cpp, which regenerates the inputs with the engine's
# bit-exact generator. Output per case, tests/golden/histogram/<case>.bin, little-endian:
#   float32 min_val, max_val, search_min, search_max, scale; int32 zero_point; int32 bins;
#   int32 n_errors (quant_error evaluations); float32 histogram[bins]
# and cases.json with the same scalars in readable form.
# primitives.bin checks the torch building blocks on their own (see write_primitives), and
# quant_error.bin holds _compute_quantization_error(start, end) of the first case's histogram.
import json
import math
import os
import struct

import torch
from torch.ao.quantization.observer import MinMaxObserver

torch.set_num_threads(1)  # linspace / histc split work across threads; keep the single-thread order
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "histogram")


class AOHistogramObserver:
    """torchao 0.18 HistogramObserver, restated on torch 1.13 primitives."""

    def __init__(self, bins, dtype, qscheme, quant_min, quant_max, eps):
        self.bins = bins
        self.histogram = torch.zeros(bins)
        self.min_val = torch.tensor(float("inf"))
        self.max_val = torch.tensor(float("-inf"))
        self.upsample_rate = 16
        self.dst_nbins = 2 ** torch.iinfo(dtype).bits
        kw = dict(dtype=dtype, qscheme=qscheme, eps=eps)
        if quant_min is not None:
            kw.update(quant_min=quant_min, quant_max=quant_max)
        self.qparams_from = MinMaxObserver(**kw)  # only its _calculate_qparams is used
        self.n_errors = 0

    def _get_norm(self, delta_begin, delta_end, density):
        norm = (delta_end * delta_end * delta_end - delta_begin * delta_begin * delta_begin) / 3
        return density * norm

    def _compute_quantization_error(self, next_start_bin, next_end_bin):
        self.n_errors += 1
        bin_width = (self.max_val.item() - self.min_val.item()) / self.bins
        dst_bin_width = bin_width * (next_end_bin - next_start_bin + 1) / self.dst_nbins
        if dst_bin_width == 0.0:
            return 0.0
        src_bin = torch.arange(self.bins)
        src_bin_begin = (src_bin - next_start_bin) * bin_width
        src_bin_end = src_bin_begin + bin_width
        dst_bin_of_begin = torch.clamp(torch.div(src_bin_begin, dst_bin_width, rounding_mode="floor"),
                                       0, self.dst_nbins - 1)
        dst_bin_of_begin_center = (dst_bin_of_begin + 0.5) * dst_bin_width
        dst_bin_of_end = torch.clamp(torch.div(src_bin_end, dst_bin_width, rounding_mode="floor"),
                                     0, self.dst_nbins - 1)
        density = self.histogram / bin_width
        norm = torch.zeros(self.bins)
        delta_begin = src_bin_begin - dst_bin_of_begin_center
        delta_end = dst_bin_width / 2
        norm += self._get_norm(delta_begin, torch.ones(self.bins) * delta_end, density)
        norm += (dst_bin_of_end - dst_bin_of_begin - 1) * self._get_norm(
            torch.tensor(-dst_bin_width / 2), torch.tensor(dst_bin_width / 2), density)
        dst_bin_of_end_center = dst_bin_of_end * dst_bin_width + dst_bin_width / 2
        delta_begin = -dst_bin_width / 2
        delta_end = src_bin_end - dst_bin_of_end_center
        norm += self._get_norm(torch.tensor(delta_begin), delta_end, density)
        return norm.sum().item()

    def _non_linear_param_search(self):
        bin_width = (self.max_val - self.min_val) / self.bins
        total = torch.sum(self.histogram).item()
        cSum = torch.cumsum(self.histogram, dim=0)
        stepsize = 1e-5
        alpha, beta = 0.0, 1.0
        start_bin, end_bin = 0, self.bins - 1
        norm_min = float("inf")
        while alpha < beta:
            next_alpha = alpha + stepsize
            next_beta = beta - stepsize
            l, r = start_bin, end_bin
            while l < end_bin and cSum[l] < next_alpha * total:
                l = l + 1
            while r > start_bin and cSum[r] > next_beta * total:
                r = r - 1
            next_start_bin, next_end_bin = start_bin, end_bin
            if (l - start_bin) > (end_bin - r):
                next_start_bin = l
                alpha = next_alpha
            else:
                next_end_bin = r
                beta = next_beta
            if next_start_bin == start_bin and next_end_bin == end_bin:
                continue
            norm = self._compute_quantization_error(next_start_bin, next_end_bin)
            if norm > norm_min:
                break
            norm_min = norm
            start_bin, end_bin = next_start_bin, next_end_bin
        new_min = self.min_val + bin_width * start_bin
        new_max = self.min_val + bin_width * (end_bin + 1)
        return new_min, new_max

    def _upscale_histogram(self, histogram, orig_min, orig_max, update_min, update_max):
        histogram = histogram.repeat_interleave(self.upsample_rate) / self.upsample_rate
        bin_size = (orig_max - orig_min) / (self.bins * self.upsample_rate)
        mid_points_histogram = torch.linspace(orig_min, orig_max, self.bins * self.upsample_rate + 1)[:-1] \
            + 0.5 * bin_size
        boundaries_new_histogram = torch.linspace(update_min, update_max, self.bins + 1)
        bucket_assignments = torch.bucketize(mid_points_histogram, boundaries_new_histogram, right=True) - 1
        bucket_assignments[bucket_assignments >= self.bins] = self.bins - 1
        bucket_assignments[bucket_assignments < 0] = 0
        return torch.bincount(bucket_assignments, weights=histogram, minlength=self.bins)

    def _combine_histograms(self, orig_hist, orig_min, orig_max, update_hist, update_min, update_max):
        if update_min == orig_min and update_max == orig_max:
            return orig_hist + update_hist
        if orig_min == orig_max:
            bin_value = torch.sum(orig_hist)
            transformed = torch.histc(orig_min, bins=self.bins, min=update_min, max=update_max) * bin_value
            return transformed + update_hist
        assert update_min <= orig_min and update_max >= orig_max
        transformed = self._upscale_histogram(orig_hist, orig_min, orig_max, update_min, update_max)
        return update_hist + transformed

    def forward(self, x):
        if x.numel() == 0:
            return
        x_min, x_max = torch.aminmax(x)
        if x_min == -math.inf or x_max == math.inf:
            x = x[x.abs() != math.inf]
            if x.numel() == 0:
                return
            x_min, x_max = torch.aminmax(x)
        if self.min_val == float("inf") or self.max_val == float("-inf"):
            self.min_val, self.max_val = x_min.clone(), x_max.clone()
            self.histogram = torch.histc(x, self.bins, min=x_min, max=x_max)
            return
        new_min = torch.min(self.min_val, x_min)
        new_max = torch.max(self.max_val, x_max)
        update = torch.histc(x, self.bins, min=new_min, max=new_max)
        if new_min == self.min_val and new_max == self.max_val:
            self.histogram = self.histogram + update
        else:
            self.histogram = self._combine_histograms(self.histogram, self.min_val, self.max_val,
                                                      update, new_min, new_max)
            self.min_val, self.max_val = new_min, new_max

    def calculate_qparams(self):
        if self.min_val == float("inf") and self.max_val == float("-inf"):
            return torch.tensor([1.0]), torch.tensor([0]), None, None
        new_min, new_max = self._non_linear_param_search()
        scale, zp = self.qparams_from._calculate_qparams(new_min, new_max)
        return scale, zp, new_min, new_max


def make_batch(kind, n, scale):
    """Batch recipes (the C++ test has the same list)."""
    if kind == "randn":
        return torch.randn(n) * scale
    if kind == "relu_randn":
        return torch.relu(torch.randn(n)) * scale
    if kind == "student_t3":
        return torch.distributions.StudentT(3.0).sample((n,)) * scale
    if kind == "full":
        return torch.full((n,), scale)
    if kind == "randn_inf":  # every 97th element +inf, every 89th -inf
        x = torch.randn(n) * scale
        x[::97] = math.inf
        x[::89] = -math.inf
        return x
    if kind == "inf_only":
        return torch.full((n,), math.inf)
    if kind == "neg_abs_randn":
        return -torch.randn(n).abs() * scale - 1.0
    raise ValueError(kind)


QINT = {"int8": torch.qint8, "uint8": torch.quint8}
QS = {"affine": torch.per_tensor_affine, "symmetric": torch.per_tensor_symmetric}

# name, seed, dtype, qscheme, quant_min, quant_max, eps, bins, batches [(kind, n, scale)]
SPIKE = [("randn", 1000, 10.0 if i == 3 else 1.0) for i in range(20)]
CASES = [
    ("gauss20k_int8_affine", 0, "int8", "affine", -128, 127, 2 ** -12, 2048, [("randn", 20000, 1.0)]),
    ("gauss20k_uint8_symmetric", 0, "uint8", "symmetric", None, None, 2 ** -12, 2048, [("randn", 20000, 1.0)]),
    ("gauss20k_int8_symmetric", 0, "int8", "symmetric", -128, 127, 2 ** -12, 2048, [("randn", 20000, 1.0)]),
    ("relu5k_uint8_affine", 3, "uint8", "affine", None, None, 2 ** -23, 2048, [("relu_randn", 5000, 1.0)]),
    ("t3_20k_int8_affine", 4, "int8", "affine", -128, 127, 2 ** -12, 2048, [("student_t3", 20000, 1.0)]),
    ("grow_int8_affine", 1, "int8", "affine", -128, 127, 2 ** -12, 2048,
     [("randn", 1000, 1.0), ("randn", 1000, 2.0), ("randn", 1000, 4.0)]),
    ("shrink_uint8_affine", 2, "uint8", "affine", 0, 255, 2 ** -12, 2048,
     [("randn", 1000, 4.0), ("randn", 1000, 1.0), ("randn", 1000, 0.5)]),
    ("spike20_int8_affine", 5, "int8", "affine", -128, 127, 2 ** -12, 2048, SPIKE),
    ("const_first_int8_affine", 6, "int8", "affine", -128, 127, 2 ** -12, 2048,
     [("full", 100, 0.5), ("randn", 1000, 1.0)]),
    ("const_both_uint8_symmetric", 7, "uint8", "symmetric", 0, 255, 2 ** -12, 2048,
     [("full", 10, 2.0), ("full", 10, 2.0)]),
    ("const_then_wider_const_int8_affine", 7, "int8", "affine", -128, 127, 2 ** -12, 2048,
     [("full", 10, 2.0), ("full", 30, -1.0)]),
    ("inf_dropped_int8_symmetric", 8, "int8", "symmetric", -128, 127, 2 ** -12, 2048,
     [("randn_inf", 2000, 1.0), ("inf_only", 5, 0.0), ("randn_inf", 2000, 3.0)]),
    ("negative_only_int8_affine", 9, "int8", "affine", -128, 127, 2 ** -12, 2048, [("neg_abs_randn", 3000, 2.0)]),
    ("single_value_int8_affine", 10, "int8", "affine", -128, 127, 2 ** -12, 2048, [("full", 1, 3.0)]),
    ("bins256_int8_affine", 11, "int8", "affine", -127, 127, 2 ** -12, 256,
     [("randn", 4000, 1.0), ("randn", 4000, 1.5)]),
    ("uninitialized_int8_affine", 0, "int8", "affine", -128, 127, 2 ** -12, 2048, []),
]


LINSPACE = [(-4.34328031539917, 4.1014933586120605, 32769), (-4.34328031539917, 4.1014933586120605, 2049),
            (-44.6, 51.3, 2049), (1.2345, 1.2346, 2049),
            (-100.0, 7.0, 17), (2.5, -1.5, 16), (-1.0, 1.0, 33), (0.0, 1.0, 2), (-7.0, 9.0, 1000)]
SUMS = [1, 7, 8, 9, 100, 2048, 5000, 70000]
HISTC = [(15, -2.0, 2.0), (2047, -3.0, 2.5), (2048, 0.0, 0.0), (100, 1.0, 1.0)]
QUANT_ERROR_PAIRS = [(0, 2047), (10, 2000), (100, 1900), (1000, 1000), (500, 1500), (3, 7), (2040, 2047)] + \
    [((k * 53) % 1500, (k * 53) % 1500 + (k * 97) % (2047 - (k * 53) % 1500)) for k in range(40)]


def write_primitives():
    """linspace(a, b, n); sum of randn(n) * 1000; histc(randn(1000), bins, lo, hi) after manual_seed(0)."""
    with open(os.path.join(OUT, "primitives.bin"), "wb") as f:
        for a, b, n in LINSPACE:
            f.write(torch.linspace(float(torch.tensor(a)), float(torch.tensor(b)), n).numpy().astype("<f4").tobytes())
        torch.manual_seed(0)
        for n in SUMS:
            f.write(struct.pack("<f", float(torch.sum(torch.randn(n) * 1000.0))))
        x = torch.randn(1000)
        x[:3] = torch.tensor([0.5, 0.5, 0.5])  # a constant head for the min == max == 0.0 / 1.0 cases
        for bins, lo, hi in HISTC:
            f.write(torch.histc(x if lo != hi else x[:3], bins, lo, hi).numpy().astype("<f4").tobytes())


def main():
    os.makedirs(OUT, exist_ok=True)
    write_primitives()
    meta = []
    for name, seed, dtype, qscheme, qmin, qmax, eps, bins, batches in CASES:
        torch.manual_seed(seed)
        obs = AOHistogramObserver(bins, QINT[dtype], QS[qscheme], qmin, qmax, eps)
        for kind, n, scale in batches:
            obs.forward(make_batch(kind, n, scale))
        scale, zp, smin, smax = obs.calculate_qparams()
        smin = float("nan") if smin is None else float(smin)
        smax = float("nan") if smax is None else float(smax)
        with open(os.path.join(OUT, name + ".bin"), "wb") as f:
            f.write(struct.pack("<5f3i", float(obs.min_val), float(obs.max_val), smin, smax, float(scale),
                                int(zp), bins, obs.n_errors))
            f.write(obs.histogram.numpy().astype("<f4").tobytes())
        meta.append({"name": name, "seed": seed, "dtype": dtype, "qscheme": qscheme, "quant_min": qmin,
                     "quant_max": qmax, "eps": eps, "bins": bins, "batches": batches,
                     "min_val": float(obs.min_val), "max_val": float(obs.max_val), "search_min": smin,
                     "search_max": smax, "scale": float(scale), "zero_point": int(zp),
                     "quant_error_evaluations": obs.n_errors})
        if name == "gauss20k_int8_affine":
            with open(os.path.join(OUT, "quant_error.bin"), "wb") as f:
                for a, b in QUANT_ERROR_PAIRS:
                    f.write(struct.pack("<d", obs._compute_quantization_error(a, b)))
        print(f"{name}: scale {float(scale):.6g} zp {int(zp)} range [{smin:.6g}, {smax:.6g}] "
              f"errors {obs.n_errors}")
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"torch": torch.__version__, "algorithm": "torchao 0.18 HistogramObserver", "cases": meta},
                  f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
