// i32_requantize/scalar.cpp — the reference of i32_requantize (kernels.h): Requantization::apply on
// every element.
#include <cstring>

#include "kernels/variants.h"

namespace pt::kernels {

void i32_requantize__scalar(const int32_t* acc, size_t n, int32_t bias, const Requantization& r, uint8_t* out,
                            size_t out_stride) noexcept {
  for (size_t i = 0; i < n; ++i) {
    const int32_t v = r.apply(static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + static_cast<uint32_t>(bias)));
    if (r.out_bytes == 4) {
      std::memcpy(out + 4 * i * out_stride, &v, 4);
    } else if (r.out_bytes == 2) {
      const int16_t code = static_cast<int16_t>(v);
      std::memcpy(out + 2 * i * out_stride, &code, 2);
    } else {
      out[i * out_stride] = static_cast<uint8_t>(v);
    }
  }
}

}  // namespace pt::kernels
