// i16_gemm_offsets/wasmsimd.cpp — i16_gemm_offsets (kernels.h) in i16_gemm's tiles of 4 rows × 8 columns
// (i16_gemm/wasmsimd.h), pair kk of panel p at b + panel_offsets[p] + pair_offsets[kk] (unaligned loads).
// The rows of A go in blocks that fit a 32 KB stack buffer, each block's tiles interleaved there first (pair
// kk of the tile's row r at 8kk + 2r) and the pair offsets turned to bytes: the tile's step then reads its
// four pairs at one pointer's fixed offsets and one offset a step, so its scalar work (address adds, shifts,
// the loop's count) shrinks to a few instructions beside the 8 dots and 8 adds, which share ports with it
// (conv 3×3 32→32 at 32×32: 3 % faster than the rows read in place). Within a block, panels are the outer
// loop, so the input a panel reads stays in L1 while every row passes over it. The last m % 4 rows, and a
// depth too large for the buffers, run the rows in place (i16_all_rows_times_panel).
#include "kernels/i16_gemm/wasmsimd.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

constexpr size_t kTileRoom = 16384;  // int16 of interleaved tiles (32 KB)
constexpr size_t kMaxPairs = 1024;   // byte offsets

// Rows a[0 .. 4) (a_stride apart) interleaved: pair kk of row r to out[8kk + 2r]; 4 pairs a step transposed as
// 32-bit lanes.
void interleave_tile(const int16_t* a, size_t a_stride, size_t k_pairs, int16_t* out) {
  const int16_t *r0 = a, *r1 = a + a_stride, *r2 = r1 + a_stride, *r3 = r2 + a_stride;
  size_t kk = 0;
  for (; kk + 4 <= k_pairs; kk += 4) {
    const v128_t v0 = wasm_v128_load(r0 + 2 * kk), v1 = wasm_v128_load(r1 + 2 * kk);
    const v128_t v2 = wasm_v128_load(r2 + 2 * kk), v3 = wasm_v128_load(r3 + 2 * kk);
    const v128_t lo01 = wasm_i32x4_shuffle(v0, v1, 0, 4, 1, 5), lo23 = wasm_i32x4_shuffle(v2, v3, 0, 4, 1, 5);
    const v128_t hi01 = wasm_i32x4_shuffle(v0, v1, 2, 6, 3, 7), hi23 = wasm_i32x4_shuffle(v2, v3, 2, 6, 3, 7);
    int16_t* o = out + 8 * kk;
    wasm_v128_store(o, wasm_i64x2_shuffle(lo01, lo23, 0, 2));
    wasm_v128_store(o + 8, wasm_i64x2_shuffle(lo01, lo23, 1, 3));
    wasm_v128_store(o + 16, wasm_i64x2_shuffle(hi01, hi23, 0, 2));
    wasm_v128_store(o + 24, wasm_i64x2_shuffle(hi01, hi23, 1, 3));
  }
  for (; kk < k_pairs; ++kk)
    for (size_t r = 0; r < 4; ++r) {
      const int16_t* src = a + r * a_stride + 2 * kk;
      out[8 * kk + 2 * r] = src[0];
      out[8 * kk + 2 * r + 1] = src[1];
    }
}

// One interleaved tile (a4) times the panel at `panel` (bytes; pair kk at panel + byte_offsets[kk]) into c.
void interleaved_tile_times_panel(const int16_t* a4, const size_t* byte_offsets, size_t k_pairs, const char* panel,
                                  int32_t* c, size_t c_stride) {
  v128_t acc[4][2];
  for (auto& r : acc) r[0] = r[1] = wasm_i32x4_splat(0);
  for (const size_t *o = byte_offsets, *end = byte_offsets + k_pairs; o != end; ++o, a4 += 8) {
    const int16_t* b = reinterpret_cast<const int16_t*>(panel + *o);
    const v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 8);
    for (size_t r = 0; r < 4; ++r) {
      const v128_t pair = wasm_v128_load32_splat(a4 + 2 * r);
      acc[r][0] = wasm_i32x4_add(acc[r][0], wasm_i32x4_dot_i16x8(pair, b0));
      acc[r][1] = wasm_i32x4_add(acc[r][1], wasm_i32x4_dot_i16x8(pair, b1));
    }
  }
  for (size_t r = 0; r < 4; ++r) {
    wasm_v128_store(c + r * c_stride, acc[r][0]);
    wasm_v128_store(c + r * c_stride + 4, acc[r][1]);
  }
}

void rows_in_place(const I16GemmOffsets& g, size_t i0, size_t m) {
  for (size_t p = 0; p < g.panels; ++p) {
    const int16_t* panel = g.b + g.panel_offsets[p];
    const size_t* offsets = g.pair_offsets;
    i16_all_rows_times_panel(g.a + i0 * g.a_stride, g.a_stride, m, g.k_pairs,
                             [panel, offsets](size_t kk) { return panel + offsets[kk]; }, g.c + i0 * g.c_stride + 8 * p,
                             g.c_stride);
  }
}

}  // namespace

void i16_gemm_offsets__wasmsimd(const I16GemmOffsets& g) noexcept {
  if (g.m == 0) return;  // no rows: nothing to write (C may be null)
  const size_t tiles = g.m / 4;
  if (tiles == 0 || g.k_pairs == 0 || g.k_pairs > kMaxPairs) return rows_in_place(g, 0, g.m);
  alignas(16) int16_t a4[kTileRoom];
  size_t byte_offsets[kMaxPairs];
  for (size_t kk = 0; kk < g.k_pairs; ++kk) byte_offsets[kk] = 2 * g.pair_offsets[kk];
  const size_t tile_len = 8 * g.k_pairs, block = kTileRoom / tile_len;  // tiles a block (≥ 2)
  for (size_t t0 = 0; t0 < tiles; t0 += block) {
    const size_t t1 = t0 + block < tiles ? t0 + block : tiles;
    for (size_t t = t0; t < t1; ++t) interleave_tile(g.a + 4 * t * g.a_stride, g.a_stride, g.k_pairs, a4 + (t - t0) * tile_len);
    for (size_t p = 0; p < g.panels; ++p) {
      const char* panel = reinterpret_cast<const char*>(g.b + g.panel_offsets[p]);
      for (size_t t = t0; t < t1; ++t)
        interleaved_tile_times_panel(a4 + (t - t0) * tile_len, byte_offsets, g.k_pairs, panel,
                                     g.c + 4 * t * g.c_stride + 8 * p, g.c_stride);
    }
  }
  if (g.m % 4) rows_in_place(g, 4 * tiles, g.m % 4);
}

}  // namespace pt::kernels
