// f32_winograd_output/tile.h — one tile's Y = Aᵀ m A (kernels.h), the reference's steps; the SIMD variant's
// tiles that do not fill its lanes go through it too.
#pragma once
#include "kernels/kernels.h"

namespace pt::kernels::winograd {

// The tile whose m[ξ] is at m[ξ·xi_stride] to y (rows `y_row` apart), its first `rows` rows and `cols` columns (1 or 2).
inline void output_tile(const float* m, size_t xi_stride, float* y, size_t y_row, size_t rows, size_t cols) {
  float s[2][4];
  for (size_t v = 0; v < 4; ++v) {
    const float m0 = m[v * xi_stride], m1 = m[(4 + v) * xi_stride], m2 = m[(8 + v) * xi_stride], m3 = m[(12 + v) * xi_stride];
    s[0][v] = (m0 + m1) + m2;
    s[1][v] = (m1 - m2) - m3;
  }
  for (size_t e = 0; e < rows; ++e) {
    y[e * y_row] = (s[e][0] + s[e][1]) + s[e][2];
    if (cols > 1) y[e * y_row + 1] = (s[e][1] - s[e][2]) - s[e][3];
  }
}

}  // namespace pt::kernels::winograd
