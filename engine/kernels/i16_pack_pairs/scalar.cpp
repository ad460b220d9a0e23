// i16_pack_pairs/scalar.cpp — the reference of i16_pack_pairs (kernels.h): one column at a time.
#include "kernels/variants.h"

namespace pt::kernels {

void i16_pack_pairs__scalar(const int16_t* row0, const int16_t* row1, size_t n, size_t p0, int16_t* out, size_t panel_stride) noexcept {
  for (size_t t = 0; t < n; ++t) {
    const size_t p = p0 + t;
    int16_t* slot = out + (p / 8) * panel_stride + (p % 8) * 2;
    slot[0] = row0[t];
    slot[1] = row1[t];
  }
}

}  // namespace pt::kernels
