// distributions.cpp — Gamma / Chi2 / StudentT sampling exactly as torch 1.13's CPU kernels.
//
// Order of generator use (what makes the bits match):
//   student_t: normal_ fills X first (the float32 normal kernel of generator.cpp), then one gamma
//              draw per element, elements in order.
//   gamma:     Marsaglia–Tsang. Each attempt takes a double normal (Box–Muller on two double
//              uniforms, the sine half cached in the generator) and a double uniform; shapes below 1
//              first take one uniform for the boost factor.
// Arithmetic mirrors the kernel's types: alpha is float32 and `alpha - 1/3` is a float32
// subtraction; everything after is double; the result is rounded to float32 once.
#include "core/distributions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pt {
namespace {

// at::uniform_real_distribution<double>(0, 1): the low 53 bits of a 64-bit draw, times 2^-53.
double uniform_double(Generator& gen) {
  return static_cast<double>(gen.random64() & ((uint64_t{1} << 53) - 1)) * 0x1p-53;
}

// at::normal_distribution<double>(0, 1): returns the cached value if there is one; otherwise
// Box–Muller on two fresh uniforms, caching r·sin θ and returning r·cos θ.
double normal_double(Generator& gen) {
  std::optional<double>& cached = gen.next_double_normal_sample();
  if (cached) {
    double v = *cached;
    cached.reset();
    return v;
  }
  const double u1 = uniform_double(gen);
  const double u2 = uniform_double(gen);
  const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * 3.14159265358979323846 * u1;
  cached = r * std::sin(theta);
  return r * std::cos(theta);
}

// One Gamma(alpha, 1) draw (the kernel's sample_gamma), before the FLT_MIN clamp.
float sample_gamma(float alpha, Generator& gen) {
  double scale = 1.0;
  if (alpha < 1.0f) {
    if (alpha == 0.0f) return 0.0f;
    scale *= std::pow(1.0 - uniform_double(gen), static_cast<double>(1.0f / alpha));
    alpha += 1.0f;
  }
  const double d = static_cast<double>(alpha - 1.0f / 3.0f);  // float32 subtraction
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, y;
    do {
      x = normal_double(gen);
      y = 1.0 + c * x;
    } while (y <= 0.0);
    const double v = y * y * y;
    const double u = 1.0 - uniform_double(gen);
    const double xx = x * x;
    if (u < 1.0 - static_cast<double>(0.0331f) * xx * xx) return static_cast<float>(scale * d * v);
    if (std::log(u) < 0.5 * xx + d * (1.0 - v + std::log(v))) return static_cast<float>(scale * d * v);
  }
}

// Python float -> float32 parameter tensor, checked against torch's `positive` constraint.
float positive_param(double value, const char* what) {
  const float v = static_cast<float>(value);
  if (!(v > 0.0f))
    throw ValueError(std::string(what) + ": expected a value > 0 (constraint positive), got " + std::to_string(value));
  return v;
}

Tensor gamma_fill(float alpha, const Shape& shape, Generator& gen) {
  Tensor out = Tensor::empty(shape);
  for (float& v : out.span<float>()) v = std::max(std::numeric_limits<float>::min(), sample_gamma(alpha, gen));
  return out;
}

// Chi2(df).rsample: _standard_gamma(0.5·df) / 0.5, clamped below at FLT_MIN (float32 ops).
Tensor chi2_checked(float df, const Shape& shape, Generator& gen) {
  const float concentration = 0.5f * df;
  const float rate = 0.5f;
  Tensor out = gamma_fill(concentration, shape, gen);
  for (float& v : out.span<float>()) v = std::max(v / rate, std::numeric_limits<float>::min());
  return out;
}

}  // namespace

Tensor standard_gamma(const Tensor& concentration, Generator& gen) {
  if (concentration.dtype() != DType::Float32)
    throw TypeError(std::string("standard_gamma: concentration must be float32, got ") +
                    dtype_name(concentration.dtype()));
  for (float a : concentration.span<float>())
    if (!(a >= 0.0f))
      throw ValueError("standard_gamma: concentration must be >= 0 and not NaN, got " + std::to_string(a));
  Tensor out = Tensor::empty(concentration.shape());
  const float* a = concentration.data<float>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = std::max(std::numeric_limits<float>::min(), sample_gamma(a[i], gen));
  return out;
}

Tensor chi2(double df, const Shape& shape, Generator& gen) {
  const float d = positive_param(df, "Chi2: df");
  checked_numel(shape, "Chi2.sample: shape");
  return chi2_checked(d, shape, gen);
}

Tensor student_t(double df, const Shape& shape, Generator& gen) {
  const float d = positive_param(df, "StudentT: df");
  checked_numel(shape, "StudentT.sample: shape");
  Tensor x = Tensor::empty(shape);
  normal_(x, 0.0, 1.0, gen);
  Tensor z = chi2_checked(d, shape, gen);
  float* xp = x.data<float>();
  const float* zp = z.data<float>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const float rsqrt = 1.0f / std::sqrt(zp[i] / d);
    xp[i] = 0.0f + 1.0f * (xp[i] * rsqrt);  // loc + scale * Y with loc 0, scale 1 (turns -0 into +0)
  }
  return x;
}

}  // namespace pt
