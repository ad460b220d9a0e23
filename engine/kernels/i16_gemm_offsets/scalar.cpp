// i16_gemm_offsets/scalar.cpp — the reference of i16_gemm_offsets (kernels.h): every C[i][j] as one sum over k,
// B read at its pair's and panel's offsets, in unsigned arithmetic (modulo 2^32).
#include "kernels/variants.h"

namespace pt::kernels {

void i16_gemm_offsets__scalar(const I16GemmOffsets& g) noexcept {
  for (size_t i = 0; i < g.m; ++i) {
    const int16_t* a = g.a + i * g.a_stride;
    int32_t* c = g.c + i * g.c_stride;
    for (size_t p = 0; p < g.panels; ++p)
      for (size_t j = 0; j < 8; ++j) {
        uint32_t s = 0;
        for (size_t kk = 0; kk < g.k_pairs; ++kk) {
          const int16_t* b = g.b + g.pair_offsets[kk] + g.panel_offsets[p] + 2 * j;
          s += static_cast<uint32_t>(int32_t{a[2 * kk]} * b[0]) + static_cast<uint32_t>(int32_t{a[2 * kk + 1]} * b[1]);
        }
        c[8 * p + j] = static_cast<int32_t>(s);
      }
  }
}

}  // namespace pt::kernels
