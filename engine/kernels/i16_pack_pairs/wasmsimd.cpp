// i16_pack_pairs/wasmsimd.cpp — i16_pack_pairs (kernels.h) eight columns a step once p reaches a panel
// boundary: the two rows' eight values interleaved by two i16x8 shuffles into the panel's two vectors;
// the columns before the boundary and after the last full panel one at a time, as the reference.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

void i16_pack_pairs__wasmsimd(const int16_t* row0, const int16_t* row1, size_t n, size_t p0, int16_t* out,
                              size_t panel_stride) noexcept {
  size_t t = 0;
  const auto one = [&](size_t t1) {
    const size_t p = p0 + t1;
    int16_t* slot = out + (p / 8) * panel_stride + (p % 8) * 2;
    slot[0] = row0[t1];
    slot[1] = row1[t1];
  };
  for (; t < n && (p0 + t) % 8 != 0; ++t) one(t);
  for (; t + 8 <= n; t += 8) {
    const v128_t a = wasm_v128_load(row0 + t), b = wasm_v128_load(row1 + t);
    int16_t* panel = out + ((p0 + t) / 8) * panel_stride;
    wasm_v128_store(panel, wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11));
    wasm_v128_store(panel + 8, wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15));
  }
  for (; t < n; ++t) one(t);
}

}  // namespace pt::kernels
