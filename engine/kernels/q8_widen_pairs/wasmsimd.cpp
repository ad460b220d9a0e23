// q8_widen_pairs/wasmsimd.cpp — q8_widen_pairs (kernels.h) a row at a time, sixteen columns a step, then eight:
// signed codes turned unsigned (c ^ 0x80 = c + 128, the zero point raised by 128 to match: the same value
// modulo 2^16), the two rows' bytes interleaved by one i8x16 shuffle, zero-extended to i16 and the zero point
// subtracted in i16 lanes (wrapping as the reference's cast does); the last n % 8 columns one by one as the
// reference computes them. The borders' zero pairs: one 16-byte store at each end of the row, written before the
// values (which overwrite what falls inside), where a border is 1 to 4 pairs and the row at least 8 int16.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

void q8_widen_pairs__wasmsimd(const WidenPairs& w) noexcept {
  // The fields as locals: the int16 stores below could alias the struct as far as the compiler knows.
  const uint8_t *a_plane = w.a, *b_plane = w.b;
  const size_t rows = w.rows, n = w.n, in_stride = w.in_stride, pad = w.pad, out_stride = w.out_stride;
  const bool is_signed = w.is_signed;
  const int32_t zero_point = w.zero_point;
  int16_t* out = w.out;
  const auto zp16 = static_cast<int16_t>(static_cast<uint32_t>(zero_point) + (is_signed ? 128u : 0u));
  const v128_t flip = wasm_i8x16_splat(is_signed ? static_cast<int8_t>(-128) : int8_t{0}), zero = wasm_i16x8_splat(0);
  // A missing second row: its bytes 0 and nothing subtracted from its lanes.
  const v128_t zp = b_plane ? wasm_i16x8_splat(zp16) : wasm_i16x8_make(zp16, 0, zp16, 0, zp16, 0, zp16, 0);
  const auto value = [is_signed, zero_point](uint8_t v) {  // the reference's step
    const int32_t code = is_signed ? int32_t{static_cast<int8_t>(v)} : int32_t{v};
    return static_cast<uint16_t>(static_cast<uint32_t>(code) - static_cast<uint32_t>(zero_point));
  };
  const size_t row_len = 2 * (n + 2 * pad);
  const bool vector_borders = pad >= 1 && pad <= 4 && row_len >= 8;
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* a = a_plane + r * in_stride;
    const uint8_t* b = b_plane ? b_plane + r * in_stride : nullptr;
    int16_t* row = out + r * out_stride;
    if (vector_borders) {
      wasm_v128_store(row + row_len - 8, zero);
      wasm_v128_store(row, zero);
    } else {
      for (size_t u = 0; u < 2 * pad; ++u) row[u] = 0, row[row_len - 1 - u] = 0;
    }
    int16_t* o = row + 2 * pad;
    size_t t = 0;
    for (; t + 16 <= n; t += 16, o += 32) {
      const v128_t va = wasm_v128_xor(wasm_v128_load(a + t), flip);
      const v128_t vb = b ? wasm_v128_xor(wasm_v128_load(b + t), flip) : zero;
      const v128_t lo = wasm_i8x16_shuffle(va, vb, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      const v128_t hi = wasm_i8x16_shuffle(va, vb, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      wasm_v128_store(o, wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(lo), zp));
      wasm_v128_store(o + 8, wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(lo), zp));
      wasm_v128_store(o + 16, wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(hi), zp));
      wasm_v128_store(o + 24, wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(hi), zp));
    }
    if (t + 8 <= n) {
      const v128_t va = wasm_v128_xor(wasm_v128_load64_zero(a + t), flip);
      const v128_t vb = b ? wasm_v128_xor(wasm_v128_load64_zero(b + t), flip) : zero;
      const v128_t lo = wasm_i8x16_shuffle(va, vb, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      wasm_v128_store(o, wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(lo), zp));
      wasm_v128_store(o + 8, wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(lo), zp));
      t += 8, o += 16;
    }
    for (; t < n; ++t, o += 2) o[0] = static_cast<int16_t>(value(a[t])), o[1] = b ? static_cast<int16_t>(value(b[t])) : int16_t{0};
  }
}

}  // namespace pt::kernels
