// i16_gemm_offsets/wasmsimd.cpp — i16_gemm_offsets (kernels.h) in i16_gemm's tiles of 4 rows × 8 columns: per
// pair of k, the two vectors at the pair's offset in the panel (unaligned loads) times each row's pair splatted
// through i32x4.dot_i16x8_s, into 8 i32x4 accumulators; the last m % 4 rows one at a time. Panels are the outer
// loop, so the input a panel reads stays in L1 while every row passes over it.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

template <size_t R> void rows_times_panel(const I16GemmOffsets& g, size_t i0, const int16_t* panel, size_t p) {
  const int16_t* a[R];
  v128_t acc[R][2];
  for (size_t r = 0; r < R; ++r) {
    a[r] = g.a + (i0 + r) * g.a_stride;
    acc[r][0] = acc[r][1] = wasm_i32x4_splat(0);
  }
  for (size_t kk = 0; kk < g.k_pairs; ++kk) {
    const int16_t* b = panel + g.pair_offsets[kk];
    const v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 8);
    for (size_t r = 0; r < R; ++r) {
      const v128_t pair = wasm_v128_load32_splat(a[r] + 2 * kk);
      acc[r][0] = wasm_i32x4_add(acc[r][0], wasm_i32x4_dot_i16x8(pair, b0));
      acc[r][1] = wasm_i32x4_add(acc[r][1], wasm_i32x4_dot_i16x8(pair, b1));
    }
  }
  for (size_t r = 0; r < R; ++r) {
    int32_t* c = g.c + (i0 + r) * g.c_stride + 8 * p;
    wasm_v128_store(c, acc[r][0]);
    wasm_v128_store(c + 4, acc[r][1]);
  }
}

}  // namespace

void i16_gemm_offsets__wasmsimd(const I16GemmOffsets& g) noexcept {
  for (size_t p = 0; p < g.panels; ++p) {
    const int16_t* panel = g.b + g.panel_offsets[p];
    size_t i = 0;
    for (; i + 4 <= g.m; i += 4) rows_times_panel<4>(g, i, panel, p);
    for (; i < g.m; ++i) rows_times_panel<1>(g, i, panel, p);
  }
}

}  // namespace pt::kernels
