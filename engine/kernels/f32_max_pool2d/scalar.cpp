// f32_max_pool2d/scalar.cpp — the reference of f32_max_pool2d (kernels.h): every output through
// MaxPool2d::window, planes, rows and columns in order.
#include "kernels/variants.h"

namespace pt::kernels {

void f32_max_pool2d__scalar(const MaxPool2d& p) noexcept {
  for (size_t nc = 0; nc < p.planes; ++nc) {
    const float* xp = p.x + nc * static_cast<size_t>(p.H * p.W);
    const size_t out0 = nc * static_cast<size_t>(p.OH * p.OW);
    for (int64_t oh = 0; oh < p.OH; ++oh)
      for (int64_t ow = 0; ow < p.OW; ++ow) {
        const size_t o = out0 + static_cast<size_t>(oh * p.OW + ow);
        p.window(xp, oh, ow, p.y[o], p.indices[o]);
      }
  }
}

}  // namespace pt::kernels
