// f32_winograd_input/scalar.cpp — the reference of f32_winograd_input (kernels.h): tile by tile.
#include "kernels/f32_winograd_input/tile.h"
#include "kernels/variants.h"

namespace pt::kernels {

void f32_winograd_input__scalar(const F32WinogradInput& w) noexcept {
  for (size_t p = 0; p < w.planes; ++p)
    for (size_t ty = 0; ty < w.th; ++ty)
      for (size_t tx = 0; tx < w.tw; ++tx)
        winograd::input_tile(w.in + p * w.plane_stride + 2 * ty * w.row_stride + 2 * tx, w.row_stride,
                             w.out + p * w.out_plane + ty * w.tw + tx, w.xi_stride);
}

}  // namespace pt::kernels
