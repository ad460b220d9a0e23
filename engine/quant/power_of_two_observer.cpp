// power_of_two_observer.cpp — PowerOfTwoMinMaxObserver (power_of_two_observer.h) and its registry entry.
#include "quant/power_of_two_observer.h"

#include <algorithm>
#include <cmath>

namespace pt {

namespace {

// Power-of-two scales are symmetric fixed-point formats: a symmetric qscheme and a signed dtype.
ObserverConfig symmetric_config(ObserverArgs args, QScheme default_qscheme, const char* cls) {
  if (!args.qscheme && !args.is_none("qscheme")) args.qscheme = default_qscheme;
  const ObserverConfig c = UniformQuantizationObserverBase::make_config(args, default_qscheme, cls, DType::Int8);
  if (!is_symmetric(c.qscheme))
    throw ValueError(std::string(cls) + ": a power-of-two scale has zero point 0, so the qscheme must be symmetric, got " +
                     qscheme_name(c.qscheme));
  if (c.dtype != DType::Int8 && c.dtype != DType::Int32)
    throw ValueError(std::string(cls) + ": power-of-two scales need a signed dtype (int8), got " + dtype_name(c.dtype));
  return c;
}

// 2^ceil(log2(s)) for s > 0, exact: frexp gives s = m·2^e with m in [0.5, 1); m = 0.5 is already a power.
float power_of_two_at_least(float s) {
  int e = 0;
  const float m = std::frexp(s, &e);
  return std::ldexp(1.0f, m == 0.5f ? e - 1 : e);
}

}  // namespace

QParams power_of_two_qparams(const Tensor& min_val, const Tensor& max_val, int64_t quant_max, float eps) {
  const int64_t n = min_val.numel();
  QParams qp{Tensor::empty({n}), Tensor::zeros({n == 0 ? 1 : n}, DType::Int32)};
  if (n == 0) {  // a per-channel observer that has seen nothing
    qp.scale = Tensor::full({1}, 1.0f);
    return qp;
  }
  for (int64_t i = 0; i < n; ++i) {
    const float lo = min_val.data<float>()[i], hi = max_val.data<float>()[i];
    if (std::isnan(lo) || std::isnan(hi)) throw ValueError("power_of_two_qparams: min_val / max_val hold NaN");
    if (lo > hi) {
      qp.scale.data<float>()[i] = 1.0f;
      continue;
    }
    const float amax = std::max({-lo, hi, 0.0f});
    const float needed = std::max(amax / static_cast<float>(quant_max), eps);
    float s = power_of_two_at_least(needed);
    if (amax / s > static_cast<float>(quant_max)) s *= 2;  // the division rounded below: keep no clipping
    qp.scale.data<float>()[i] = s;
  }
  return qp;
}

PowerOfTwoMinMaxObserver::PowerOfTwoMinMaxObserver(const ObserverArgs& args)
    : MinMaxObserver(symmetric_config(args, QScheme::per_tensor_symmetric, "PowerOfTwoMinMaxObserver"),
                     "PowerOfTwoMinMaxObserver") {}

QParams PowerOfTwoMinMaxObserver::calculate_qparams() const {
  return power_of_two_qparams(min_val_, max_val_, config_.quant_max, eps_.data<float>()[0]);
}

namespace {
template <class O> std::unique_ptr<ObserverBase> construct(const ObserverArgs& a) { return std::make_unique<O>(a); }

[[maybe_unused]] const bool registered = [] {
  register_observer({"PowerOfTwoMinMaxObserver", construct<PowerOfTwoMinMaxObserver>, observer_class("MinMaxObserver").kwargs});
  return true;
}();
}  // namespace

}  // namespace pt
