// f32_winograd_grad/wasmsimd.cpp — f32_winograd_grad (kernels.h) four planes and two tiles a step, one plane to a
// lane (the output keeps the planes side by side): each plane's four floats of a tile row pair (columns 2tx …
// 2tx + 3) are loaded and the four planes' loads transposed, so that a vector holds one g[e][f] of four planes; A's
// rows and columns are then adds, subtracts and negations of whole vectors in the reference's order. Planes past the
// last four and an odd last tile of a row go one by one.
#include "kernels/f32_winograd_grad/tile.h"
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

// Rows a, b, c, d of a 4×4 block to its columns.
[[gnu::always_inline]] inline void transpose(v128_t& a, v128_t& b, v128_t& c, v128_t& d) {
  const v128_t t0 = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
  a = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  b = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  c = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  d = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

}  // namespace

void f32_winograd_grad__wasmsimd(const F32WinogradGrad& args) noexcept {
  const F32WinogradGrad w = args;  // a local copy: the stores below could alias the struct as far as the compiler knows
  const size_t rs = w.row_stride, ps = w.plane_stride, xs = w.xi_stride, ts = w.tile_stride;
  size_t p = 0;
  for (; p + 4 <= w.planes; p += 4)
    for (size_t ty = 0; ty < w.th; ++ty) {
      const float* g = w.in + p * ps + 2 * ty * rs;
      size_t tx = 0;
      for (; tx + 2 <= w.tw; tx += 2) {
        v128_t x[2][4];  // x[e][k]: after the transpose, g[e][k % 2] of tile tx + k / 2, planes p … p + 3
        for (size_t e = 0; e < 2; ++e) {
          const float* ge = g + e * rs + 2 * tx;
          x[e][0] = wasm_v128_load(ge), x[e][1] = wasm_v128_load(ge + ps), x[e][2] = wasm_v128_load(ge + 2 * ps),
          x[e][3] = wasm_v128_load(ge + 3 * ps);
          transpose(x[e][0], x[e][1], x[e][2], x[e][3]);
        }
        for (size_t j = 0; j < 2; ++j) {
          v128_t r[2][4];
          for (size_t e = 0; e < 2; ++e) {
            const v128_t a = x[e][2 * j], b = x[e][2 * j + 1];
            r[e][0] = a;
            r[e][1] = wasm_f32x4_add(a, b);
            r[e][2] = wasm_f32x4_sub(a, b);
            r[e][3] = wasm_f32x4_neg(b);
          }
          float* o = w.out + (ty * w.tw + tx + j) * ts + p;
          for (size_t v = 0; v < 4; ++v) {
            wasm_v128_store(o + v * xs, r[0][v]);
            wasm_v128_store(o + (4 + v) * xs, wasm_f32x4_add(r[0][v], r[1][v]));
            wasm_v128_store(o + (8 + v) * xs, wasm_f32x4_sub(r[0][v], r[1][v]));
            wasm_v128_store(o + (12 + v) * xs, wasm_f32x4_neg(r[1][v]));
          }
        }
      }
      for (; tx < w.tw; ++tx)
        for (size_t q = p; q < p + 4; ++q)
          winograd::grad_tile(w.in + q * ps + 2 * ty * rs + 2 * tx, rs, w.out + (ty * w.tw + tx) * ts + q, xs);
    }
  for (; p < w.planes; ++p)
    for (size_t ty = 0; ty < w.th; ++ty)
      for (size_t tx = 0; tx < w.tw; ++tx)
        winograd::grad_tile(w.in + p * ps + 2 * ty * rs + 2 * tx, rs, w.out + (ty * w.tw + tx) * ts + p, xs);
}

}  // namespace pt::kernels
