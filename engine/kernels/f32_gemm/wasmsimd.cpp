// f32_gemm/wasmsimd.cpp — f32_gemm (kernels.h) in register tiles: MR rows × 4·NV columns of C held in
// MR·NV f32x4 accumulators while k runs, each step one splat of A per row and NV loads of B's row,
// then a multiply and an add per accumulator — lane j of an accumulator is output column n + j's chain,
// step for step the reference's. Columns go 8 at a time, then 4, then the last N % 4 one by one as the
// reference does; rows 4 at a time, then one by one. The tiles walk C column block by column block,
// so a block of B (K × 8) stays in the L1 cache while every row of A passes over it.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

template <size_t MR, size_t NV> void tile(const GemmArgs& g, size_t m, size_t n) {
  v128_t acc[MR][NV];
  for (size_t r = 0; r < MR; ++r)
    for (size_t v = 0; v < NV; ++v)
      acc[r][v] = g.accumulate ? wasm_v128_load(g.C + (m + r) * g.ldc + n + 4 * v) : wasm_f32x4_splat(0.0f);
  const float* a = g.A + m * g.a_row;
  const float* b = g.B + n;
  for (size_t k = 0; k < g.K; ++k, a += g.a_col, b += g.ldb) {
    v128_t bv[NV];
    for (size_t v = 0; v < NV; ++v) bv[v] = wasm_v128_load(b + 4 * v);
    for (size_t r = 0; r < MR; ++r) {
      const v128_t av = wasm_v128_load32_splat(a + r * g.a_row);
      for (size_t v = 0; v < NV; ++v) acc[r][v] = wasm_f32x4_add(acc[r][v], wasm_f32x4_mul(av, bv[v]));
    }
  }
  for (size_t r = 0; r < MR; ++r)
    for (size_t v = 0; v < NV; ++v) wasm_v128_store(g.C + (m + r) * g.ldc + n + 4 * v, acc[r][v]);
}

// Columns n .. n + 4·NV - 1 of every row.
template <size_t NV> void column_block(const GemmArgs& g, size_t n) {
  size_t m = 0;
  for (; m + 4 <= g.M; m += 4) tile<4, NV>(g, m, n);
  for (; m < g.M; ++m) tile<1, NV>(g, m, n);
}

}  // namespace

void f32_gemm__wasmsimd(const GemmArgs& g) noexcept {
  if (g.K == 0) {  // no products: C stays, or is zeroed (the tiles would offset B, which may then be null)
    if (!g.accumulate)
      for (size_t m = 0; m < g.M; ++m)
        for (size_t n = 0; n < g.N; ++n) g.C[m * g.ldc + n] = 0.0f;
    return;
  }
  size_t n = 0;
  for (; n + 8 <= g.N; n += 8) column_block<2>(g, n);
  for (; n + 4 <= g.N; n += 4) column_block<1>(g, n);
  for (; n < g.N; ++n)
    for (size_t m = 0; m < g.M; ++m) {
      float c = g.accumulate ? g.C[m * g.ldc + n] : 0.0f;
      for (size_t k = 0; k < g.K; ++k) c = c + g.A[m * g.a_row + k * g.a_col] * g.B[k * g.ldb + n];
      g.C[m * g.ldc + n] = c;
    }
}

}  // namespace pt::kernels
