// q8_max/wasmsimd.cpp — q8_max (kernels.h) sixteen codes a step through i8x16.max_s or u8x16.max_u; the last
// n % 16 through the reference.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

void q8_max__wasmsimd(const uint8_t* a, const uint8_t* b, size_t n, bool is_signed, uint8_t* out) noexcept {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
    wasm_v128_store(out + i, is_signed ? wasm_i8x16_max(va, vb) : wasm_u8x16_max(va, vb));
  }
  q8_max__scalar(a + i, b + i, n - i, is_signed, out + i);
}

}  // namespace pt::kernels
