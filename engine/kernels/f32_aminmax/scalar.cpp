// f32_aminmax/scalar.cpp — the reference of f32_aminmax (kernels.h): AMinMax::add on every element,
// then positive_zeros().
#include "kernels/variants.h"

namespace pt::kernels {

AMinMax f32_aminmax__scalar(const float* x, size_t n) noexcept {
  AMinMax s;
  for (size_t i = 0; i < n; ++i) s.add(x[i]);
  return s.positive_zeros();
}

}  // namespace pt::kernels
