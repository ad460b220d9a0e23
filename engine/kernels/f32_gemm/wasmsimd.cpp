// f32_gemm/wasmsimd.cpp — f32_gemm (kernels.h) in register tiles: MR rows × 4·NV columns of C held in
// MR·NV f32x4 accumulators while k runs, each step one splat of A per row and NV loads of B's row,
// then a multiply and an add per accumulator — lane j of an accumulator is output column n + j's chain,
// step for step the reference's. Columns go 8 at a time, then 4, then the last N % 4 one by one as the
// reference does; rows 4 at a time, then one by one. The tiles walk C column block by column block.
//
// Packing: when several row tiles pass over one column block, its rows of B (up to KC of them at a
// time) are first copied into a contiguous panel on the stack. B's rows are often a power of two
// apart (conv2d's im2col columns: 1024 floats at 32×32), so the block's rows would share a handful of
// L1 sets and evict each other between row tiles; the panel keeps them in L1. A chain cut into KC-step
// pieces stays the same chain: the accumulators go to C (float32, exact) and come back for the next piece.
#include <algorithm>

#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

constexpr size_t KC = 256;        // rows of B per packed panel: 256 × 8 floats = 8 KiB on the stack
constexpr size_t PACK_LDB = 512;  // B's row stride (floats) from which a column block is packed

// C[m .. m+MR) × [n .. n + 4·NV) over k = k0 .. k0 + kc, B's row k0 at b, its rows b_step floats apart.
template <size_t MR, size_t NV>
void tile(const GemmArgs& g, size_t m, size_t n, size_t k0, size_t kc, const float* b, size_t b_step, bool accumulate) {
  v128_t acc[MR][NV];
  for (size_t r = 0; r < MR; ++r)
    for (size_t v = 0; v < NV; ++v)
      acc[r][v] = accumulate ? wasm_v128_load(g.C + (m + r) * g.ldc + n + 4 * v) : wasm_f32x4_splat(0.0f);
  const float* a = g.A + m * g.a_row + k0 * g.a_col;
  for (size_t k = 0; k < kc; ++k, a += g.a_col, b += b_step) {
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

// Every row of C over k = k0 .. k0 + kc, B's row k0 at b.
template <size_t NV>
void rows(const GemmArgs& g, size_t n, size_t k0, size_t kc, const float* b, size_t b_step, bool accumulate) {
  size_t m = 0;
  for (; m + 4 <= g.M; m += 4) tile<4, NV>(g, m, n, k0, kc, b, b_step, accumulate);
  for (; m < g.M; ++m) tile<1, NV>(g, m, n, k0, kc, b, b_step, accumulate);
}

// Columns n .. n + 4·NV - 1 of every row: through packed panels of KC rows when several row tiles read
// B's block and its rows lie PACK_LDB floats or more apart, else from B as it lies (packing costs a copy
// of the block, which only pays when the rows would evict each other: `tiny`'s GEMMs ran 5–8 % slower
// packed, a 32×32 conv's 17 % faster).
template <size_t NV> void column_block(const GemmArgs& g, size_t n) {
  const float* b = g.B + n;
  if (g.M <= 4 || g.ldb < PACK_LDB) return rows<NV>(g, n, 0, g.K, b, g.ldb, g.accumulate);
  alignas(16) float panel[KC * 4 * NV];
  for (size_t k0 = 0; k0 < g.K; k0 += KC) {
    const size_t kc = std::min(KC, g.K - k0);
    for (size_t k = 0; k < kc; ++k)
      for (size_t v = 0; v < NV; ++v)
        wasm_v128_store(panel + k * 4 * NV + 4 * v, wasm_v128_load(b + (k0 + k) * g.ldb + 4 * v));
    rows<NV>(g, n, k0, kc, panel, 4 * NV, g.accumulate || k0 > 0);
  }
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
