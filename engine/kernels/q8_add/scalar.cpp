// q8_add/scalar.cpp — the reference of q8_add (kernels.h): AddParams::apply on every pair.
#include "kernels/variants.h"

namespace pt::kernels {

void q8_add__scalar(const uint8_t* a, const uint8_t* b, size_t n, const AddParams& p, uint8_t* out) noexcept {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(p.apply(p.load(a[i]), p.load(b[i])));
}

}  // namespace pt::kernels
