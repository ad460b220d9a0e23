// f64_chain_sums/wasmsimd.cpp — f64_chain_sums (kernels.h) with two channels in the two lanes of an f64x2 sum: four
// elements of each channel of a pair are loaded, interleaved (a0 b0 a1 b1 | a2 b2 a3 b3), their terms taken in
// float lanes, and added to the pair's sum two lanes at a time, so every lane still adds its channel's terms one by
// one in order. Up to four pairs run side by side; an odd last channel and the last n % 4 elements go through the
// reference's loop, which continues each chain where the lanes left it.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

// The terms of v (four floats of a pair, interleaved) as float lanes: v itself, or (v − mean)².
inline v128_t terms(v128_t v, v128_t mean, bool deviations) {
  if (!deviations) return v;
  const v128_t d = wasm_f32x4_sub(v, mean);
  return wasm_f32x4_mul(d, d);
}

// Adds four interleaved elements (two of each channel) of each pair, lanes 0-1 then 2-3, onto its sum.
inline v128_t add_interleaved(v128_t acc, v128_t t) {
  acc = wasm_f64x2_add(acc, wasm_f64x2_promote_low_f32x4(t));
  return wasm_f64x2_add(acc, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(t, t, 2, 3, 2, 3)));
}

}  // namespace

void f64_chain_sums__wasmsimd(const ChainSums& c) noexcept {
  const size_t pairs = c.m / 2, n4 = c.n & ~size_t{3};
  const bool dev = c.mean != nullptr;
  v128_t acc[4], mean[4];
  for (size_t p = 0; p < pairs; ++p) {
    acc[p] = wasm_f64x2_make(c.acc[2 * p], c.acc[2 * p + 1]);
    mean[p] = dev ? wasm_f32x4_make(c.mean[2 * p], c.mean[2 * p + 1], c.mean[2 * p], c.mean[2 * p + 1]) : wasm_f32x4_splat(0.f);
  }
  for (size_t i = 0; i < n4; i += 4)
    for (size_t p = 0; p < pairs; ++p) {
      const float* a = c.x + 2 * p * c.stride + i;
      const v128_t va = wasm_v128_load(a), vb = wasm_v128_load(a + c.stride);
      acc[p] = add_interleaved(acc[p], terms(wasm_i32x4_shuffle(va, vb, 0, 4, 1, 5), mean[p], dev));
      acc[p] = add_interleaved(acc[p], terms(wasm_i32x4_shuffle(va, vb, 2, 6, 3, 7), mean[p], dev));
    }
  for (size_t p = 0; p < pairs; ++p) {
    c.acc[2 * p] = wasm_f64x2_extract_lane(acc[p], 0);
    c.acc[2 * p + 1] = wasm_f64x2_extract_lane(acc[p], 1);
  }
  // The rest of each chain: the last n % 4 elements of the pairs' channels, and an odd last channel whole.
  for (size_t j = 0; j < c.m; ++j) {
    double s = c.acc[j];
    for (size_t i = j < 2 * pairs ? n4 : 0; i < c.n; ++i) s += ChainSums::term(c.x[j * c.stride + i], c.mean, j);
    c.acc[j] = s;
  }
}

}  // namespace pt::kernels
