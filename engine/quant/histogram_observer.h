// histogram_observer.h — torchao's HistogramObserver: a running 2048-bin histogram, and a range
// search on it that approximately minimises the L2 quantization error (docs/algorithms.md).
//
//   pt::ObserverArgs a;
//   a.dtype = pt::DType::Int8; a.quant_min = -128; a.quant_max = 127; a.eps = 0x1p-12f;
//   pt::HistogramObserver obs(a);                 // or pt::make_observer("HistogramObserver", a)
//   obs.forward(x);                               // histc of x, merged into the running histogram
//   pt::HistogramSearch s = obs.non_linear_param_search();   // the clipped range [s.min, s.max]
//   pt::QParams qp = obs.calculate_qparams();     // calculate_qparams on that range (affine or symmetric)
//
// Numerics are torch's float32 CPU kernels as torch 1.13 runs them single-threaded on AVX2
// (the oracle: tests/golden/gen_histogram.py): histc bins with f32 (e - lo) * bins / (hi - lo);
// the ×16 upsample merge uses torch.linspace's exact rounding (vector-chunked, fused start + step·i)
// and bucketize's binary search; sums use torch's cascade summation order; the search steps alpha
// and beta by 1e-5 in double and compares against f32(alpha · total), as torch compares a float32
// tensor with a Python float. Every quant_error evaluation is the per-bin float32 tensor arithmetic
// of torchao's _compute_quantization_error, summed in torch's order, so the search takes the same
// path and returns the same bits.
//
// Speed: forward is one SIMD min/max pass and one histogram pass (one fused pass when the batch lies
// inside the running range, the usual case while calibrating). The search keeps its two quantile
// cursors between steps (each moves one way), so the ~10^5 steps cost O(1) each instead of a scan,
// and quant_error skips empty bins (their terms add +0). Figures: bench/observers/README.md.
//
// Limits of the bit-exactness: we count in integers, torch in float32, which stops adding 1 at 2^24
// in one bin (not reproduced: more than 16.7 M values in a single bin of one batch). The oracle ran
// single-threaded; torch splits linspace / histc / sum across threads above 32768 elements, which
// can move float32 roundings of multi-batch histograms.
//
// Errors: per-channel qschemes and is_dynamic raise NotImplementedError (as torchao); a non-float32
// input raises TypeError; NaN in the input raises RuntimeError (torch.histc: range not finite) and
// leaves the observer unchanged. ±inf elements are dropped, as torchao does.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "quant/observer.h"

namespace pt {

// Result of _non_linear_param_search: the chosen bins [start_bin, end_bin] and the range they span,
// min_val + bin_width · start_bin and min_val + bin_width · (end_bin + 1) (float32 tensor ops).
struct HistogramSearch {
  float min;
  float max;
  int64_t start_bin;
  int64_t end_bin;
  int64_t quant_error_evaluations;  // how many candidate ranges were scored
};

class HistogramObserver : public UniformQuantizationObserverBase {
 public:
  explicit HistogramObserver(const ObserverArgs& args = {});
  const char* type_name() const override { return "HistogramObserver"; }
  Tensor forward(const Tensor& x) override;
  // Uninitialized: scale [1.0], zero_point [0]. Otherwise the observer formula on the searched range.
  QParams calculate_qparams() const override;
  std::vector<NamedBuffer> named_buffers() const override;  // eps, histogram, min_val, max_val

  int64_t bins() const { return histogram_.numel(); }
  double dst_nbins() const;                                 // 2^bits(dtype): 256 for int8 / uint8
  const Tensor& histogram() const { return histogram_; }    // float32 [bins]
  bool is_initialized() const;
  HistogramSearch non_linear_param_search() const;          // RuntimeError if uninitialized
  // torchao's _compute_quantization_error(next_start_bin, next_end_bin), as the Python float it returns.
  double quant_error(int64_t next_start_bin, int64_t next_end_bin) const;

 private:
  Tensor histogram_;  // float32 [bins]
};

// The registry entry make_observer("HistogramObserver", ...) uses (kwargs: bins + the uniform ones).
ObserverClass histogram_observer_class();

// ---- torch building blocks, float32 CPU numerics as torch 1.13 computes them ----------------------
// torch.histc(x, bins, min, max): min == max → the data's min / max, then ±1 if still equal;
// RuntimeError if the range is not finite. Elements outside [lo, hi] and NaN are skipped.
std::vector<float> histc(std::span<const float> x, int64_t bins, double min, double max);
// torch.linspace(start, end, steps) in float32 (steps >= 1).
std::vector<float> linspace(float start, float end, int64_t steps);
// torch.sum of a contiguous float32 vector (the cascade order of the AVX2 kernel).
float sum_f32(std::span<const float> x);

}  // namespace pt
