// q8_sum/scalar.cpp — the reference of q8_sum (kernels.h): the codes added one by one, modulo 2^32.
#include "kernels/variants.h"

namespace pt::kernels {

int32_t q8_sum__scalar(const uint8_t* x, size_t n, bool is_signed) noexcept {
  uint32_t s = 0;
  for (size_t i = 0; i < n; ++i) s += is_signed ? static_cast<uint32_t>(static_cast<int8_t>(x[i])) : x[i];
  return static_cast<int32_t>(s);
}

}  // namespace pt::kernels
