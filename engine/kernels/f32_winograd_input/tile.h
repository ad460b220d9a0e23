// f32_winograd_input/tile.h — one tile's V = Bᵀ d B (kernels.h), the reference's steps; the SIMD variant's
// tiles that do not fill its lanes go through it too.
#pragma once
#include "kernels/kernels.h"

namespace pt::kernels::winograd {

// Tile at d (rows `row_stride` apart) into out[ξ·xi_stride].
inline void input_tile(const float* d, size_t row_stride, float* out, size_t xi_stride) {
  float h[4][4];
  for (size_t r = 0; r < 4; ++r) {
    const float* x = d + r * row_stride;
    h[r][0] = x[0] - x[2];
    h[r][1] = x[1] + x[2];
    h[r][2] = x[2] - x[1];
    h[r][3] = x[1] - x[3];
  }
  for (size_t v = 0; v < 4; ++v) {
    out[v * xi_stride] = h[0][v] - h[2][v];
    out[(4 + v) * xi_stride] = h[1][v] + h[2][v];
    out[(8 + v) * xi_stride] = h[2][v] - h[1][v];
    out[(12 + v) * xi_stride] = h[1][v] - h[3][v];
  }
}

}  // namespace pt::kernels::winograd
