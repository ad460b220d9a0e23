// i16_gemm_offsets/wasmsimd.cpp — i16_gemm_offsets (kernels.h) in i16_gemm's tiles of 4 rows × 8 columns
// (i16_gemm/wasmsimd.h), pair kk of panel p at b + panel_offsets[p] + pair_offsets[kk] (unaligned loads).
// Panels are the outer loop, so the input a panel reads stays in L1 while every row passes over it.
#include "kernels/i16_gemm/wasmsimd.h"
#include "kernels/variants.h"

namespace pt::kernels {

void i16_gemm_offsets__wasmsimd(const I16GemmOffsets& g) noexcept {
  for (size_t p = 0; p < g.panels; ++p) {
    const int16_t* panel = g.b + g.panel_offsets[p];
    const size_t* offsets = g.pair_offsets;
    i16_all_rows_times_panel(g.a, g.a_stride, g.m, g.k_pairs, [panel, offsets](size_t kk) { return panel + offsets[kk]; },
                             g.c + 8 * p, g.c_stride);
  }
}

}  // namespace pt::kernels
