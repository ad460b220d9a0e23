// power_of_two_observer.h — MinMax observers whose scale is a power of two, the fictional VPU's rule
// (engine/pt2e/quantizers/vpu_quantizer.h): with every scale 2^k, requantization is a shift.
//
//   pt::ObserverArgs a;  a.dtype = pt::DType::Int8;  a.qscheme = pt::QScheme::per_tensor_symmetric;
//   pt::PowerOfTwoMinMaxObserver obs(a);
//   obs.forward(x);
//   obs.calculate_qparams();   // scale 2^k, zero_point 0
//
// The statistics are MinMaxObserver's; only calculate_qparams differs (power_of_two_qparams below).
// Symmetric qschemes only (a power-of-two scale is a fixed-point format: zero point 0; the default is
// per_tensor_symmetric), signed dtypes only (default int8); else ValueError naming the class. Registered
// by name with MinMaxObserver's keywords, so a QuantizationSpec can name it. Per tensor only: the VPU
// applies one shift per op (a lesson's JS observer, engine/quant/js_observer.h, can do per channel).
#pragma once
#include "quant/observer.h"

namespace pt {

// Per element of (min_val, max_val): the smallest 2^k with max(|min|, |max|) ≤ quant_max · 2^k and
// 2^k ≥ eps, zero point 0. Rounding the scale UP (never to nearest) keeps the largest observed magnitude
// inside the code range, so no observed value clips: max(|min|, |max|) / 2^k ≤ quant_max, and
// −quant_max ≥ quant_min for the symmetric ranges. No data yet (min > max): scale 1, zero point 0, as
// torch's calculate_qparams. NaN statistics: ValueError, as torch's min_val <= max_val assert.
QParams power_of_two_qparams(const Tensor& min_val, const Tensor& max_val, int64_t quant_max, float eps);

class PowerOfTwoMinMaxObserver : public MinMaxObserver {
 public:
  explicit PowerOfTwoMinMaxObserver(const ObserverArgs& args = {});
  const char* type_name() const override { return "PowerOfTwoMinMaxObserver"; }
  QParams calculate_qparams() const override;
};


}  // namespace pt
