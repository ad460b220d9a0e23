// q8_sum/wasmsimd.cpp — q8_sum (kernels.h) sixteen codes a step: pairs added into int16 lanes
// (i16x8.extadd_pairwise_i8x16, signed or unsigned), those pairs into int32 lanes (i32x4.extadd_pairwise_i16x8_s:
// a pair of codes fits int16 either way), four running int32 sums (wrapping, as the reference) added at the end;
// the last n % 16 through the reference.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

int32_t q8_sum__wasmsimd(const uint8_t* x, size_t n, bool is_signed) noexcept {
  v128_t acc = wasm_i32x4_splat(0);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t v = wasm_v128_load(x + i);
    const v128_t pairs = is_signed ? wasm_i16x8_extadd_pairwise_i8x16(v) : wasm_u16x8_extadd_pairwise_u8x16(v);
    acc = wasm_i32x4_add(acc, wasm_i32x4_extadd_pairwise_i16x8(pairs));
  }
  const uint32_t lanes = static_cast<uint32_t>(wasm_i32x4_extract_lane(acc, 0)) + static_cast<uint32_t>(wasm_i32x4_extract_lane(acc, 1)) +
                         static_cast<uint32_t>(wasm_i32x4_extract_lane(acc, 2)) + static_cast<uint32_t>(wasm_i32x4_extract_lane(acc, 3));
  return static_cast<int32_t>(lanes + static_cast<uint32_t>(q8_sum__scalar(x + i, n - i, is_signed)));
}

}  // namespace pt::kernels
