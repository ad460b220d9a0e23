// i16_winograd_input/wasmsimd.cpp — i16_winograd_input (kernels.h) four tiles a half panel: a pair of int16
// (channels 2q, 2q + 1 at one column) is one 32-bit lane, so a tile row's columns a = 0 … 3 of four tiles (2j + a)
// come out of three loads by i32x4 shuffles (the even and the odd columns, then each moved on by one); Bᵀ's rows
// and columns are then adds and subtracts of whole vectors in int16 lanes (wrapping as the reference's cast does).
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

void i16_winograd_input__wasmsimd(const WinogradInput& args) noexcept {
  const WinogradInput w = args;  // a local copy: the stores below could alias the struct as far as the compiler knows
  for (size_t p = 0; p < w.panels; ++p)
    for (size_t q = 0; q < w.pairs; ++q)
      for (size_t half = 0; half < 2; ++half) {
        const int16_t* base = w.in + q * w.plane_stride + w.panel_offsets[p] + 16 * half;
        v128_t h[4][4];  // row r of the tile times B: column transforms 0 … 3
        for (size_t r = 0; r < 4; ++r) {
          const int16_t* row = base + r * w.row_stride;
          const v128_t x0 = wasm_v128_load(row), x1 = wasm_v128_load(row + 8), x2 = wasm_v128_load(row + 16);
          const v128_t d0 = wasm_i32x4_shuffle(x0, x1, 0, 2, 4, 6), d1 = wasm_i32x4_shuffle(x0, x1, 1, 3, 5, 7);
          const v128_t d2 = wasm_i32x4_shuffle(d0, x2, 1, 2, 3, 4), d3 = wasm_i32x4_shuffle(d1, x2, 1, 2, 3, 5);
          h[r][0] = wasm_i16x8_sub(d0, d2);
          h[r][1] = wasm_i16x8_add(d1, d2);
          h[r][2] = wasm_i16x8_sub(d2, d1);
          h[r][3] = wasm_i16x8_sub(d1, d3);
        }
        int16_t* out = w.out + (p * w.pairs + q) * 16 + 8 * half;
        for (size_t v = 0; v < 4; ++v) {
          wasm_v128_store(out + v * w.xi_stride, wasm_i16x8_sub(h[0][v], h[2][v]));
          wasm_v128_store(out + (4 + v) * w.xi_stride, wasm_i16x8_add(h[1][v], h[2][v]));
          wasm_v128_store(out + (8 + v) * w.xi_stride, wasm_i16x8_sub(h[2][v], h[1][v]));
          wasm_v128_store(out + (12 + v) * w.xi_stride, wasm_i16x8_sub(h[1][v], h[3][v]));
        }
      }
}

}  // namespace pt::kernels
