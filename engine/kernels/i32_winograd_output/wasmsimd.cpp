// i32_winograd_output/wasmsimd.cpp — i32_winograd_output (kernels.h) four tiles a step, one i32x4 per position
// ξ (Aᵀ's rows and columns as adds and subtracts of whole vectors, wrapping as the reference's unsigned sums do),
// the 2×2 outputs interleaved into each output row by shuffles; the last tiles % 4 one by one.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {
// One tile's outputs e, f from its 16 values (stride xi apart).
int32_t tile_output(const int32_t* m, size_t xi, size_t e, size_t f) {
  static constexpr int kAt[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
  uint32_t s = 0;
  for (size_t u = 0; u < 4; ++u)
    for (size_t v = 0; v < 4; ++v) s += static_cast<uint32_t>(kAt[e][u] * kAt[f][v]) * static_cast<uint32_t>(m[(4 * u + v) * xi]);
  return static_cast<int32_t>(s) >> 2;
}
}  // namespace

void i32_winograd_output__wasmsimd(const WinogradOutput& args) noexcept {
  const WinogradOutput w = args;  // a local copy: the stores below could alias the struct as far as the compiler knows
  const size_t xi = w.xi_stride;
  for (size_t i = 0; i < w.rows; ++i) {
    const int32_t* m = w.m + i * w.m_stride;
    int32_t* y0 = w.y + i * w.y_stride;
    int32_t* y1 = y0 + w.y_row;
    size_t t = 0;
    for (; t + 4 <= w.tiles; t += 4) {
      v128_t s0[4], s1[4];  // row u times A: columns 0 and 1
      for (size_t u = 0; u < 4; ++u) {
        const int32_t* mu = m + 4 * u * xi + t;
        const v128_t a = wasm_v128_load(mu), b = wasm_v128_load(mu + xi), c = wasm_v128_load(mu + 2 * xi),
                     d = wasm_v128_load(mu + 3 * xi);
        s0[u] = wasm_i32x4_add(wasm_i32x4_add(a, b), c);
        s1[u] = wasm_i32x4_sub(wasm_i32x4_sub(b, c), d);
      }
      const v128_t y00 = wasm_i32x4_shr(wasm_i32x4_add(wasm_i32x4_add(s0[0], s0[1]), s0[2]), 2);
      const v128_t y01 = wasm_i32x4_shr(wasm_i32x4_add(wasm_i32x4_add(s1[0], s1[1]), s1[2]), 2);
      const v128_t y10 = wasm_i32x4_shr(wasm_i32x4_sub(wasm_i32x4_sub(s0[1], s0[2]), s0[3]), 2);
      const v128_t y11 = wasm_i32x4_shr(wasm_i32x4_sub(wasm_i32x4_sub(s1[1], s1[2]), s1[3]), 2);
      wasm_v128_store(y0 + 2 * t, wasm_i32x4_shuffle(y00, y01, 0, 4, 1, 5));
      wasm_v128_store(y0 + 2 * t + 4, wasm_i32x4_shuffle(y00, y01, 2, 6, 3, 7));
      wasm_v128_store(y1 + 2 * t, wasm_i32x4_shuffle(y10, y11, 0, 4, 1, 5));
      wasm_v128_store(y1 + 2 * t + 4, wasm_i32x4_shuffle(y10, y11, 2, 6, 3, 7));
    }
    for (; t < w.tiles; ++t)
      for (size_t e = 0; e < 2; ++e)
        for (size_t f = 0; f < 2; ++f) (e ? y1 : y0)[2 * t + f] = tile_output(m + t, xi, e, f);
  }
}

}  // namespace pt::kernels
