// q8_max/scalar.cpp — the reference of q8_max (kernels.h): the larger code of each pair, read as int8 or uint8.
#include "kernels/variants.h"

namespace pt::kernels {

void q8_max__scalar(const uint8_t* a, const uint8_t* b, size_t n, bool is_signed, uint8_t* out) noexcept {
  for (size_t i = 0; i < n; ++i) {
    const bool a_wins = is_signed ? static_cast<int8_t>(a[i]) >= static_cast<int8_t>(b[i]) : a[i] >= b[i];
    out[i] = a_wins ? a[i] : b[i];
  }
}

}  // namespace pt::kernels
