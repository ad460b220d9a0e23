// q8_widen_pairs/scalar.cpp — the reference of q8_widen_pairs (kernels.h): two code planes minus the zero point,
// interleaved as int16 rows between borders of zero pairs.
#include <algorithm>

#include "kernels/variants.h"

namespace pt::kernels {

void q8_widen_pairs__scalar(const WidenPairs& w) noexcept {
  // code − zero_point modulo 2^16 (unsigned: no overflow for any zero point)
  const auto value = [&w](uint8_t v) {
    const int32_t code = w.is_signed ? int32_t{static_cast<int8_t>(v)} : int32_t{v};
    return static_cast<int16_t>(static_cast<uint32_t>(code) - static_cast<uint32_t>(w.zero_point));
  };
  for (size_t r = 0; r < w.rows; ++r) {
    const uint8_t* a = w.a + r * w.in_stride;
    const uint8_t* b = w.b ? w.b + r * w.in_stride : nullptr;
    int16_t* out = w.out + r * w.out_stride;
    std::fill(out, out + 2 * w.pad, int16_t{0});
    for (size_t t = 0; t < w.n; ++t) {
      out[2 * (w.pad + t)] = value(a[t]);
      out[2 * (w.pad + t) + 1] = b ? value(b[t]) : int16_t{0};
    }
    std::fill(out + 2 * (w.pad + w.n), out + 2 * (2 * w.pad + w.n), int16_t{0});
  }
}

}  // namespace pt::kernels
