// q8_add/wasmsimd.cpp — q8_add (kernels.h) sixteen pairs a step: bytes widened to i32x4 (sign- or
// zero-extended), the multiply-adds in i32x4 (wrapping, as the reference's unsigned arithmetic), the
// shift, zero point and clamp, the low bytes gathered back; the last n % 16 through the reference's step.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

void widen(v128_t bytes, bool is_signed, v128_t out[4]) {
  const v128_t lo = is_signed ? wasm_i16x8_extend_low_i8x16(bytes) : wasm_u16x8_extend_low_u8x16(bytes);
  const v128_t hi = is_signed ? wasm_i16x8_extend_high_i8x16(bytes) : wasm_u16x8_extend_high_u8x16(bytes);
  out[0] = wasm_i32x4_extend_low_i16x8(lo);  // values fit int16 either way: sign-extend
  out[1] = wasm_i32x4_extend_high_i16x8(lo);
  out[2] = wasm_i32x4_extend_low_i16x8(hi);
  out[3] = wasm_i32x4_extend_high_i16x8(hi);
}

}  // namespace

void q8_add__wasmsimd(const uint8_t* a, const uint8_t* b, size_t n, const AddParams& p, uint8_t* out) noexcept {
  const v128_t bias = wasm_i32x4_splat(p.bias), ma = wasm_i32x4_splat(p.a_multiplier),
               mb = wasm_i32x4_splat(p.b_multiplier), zp = wasm_i32x4_splat(p.zero_point),
               qmin = wasm_i32x4_splat(p.qmin), qmax = wasm_i32x4_splat(p.qmax);
  const uint32_t shift = static_cast<uint32_t>(p.shift);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    v128_t va[4], vb[4], v[4];
    widen(wasm_v128_load(a + i), p.is_signed, va);
    widen(wasm_v128_load(b + i), p.is_signed, vb);
    for (size_t q = 0; q < 4; ++q) {
      const v128_t acc = wasm_i32x4_add(bias, wasm_i32x4_add(wasm_i32x4_mul(va[q], ma), wasm_i32x4_mul(vb[q], mb)));
      v[q] = wasm_i32x4_min(wasm_i32x4_max(wasm_i32x4_add(wasm_i32x4_shr(acc, shift), zp), qmin), qmax);
    }
    const v128_t lo16 = wasm_i8x16_shuffle(v[0], v[1], 0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0);
    const v128_t hi16 = wasm_i8x16_shuffle(v[2], v[3], 0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0);
    wasm_v128_store(out + i, wasm_i64x2_shuffle(lo16, hi16, 0, 2));
  }
  for (; i < n; ++i) out[i] = static_cast<uint8_t>(p.apply(p.load(a[i]), p.load(b[i])));
}

}  // namespace pt::kernels
