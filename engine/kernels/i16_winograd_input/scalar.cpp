// i16_winograd_input/scalar.cpp — the reference of i16_winograd_input (kernels.h): each tile's V = Bᵀ d B as
// the matrix products written out, in int32, then cast to int16.
#include "kernels/variants.h"

namespace pt::kernels {

namespace {
constexpr int kBt[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
}  // namespace

void i16_winograd_input__scalar(const WinogradInput& w) noexcept {
  for (size_t p = 0; p < w.panels; ++p)
    for (size_t q = 0; q < w.pairs; ++q)
      for (size_t j = 0; j < 8; ++j)
        for (size_t h = 0; h < 2; ++h) {
          const int16_t* tile = w.in + q * w.plane_stride + w.panel_offsets[p] + 4 * j + h;
          for (size_t u = 0; u < 4; ++u)
            for (size_t v = 0; v < 4; ++v) {
              int32_t s = 0;
              for (size_t r = 0; r < 4; ++r)
                for (size_t a = 0; a < 4; ++a) s += kBt[u][r] * tile[r * w.row_stride + 2 * a] * kBt[v][a];
              w.out[(4 * u + v) * w.xi_stride + (p * w.pairs + q) * 16 + 2 * j + h] = static_cast<int16_t>(s);
            }
        }
}

}  // namespace pt::kernels
