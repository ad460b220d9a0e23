// distributions.h — torch.distributions sampling that the lessons need, bit for bit.
//
// Gamma, Chi2 and StudentT draw from a pt::Generator in the same order and with the same mixed
// float / double arithmetic as torch 1.13's CPU kernels (`torch._standard_gamma` is Marsaglia–Tsang
// with double uniforms and the scalar double normal, whose cached second value lives in the
// generator), so after the same manual_seed they return the same float32 bits:
//
//   pt::manual_seed(0);
//   pt::Tensor t = pt::student_t(3.0, {100000});  // == torch.distributions.StudentT(3.0).sample((100000,))
//   pt::Tensor c = pt::chi2(3.0, {10});            // == torch.distributions.Chi2(3.0).sample((10,))
//
// Parameters are Python floats: they become float32 tensors first, as torch.distributions does.
// Invalid parameters (df <= 0 or NaN; a negative or NaN gamma concentration) throw ValueError.
#pragma once
#include "core/generator.h"

namespace pt {

// torch._standard_gamma(concentration): one Gamma(alpha, 1) draw per element of a float32 tensor,
// in element order, clamped below at FLT_MIN (alpha == 0 gives FLT_MIN).
Tensor standard_gamma(const Tensor& concentration, Generator& gen = default_generator());

// torch.distributions.Chi2(df).sample(shape) = Gamma(df/2, rate 1/2).
Tensor chi2(double df, const Shape& shape, Generator& gen = default_generator());

// torch.distributions.StudentT(df).sample(shape): X ~ normal_ (float32 tensor), then Z ~ Chi2(df),
// Y = X * rsqrt(Z / df).
Tensor student_t(double df, const Shape& shape, Generator& gen = default_generator());

}  // namespace pt
