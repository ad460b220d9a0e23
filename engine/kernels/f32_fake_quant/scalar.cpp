// f32_fake_quant/scalar.cpp — the reference of f32_fake_quant (kernels.h): FakeQuant::apply element by element.
#include "kernels/variants.h"

namespace pt::kernels {

void f32_fake_quant__scalar(const float* x, size_t n, const FakeQuant& p, float* out, uint8_t* mask) noexcept {
  for (size_t i = 0; i < n; ++i) p.apply(x[i], out[i], mask[i]);
}

}  // namespace pt::kernels
