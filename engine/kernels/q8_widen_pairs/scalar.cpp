// q8_widen_pairs/scalar.cpp — the reference of q8_widen_pairs (kernels.h): two code rows minus the zero point,
// interleaved as int16.
#include "kernels/variants.h"

namespace pt::kernels {

void q8_widen_pairs__scalar(const uint8_t* a, const uint8_t* b, size_t n, bool is_signed, int32_t zero_point,
                            int16_t* out) noexcept {
  // code − zero_point modulo 2^16 (unsigned: no overflow for any zero point)
  const auto value = [is_signed, zero_point](uint8_t v) {
    const int32_t code = is_signed ? int32_t{static_cast<int8_t>(v)} : int32_t{v};
    return static_cast<int16_t>(static_cast<uint32_t>(code) - static_cast<uint32_t>(zero_point));
  };
  for (size_t t = 0; t < n; ++t) {
    out[2 * t] = value(a[t]);
    out[2 * t + 1] = b ? value(b[t]) : int16_t{0};
  }
}

}  // namespace pt::kernels
