// f32_affine_fma/scalar.cpp — the reference of f32_affine_fma (kernels.h): the fused multiply-add element by
// element (core/fma.h's fma_f32: correct in wasm too, where libc's fmaf rounds twice).
#include "core/fma.h"
#include "kernels/variants.h"

namespace pt::kernels {

void f32_affine_fma__scalar(const float* x, size_t n, float a, float c, float* y) noexcept {
  for (size_t i = 0; i < n; ++i) y[i] = fma_f32(x[i], a, c);
}

}  // namespace pt::kernels
