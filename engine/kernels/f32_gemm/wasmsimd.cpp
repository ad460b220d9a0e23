// f32_gemm/wasmsimd.cpp — f32_gemm (kernels.h) in register tiles: MR rows × 4·NV columns of C held in
// MR·NV f32x4 accumulators while k runs, each step one splat of A per row and NV loads of B's row,
// then a multiply and an add per accumulator — lane j of an accumulator is output column n + j's chain,
// step for step the reference's. Columns go 16 at a time in tiles of 2 rows, then 8 and 4 at a time in
// tiles of 4 rows, then the last N % 4 one by one as the reference does; a tile's row edge (M % MR) is
// a narrower tile (2 rows, then 1). The tiles walk C column block by column block.
//
// The shapes are V8's: it has 15 xmm registers for a tile and does not reorder wasm's loads, which
// come all at once before a step's arithmetic, so 8 accumulators + NV loads of B + MR splats + one
// product is the most that fits (5 × 8 and 6 × 8 tiles spilled: `tiny`'s GEMMs 7 % and 27 % slower).
// 2 × 16 and 4 × 8 load as much per step, but 2 rows need one address per step where 4 need three.
// The loops keep their operands in locals and stop at an end pointer: wasm's v128 stores may alias
// anything, so reading GemmArgs after the first store reloads it, and a k counter is one more register.
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

constexpr size_t KC = 256;        // rows of B per packed panel: 256 × 16 floats = 16 KiB on the stack
constexpr size_t PACK_LDB = 512;  // B's row stride (floats) from which a column block is packed

// Rows per tile of 4·NV columns: 2 × 16 and 4 × 8 hold 8 accumulators, 4 × 4 (the last 4 columns) 4.
template <size_t NV> constexpr size_t rows_per_tile = NV == 4 ? 2 : 4;

// One k-step: acc[r][v] += splat(A[r, k]) · B[k, 4v .. 4v + 3], A's value for row r from splat(r).
template <size_t MR, size_t NV, class Splat>
[[gnu::always_inline]] inline void step(v128_t (&acc)[MR][NV], const float* b, Splat splat) {
  v128_t bv[NV];
  for (size_t v = 0; v < NV; ++v) bv[v] = wasm_v128_load(b + 4 * v);
  for (size_t r = 0; r < MR; ++r) {
    const v128_t av = splat(r);
    for (size_t v = 0; v < NV; ++v) acc[r][v] = wasm_f32x4_add(acc[r][v], wasm_f32x4_mul(av, bv[v]));
  }
}

// C[0 .. MR) × [0 .. 4·NV) at c over kc steps: A's rows at a (a_row, a_col apart as in GemmArgs) and
// B's rows at b, b_step floats apart (never 0: the end pointer would be the start).
template <size_t MR, size_t NV>
[[gnu::always_inline]] inline void tile(const float* a, size_t a_row, size_t a_col, const float* b, size_t b_step, float* c,
                                        size_t ldc, size_t kc, bool accumulate) {
  v128_t acc[MR][NV];
  for (size_t r = 0; r < MR; ++r)
    for (size_t v = 0; v < NV; ++v) acc[r][v] = accumulate ? wasm_v128_load(c + r * ldc + 4 * v) : wasm_f32x4_splat(0.0f);
  const float* const b_end = b + kc * b_step;
  if (a_row == 1)  // A transposed: the tile's values of one k side by side, at constant offsets
    for (; b != b_end; a += a_col, b += b_step)
      step<MR, NV>(acc, b, [&](size_t r) { return wasm_v128_load32_splat(a + r); });
  else
    for (; b != b_end; a += a_col, b += b_step)
      step<MR, NV>(acc, b, [&](size_t r) { return wasm_v128_load32_splat(a + r * a_row); });
  for (size_t r = 0; r < MR; ++r)
    for (size_t v = 0; v < NV; ++v) wasm_v128_store(c + r * ldc + 4 * v, acc[r][v]);
}

// Every row of C at columns n .. n + 4·NV - 1 over k = k0 .. k0 + kc, B's row k0 at b.
template <size_t NV>
void rows(const GemmArgs& g, size_t n, size_t k0, size_t kc, const float* b, size_t b_step, bool accumulate) {
  constexpr size_t MR = rows_per_tile<NV>;
  const size_t M = g.M, a_row = g.a_row, a_col = g.a_col, ldc = g.ldc;
  const float* a = g.A + k0 * a_col;
  float* c = g.C + n;
  size_t m = 0;
  for (; m + MR <= M; m += MR, a += MR * a_row, c += MR * ldc) tile<MR, NV>(a, a_row, a_col, b, b_step, c, ldc, kc, accumulate);
  if constexpr (MR > 2)
    if (m + 2 <= M) {
      tile<2, NV>(a, a_row, a_col, b, b_step, c, ldc, kc, accumulate);
      m += 2, a += 2 * a_row, c += 2 * ldc;
    }
  if (m < M) tile<1, NV>(a, a_row, a_col, b, b_step, c, ldc, kc, accumulate);
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
  if (g.M == 0 || g.N == 0) return;  // no outputs (C may be null: the column blocks would offset it)
  if (g.K == 0) {  // no products: C stays, or is zeroed (the tiles would offset B, which may then be null)
    if (!g.accumulate)
      for (size_t m = 0; m < g.M; ++m)
        for (size_t n = 0; n < g.N; ++n) g.C[m * g.ldc + n] = 0.0f;
    return;
  }
  if (g.ldb == 0) return f32_gemm__scalar(g);  // one row of B for every k: the tiles' loops end on B's pointer
  size_t n = 0;
  for (; n + 16 <= g.N; n += 16) column_block<4>(g, n);
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
