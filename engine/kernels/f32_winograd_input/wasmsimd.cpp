// f32_winograd_input/wasmsimd.cpp — f32_winograd_input (kernels.h) four tiles of a tile row a step, one tile to a
// lane: a tile row's columns a = 0 … 3 of tiles tx … tx + 3 come out of three loads (columns 2tx … 2tx + 11) by
// shuffles (the even and the odd columns, then each moved on by one), so Bᵀ's rows and columns are adds and
// subtracts of whole vectors, in the reference's order. The last tw % 4 tiles of a row go two at a time in the low
// lanes (columns 2tx … 2tx + 5 from two loads), an odd last one by itself.
#include "kernels/f32_winograd_input/tile.h"
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

// Bᵀ d B of the tiles in d's lanes, d[r][a] holding column a of their row r, stored by store(address, vector).
template <class Store>
[[gnu::always_inline]] inline void transform(const v128_t (&d)[4][4], float* o, size_t xs, Store store) {
  v128_t h[4][4];  // row r of the tiles times B
  for (size_t r = 0; r < 4; ++r) {
    h[r][0] = wasm_f32x4_sub(d[r][0], d[r][2]);
    h[r][1] = wasm_f32x4_add(d[r][1], d[r][2]);
    h[r][2] = wasm_f32x4_sub(d[r][2], d[r][1]);
    h[r][3] = wasm_f32x4_sub(d[r][1], d[r][3]);
  }
  for (size_t v = 0; v < 4; ++v) {
    store(o + v * xs, wasm_f32x4_sub(h[0][v], h[2][v]));
    store(o + (4 + v) * xs, wasm_f32x4_add(h[1][v], h[2][v]));
    store(o + (8 + v) * xs, wasm_f32x4_sub(h[2][v], h[1][v]));
    store(o + (12 + v) * xs, wasm_f32x4_sub(h[1][v], h[3][v]));
  }
}

}  // namespace

void f32_winograd_input__wasmsimd(const F32WinogradInput& args) noexcept {
  const F32WinogradInput w = args;  // a local copy: the stores below could alias the struct as far as the compiler knows
  const size_t rs = w.row_stride, xs = w.xi_stride;
  for (size_t p = 0; p < w.planes; ++p)
    for (size_t ty = 0; ty < w.th; ++ty) {
      const float* row0 = w.in + p * w.plane_stride + 2 * ty * rs;
      float* out = w.out + p * w.out_plane + ty * w.tw;
      size_t tx = 0;
      for (; tx + 4 <= w.tw; tx += 4) {  // four tiles: columns 2tx … 2tx + 11 from three loads
        v128_t d[4][4];
        for (size_t r = 0; r < 4; ++r) {
          const float* x = row0 + r * rs + 2 * tx;
          const v128_t x0 = wasm_v128_load(x), x1 = wasm_v128_load(x + 4), x2 = wasm_v128_load(x + 8);
          d[r][0] = wasm_i32x4_shuffle(x0, x1, 0, 2, 4, 6), d[r][1] = wasm_i32x4_shuffle(x0, x1, 1, 3, 5, 7);
          d[r][2] = wasm_i32x4_shuffle(d[r][0], x2, 1, 2, 3, 4), d[r][3] = wasm_i32x4_shuffle(d[r][1], x2, 1, 2, 3, 5);
        }
        transform(d, out + tx, xs, [](float* o, v128_t v) { wasm_v128_store(o, v); });
      }
      for (; tx + 2 <= w.tw; tx += 2) {  // two tiles in the low lanes: columns 2tx … 2tx + 5 from two loads
        v128_t d[4][4];
        for (size_t r = 0; r < 4; ++r) {
          const float* x = row0 + r * rs + 2 * tx;
          const v128_t x0 = wasm_v128_load(x), x1 = wasm_v128_load(x + 2);
          d[r][0] = wasm_i32x4_shuffle(x0, x0, 0, 2, 0, 2), d[r][1] = wasm_i32x4_shuffle(x0, x0, 1, 3, 1, 3);
          d[r][2] = wasm_i32x4_shuffle(x1, x1, 0, 2, 0, 2), d[r][3] = wasm_i32x4_shuffle(x1, x1, 1, 3, 1, 3);
        }
        transform(d, out + tx, xs, [](float* o, v128_t v) { wasm_v128_store64_lane(o, v, 0); });
      }
      if (tx < w.tw) winograd::input_tile(row0 + 2 * tx, rs, out + tx, xs);
    }
}

}  // namespace pt::kernels
