// f32_affine_fma/wasmsimd.cpp — f32_affine_fma (kernels.h) four elements a step in two f64x2 halves:
// r = f64(x) · a + c (the product exact, one rounding), then r rounded to float: core/fma.h's rule in vectors.
// A step whose four r hold one that fma_f32_needs_exact would send to the exact path (low 29 bits 0x10000000:
// halfway between two floats; |r| < 2^-126 or not finite: outside float's normal range) goes through the
// reference, as does the last n % 4. The test is integer compares on the doubles' halves, four lanes at once, so the
// common step has no branch per element and no call (a plain loop with the same test per element is if-converted by
// the vectoriser, which then runs the exact path for every element).
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

// The lanes of four results r (lo: elements 0, 1; hi: 2, 3) that must take the exact path: nonzero where
// fma_f32_needs_exact(r), told from the doubles' 32-bit halves, four lanes at once. Halfway: the low 29 mantissa bits,
// all in the low half. Outside float's normal range: |r| < 2^-126 or r not finite, from the high half (sign, exponent
// and the top 20 mantissa bits) with the sign cleared: below 0x38100000 (2^-126 has no mantissa bits) or from
// 0x7ff00000 (exponent all ones) on.
inline v128_t needs_exact(v128_t lo, v128_t hi) {
  const v128_t low = wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6);
  const v128_t high = wasm_v128_and(wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7), wasm_i32x4_splat(0x7fffffff));
  const v128_t halfway = wasm_i32x4_eq(wasm_v128_and(low, wasm_i32x4_splat(0x1fffffff)), wasm_i32x4_splat(0x10000000));
  const v128_t outside = wasm_v128_or(wasm_i32x4_lt(high, wasm_i32x4_splat(0x38100000)), wasm_i32x4_ge(high, wasm_i32x4_splat(0x7ff00000)));
  return wasm_v128_or(halfway, outside);
}

}  // namespace

void f32_affine_fma__wasmsimd(const float* x, size_t n, float a, float c, float* y) noexcept {
  const v128_t va = wasm_f64x2_splat(a), vc = wasm_f64x2_splat(c);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t v = wasm_v128_load(x + i);
    const v128_t lo = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(v), va), vc);
    const v128_t hi =
        wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 2, 3, 2, 3)), va), vc);
    if (wasm_v128_any_true(needs_exact(lo, hi))) [[unlikely]] {
      f32_affine_fma__scalar(x + i, 4, a, c, y + i);
      continue;
    }
    const v128_t flo = wasm_f32x4_demote_f64x2_zero(lo), fhi = wasm_f32x4_demote_f64x2_zero(hi);
    wasm_v128_store(y + i, wasm_i32x4_shuffle(flo, fhi, 0, 1, 4, 5));
  }
  f32_affine_fma__scalar(x + i, n - i, a, c, y + i);
}

}  // namespace pt::kernels
