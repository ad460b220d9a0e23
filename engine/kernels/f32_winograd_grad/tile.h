// f32_winograd_grad/tile.h — one tile's A g Aᵀ for one plane (kernels.h), the reference's steps; the SIMD
// variant's tiles and planes that do not fill its lanes go through it too.
#pragma once
#include "kernels/kernels.h"

namespace pt::kernels::winograd {

// The 2×2 tile at g (rows `row_stride` apart) into out[ξ·xi_stride].
inline void grad_tile(const float* g, size_t row_stride, float* out, size_t xi_stride) {
  float r[2][4];
  for (size_t e = 0; e < 2; ++e) {
    const float a = g[e * row_stride], b = g[e * row_stride + 1];
    r[e][0] = a;
    r[e][1] = a + b;
    r[e][2] = a - b;
    r[e][3] = -b;
  }
  for (size_t v = 0; v < 4; ++v) {
    out[v * xi_stride] = r[0][v];
    out[(4 + v) * xi_stride] = r[0][v] + r[1][v];
    out[(8 + v) * xi_stride] = r[0][v] - r[1][v];
    out[(12 + v) * xi_stride] = -r[1][v];
  }
}

}  // namespace pt::kernels::winograd
