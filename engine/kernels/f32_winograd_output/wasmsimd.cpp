// f32_winograd_output/wasmsimd.cpp — f32_winograd_output (kernels.h) four tiles of a tile row a step, one tile to
// a lane: Aᵀ's rows and columns as adds and subtracts of whole vectors in the reference's order, then each output
// row's two columns interleaved into eight floats; then two tiles at a time in the low lanes. A tile row that ends the
// plane with one row, and an odd last tile (or one reaching past W), go one by one.
#include <algorithm>

#include "kernels/f32_winograd_output/tile.h"
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

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
      if (rows == 2)
        for (; tx < full; tx += 4) {
          v128_t s[2][4];
          for (size_t v = 0; v < 4; ++v) {
            const float* mv = m + tx + v * xs;
            const v128_t m0 = wasm_v128_load(mv), m1 = wasm_v128_load(mv + 4 * xs), m2 = wasm_v128_load(mv + 8 * xs),
                         m3 = wasm_v128_load(mv + 12 * xs);
            s[0][v] = wasm_f32x4_add(wasm_f32x4_add(m0, m1), m2);
            s[1][v] = wasm_f32x4_sub(wasm_f32x4_sub(m1, m2), m3);
          }
          for (size_t e = 0; e < 2; ++e) {
            const v128_t y0 = wasm_f32x4_add(wasm_f32x4_add(s[e][0], s[e][1]), s[e][2]);
            const v128_t y1 = wasm_f32x4_sub(wasm_f32x4_sub(s[e][1], s[e][2]), s[e][3]);
            float* ye = y + e * W + 2 * tx;
            wasm_v128_store(ye, wasm_i32x4_shuffle(y0, y1, 0, 4, 1, 5));
            wasm_v128_store(ye + 4, wasm_i32x4_shuffle(y0, y1, 2, 6, 3, 7));
          }
        }
      if (rows == 2)
        for (; tx + 2 <= half; tx += 2) {  // two tiles in the low lanes: four columns of each row
          v128_t s[2][4];
          for (size_t v = 0; v < 4; ++v) {
            const float* mv = m + tx + v * xs;
            const v128_t m0 = wasm_v128_load64_zero(mv), m1 = wasm_v128_load64_zero(mv + 4 * xs),
                         m2 = wasm_v128_load64_zero(mv + 8 * xs), m3 = wasm_v128_load64_zero(mv + 12 * xs);
            s[0][v] = wasm_f32x4_add(wasm_f32x4_add(m0, m1), m2);
            s[1][v] = wasm_f32x4_sub(wasm_f32x4_sub(m1, m2), m3);
          }
          for (size_t e = 0; e < 2; ++e) {
            const v128_t y0 = wasm_f32x4_add(wasm_f32x4_add(s[e][0], s[e][1]), s[e][2]);
            const v128_t y1 = wasm_f32x4_sub(wasm_f32x4_sub(s[e][1], s[e][2]), s[e][3]);
            wasm_v128_store(y + e * W + 2 * tx, wasm_i32x4_shuffle(y0, y1, 0, 4, 1, 5));
          }
        }
      for (; tx < w.tw; ++tx)
        winograd::output_tile(m + tx, xs, y + 2 * tx, W, rows, std::min<size_t>(2, W - 2 * tx));
    }
}

}  // namespace pt::kernels
