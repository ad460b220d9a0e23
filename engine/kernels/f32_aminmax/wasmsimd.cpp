// f32_aminmax/wasmsimd.cpp — f32_aminmax (kernels.h) four elements per step; the last n % 4 take the
// reference's step.
#include "kernels/f32_aminmax/wasmsimd.h"
#include "kernels/variants.h"

namespace pt::kernels {

AMinMax f32_aminmax__wasmsimd(const float* x, size_t n) noexcept {
  AMinMax4 lanes;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) lanes.add(wasm_v128_load(x + i));
  AMinMax s = lanes.fold();
  for (; i < n; ++i) s.add(x[i]);
  return s.positive_zeros();
}

}  // namespace pt::kernels
