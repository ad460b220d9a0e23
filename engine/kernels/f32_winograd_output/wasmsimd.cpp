// f32_winograd_output/wasmsimd.cpp — f32_winograd_output (kernels.h) four tiles of a tile row a step, one tile to
// a lane: Aᵀ's rows and columns as adds and subtracts of whole vectors in the reference's order, then each output
// row's two columns interleaved into eight floats; then two tiles at a time in the low lanes. A tile row that ends the
// plane with one row, and an odd last tile (or one reaching past W), go one by one.
#include <algorithm>

#include "kernels/f32_winograd_output/tile.h"
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

// Aᵀ m A of the tiles in the lanes of load(m + ξ·xs) (four tiles, or two in the low lanes): their output row e's
// two columns as y[e][0], y[e][1], one tile to a lane.
template <class Load>
[[gnu::always_inline]] inline void transform(const float* m, size_t xs, Load load, v128_t (&y)[2][2]) {
  v128_t s[2][4];
  for (size_t v = 0; v < 4; ++v) {
    const v128_t m0 = load(m + v * xs), m1 = load(m + (4 + v) * xs), m2 = load(m + (8 + v) * xs), m3 = load(m + (12 + v) * xs);
    s[0][v] = wasm_f32x4_add(wasm_f32x4_add(m0, m1), m2);
    s[1][v] = wasm_f32x4_sub(wasm_f32x4_sub(m1, m2), m3);
  }
  for (size_t e = 0; e < 2; ++e) {
    y[e][0] = wasm_f32x4_add(wasm_f32x4_add(s[e][0], s[e][1]), s[e][2]);
    y[e][1] = wasm_f32x4_sub(wasm_f32x4_sub(s[e][1], s[e][2]), s[e][3]);
  }
}

}  // namespace

void f32_winograd_output__wasmsimd(const F32WinogradOutput& args) noexcept {
  const F32WinogradOutput w = args;  // a local copy: the stores below could alias the struct as far as the compiler knows
  const size_t xs = w.xi_stride, W = w.W;
  const size_t half = std::min(w.tw, W / 2), full = half / 4 * 4;  // tiles a row whose two columns are inside the plane
  for (size_t p = 0; p < w.planes; ++p)
    for (size_t ty = 0; ty < w.th; ++ty) {
      const float* m = w.m + p * w.m_plane + ty * w.tw;
      float* y = w.y + p * w.y_plane + 2 * ty * W;
      const size_t rows = std::min<size_t>(2, w.H - 2 * ty);
      size_t tx = 0;
      if (rows == 2) {
        for (; tx < full; tx += 4) {  // four tiles: eight columns of each row
          v128_t o[2][2];
          transform(m + tx, xs, [](const float* a) { return wasm_v128_load(a); }, o);
          for (size_t e = 0; e < 2; ++e) {
            wasm_v128_store(y + e * W + 2 * tx, wasm_i32x4_shuffle(o[e][0], o[e][1], 0, 4, 1, 5));
            wasm_v128_store(y + e * W + 2 * tx + 4, wasm_i32x4_shuffle(o[e][0], o[e][1], 2, 6, 3, 7));
          }
        }
        for (; tx + 2 <= half; tx += 2) {  // two tiles in the low lanes: four columns of each row
          v128_t o[2][2];
          transform(m + tx, xs, [](const float* a) { return wasm_v128_load64_zero(a); }, o);
          for (size_t e = 0; e < 2; ++e) wasm_v128_store(y + e * W + 2 * tx, wasm_i32x4_shuffle(o[e][0], o[e][1], 0, 4, 1, 5));
        }
      }
      for (; tx < w.tw; ++tx)
        winograd::output_tile(m + tx, xs, y + 2 * tx, W, rows, std::min<size_t>(2, W - 2 * tx));
    }
}

}  // namespace pt::kernels
