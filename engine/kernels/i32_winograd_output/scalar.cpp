// i32_winograd_output/scalar.cpp — the reference of i32_winograd_output (kernels.h): each tile's Aᵀ M A as the
// matrix products written out, modulo 2^32, then shifted right by 2.
#include "kernels/variants.h"

namespace pt::kernels {

namespace {
constexpr int kAt[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
}  // namespace

void i32_winograd_output__scalar(const WinogradOutput& w) noexcept {
  for (size_t i = 0; i < w.rows; ++i)
    for (size_t t = 0; t < w.tiles; ++t)
      for (size_t e = 0; e < 2; ++e)
        for (size_t f = 0; f < 2; ++f) {
          uint32_t s = 0;
          for (size_t u = 0; u < 4; ++u)
            for (size_t v = 0; v < 4; ++v)
              s += static_cast<uint32_t>(kAt[e][u] * kAt[f][v]) * static_cast<uint32_t>(w.m[(4 * u + v) * w.xi_stride + i * w.m_stride + t]);
          w.y[i * w.y_stride + e * w.y_row + 2 * t + f] = static_cast<int32_t>(s) >> 2;
        }
}

}  // namespace pt::kernels
