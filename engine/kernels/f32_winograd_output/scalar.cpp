// f32_winograd_output/scalar.cpp — the reference of f32_winograd_output (kernels.h): tile by tile.
#include <algorithm>

#include "kernels/f32_winograd_output/tile.h"
#include "kernels/variants.h"

namespace pt::kernels {

void f32_winograd_output__scalar(const F32WinogradOutput& w) noexcept {
  for (size_t p = 0; p < w.planes; ++p)
    for (size_t ty = 0; ty < w.th; ++ty)
      for (size_t tx = 0; tx < w.tw; ++tx)
        winograd::output_tile(w.m + p * w.m_plane + ty * w.tw + tx, w.xi_stride, w.y + p * w.y_plane + 2 * ty * w.W + 2 * tx,
                              w.W, std::min<size_t>(2, w.H - 2 * ty), std::min<size_t>(2, w.W - 2 * tx));
}

}  // namespace pt::kernels
