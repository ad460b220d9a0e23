// f32_winograd_grad/scalar.cpp — the reference of f32_winograd_grad (kernels.h): tile by tile, plane by plane.
#include "kernels/f32_winograd_grad/tile.h"
#include "kernels/variants.h"

namespace pt::kernels {

void f32_winograd_grad__scalar(const F32WinogradGrad& w) noexcept {
  for (size_t p = 0; p < w.planes; ++p)
    for (size_t ty = 0; ty < w.th; ++ty)
      for (size_t tx = 0; tx < w.tw; ++tx)
        winograd::grad_tile(w.in + p * w.plane_stride + 2 * ty * w.row_stride + 2 * tx, w.row_stride,
                            w.out + (ty * w.tw + tx) * w.tile_stride + p, w.xi_stride);
}

}  // namespace pt::kernels
