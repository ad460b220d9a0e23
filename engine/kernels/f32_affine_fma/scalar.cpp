// f32_affine_fma/scalar.cpp — the reference of f32_affine_fma (kernels.h): std::fma element by element.
#include "kernels/variants.h"

namespace pt::kernels {

void f32_affine_fma__scalar(const float* x, size_t n, float a, float c, float* y) noexcept {
  for (size_t i = 0; i < n; ++i) y[i] = std::fma(x[i], a, c);
}

}  // namespace pt::kernels
