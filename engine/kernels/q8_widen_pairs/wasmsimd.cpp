// q8_widen_pairs/wasmsimd.cpp — q8_widen_pairs (kernels.h) sixteen columns a step: each row's sixteen codes
// widened to two i16x8 (sign or zero extension), the zero point subtracted in i16 lanes (exact: |code − zp|
// < 2^15 for the zero points of the code's range, and wrapping as the reference's cast does otherwise), the two
// rows interleaved by i16x8 shuffles into four stores; the last n % 16 through the reference.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

void q8_widen_pairs__wasmsimd(const uint8_t* a, const uint8_t* b, size_t n, bool is_signed, int32_t zero_point,
                              int16_t* out) noexcept {
  const v128_t zp = wasm_i16x8_splat(static_cast<int16_t>(zero_point));
  const auto widen = [is_signed, zp](v128_t v, v128_t& lo, v128_t& hi) {
    lo = wasm_i16x8_sub(is_signed ? wasm_i16x8_extend_low_i8x16(v) : wasm_u16x8_extend_low_u8x16(v), zp);
    hi = wasm_i16x8_sub(is_signed ? wasm_i16x8_extend_high_i8x16(v) : wasm_u16x8_extend_high_u8x16(v), zp);
  };
  size_t t = 0;
  for (; t + 16 <= n; t += 16) {
    v128_t a_lo, a_hi, b_lo = wasm_i16x8_splat(0), b_hi = b_lo;
    widen(wasm_v128_load(a + t), a_lo, a_hi);
    if (b) widen(wasm_v128_load(b + t), b_lo, b_hi);
    int16_t* o = out + 2 * t;
    wasm_v128_store(o, wasm_i16x8_shuffle(a_lo, b_lo, 0, 8, 1, 9, 2, 10, 3, 11));
    wasm_v128_store(o + 8, wasm_i16x8_shuffle(a_lo, b_lo, 4, 12, 5, 13, 6, 14, 7, 15));
    wasm_v128_store(o + 16, wasm_i16x8_shuffle(a_hi, b_hi, 0, 8, 1, 9, 2, 10, 3, 11));
    wasm_v128_store(o + 24, wasm_i16x8_shuffle(a_hi, b_hi, 4, 12, 5, 13, 6, 14, 7, 15));
  }
  q8_widen_pairs__scalar(a + t, b ? b + t : nullptr, n - t, is_signed, zero_point, out + 2 * t);
}

}  // namespace pt::kernels
