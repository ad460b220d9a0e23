// i16_gemm/wasmsimd.h — the tile both int16 GEMMs run (i16_gemm, i16_gemm_offsets): 4 rows × 8 columns of C
// over one panel, per pair of k the panel's two vectors (at pair_at(kk)) times each row's pair splatted
// (v128.load32_splat) through i32x4.dot_i16x8_s, into 8 i32x4 accumulators. Include only from wasmsimd.cpp
// files (it needs SIMD128).
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/simd128.h"

namespace pt::kernels {

// Rows a[0 .. R) (a_stride apart) times the panel whose pair kk starts at pair_at(kk) (16 int16, unaligned
// loads) into c[0 .. R) (c_stride apart), eight int32 each.
template <size_t R, class PairAt>
void i16_rows_times_panel(const int16_t* a0, size_t a_stride, size_t k_pairs, PairAt pair_at, int32_t* c0, size_t c_stride) {
  const int16_t* a[R];
  v128_t acc[R][2];
  for (size_t r = 0; r < R; ++r) {
    a[r] = a0 + r * a_stride;
    acc[r][0] = acc[r][1] = wasm_i32x4_splat(0);
  }
  for (size_t kk = 0; kk < k_pairs; ++kk) {
    const int16_t* b = pair_at(kk);
    const v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 8);
    for (size_t r = 0; r < R; ++r) {
      const v128_t pair = wasm_v128_load32_splat(a[r] + 2 * kk);
      acc[r][0] = wasm_i32x4_add(acc[r][0], wasm_i32x4_dot_i16x8(pair, b0));
      acc[r][1] = wasm_i32x4_add(acc[r][1], wasm_i32x4_dot_i16x8(pair, b1));
    }
  }
  for (size_t r = 0; r < R; ++r) {
    int32_t* c = c0 + r * c_stride;
    wasm_v128_store(c, acc[r][0]);
    wasm_v128_store(c + 4, acc[r][1]);
  }
}

// Every row of C (m of them) over one panel: tiles of 4 rows, then the last m % 4 one at a time. c0 is the
// panel's first column of row 0.
template <class PairAt>
void i16_all_rows_times_panel(const int16_t* a, size_t a_stride, size_t m, size_t k_pairs, PairAt pair_at, int32_t* c0,
                              size_t c_stride) {
  size_t i = 0;
  for (; i + 4 <= m; i += 4) i16_rows_times_panel<4>(a + i * a_stride, a_stride, k_pairs, pair_at, c0 + i * c_stride, c_stride);
  for (; i < m; ++i) i16_rows_times_panel<1>(a + i * a_stride, a_stride, k_pairs, pair_at, c0 + i * c_stride, c_stride);
}

}  // namespace pt::kernels
