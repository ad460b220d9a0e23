// i16_gemm/wasmsimd.cpp — i16_gemm (kernels.h) in tiles of 4 rows × 8 columns (i16_gemm/wasmsimd.h), pair kk
// of panel p at b + (p·k_pairs + kk)·16. Panels are the outer loop, so a panel stays in L1 while every row
// passes over it.
#include "kernels/i16_gemm/wasmsimd.h"
#include "kernels/variants.h"

namespace pt::kernels {

void i16_gemm__wasmsimd(const I16Gemm& g) noexcept {
  if (g.m == 0) return;  // no rows: nothing to write (C may be null)
  for (size_t p = 0; p < g.panels; ++p) {
    const int16_t* panel = g.b + p * g.k_pairs * 16;
    i16_all_rows_times_panel(g.a, g.a_stride, g.m, g.k_pairs, [panel](size_t kk) { return panel + 16 * kk; }, g.c + 8 * p,
                             g.c_stride);
  }
}

}  // namespace pt::kernels
