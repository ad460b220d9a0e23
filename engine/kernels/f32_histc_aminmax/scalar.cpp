// f32_histc_aminmax/scalar.cpp — the reference of f32_histc_aminmax (kernels.h): element by element,
// AMinMax::add and one count in copy i % 4 of bin HistcRange::bin; then positive_zeros().
#include "kernels/variants.h"

namespace pt::kernels {

AMinMax f32_histc_aminmax__scalar(const float* x, size_t n, HistcRange range, uint32_t* counts) noexcept {
  const size_t bins = static_cast<size_t>(range.bins);
  AMinMax s;
  for (size_t i = 0; i < n; ++i) {
    s.add(x[i]);
    ++counts[(i & 3) * bins + static_cast<size_t>(range.bin(x[i]))];
  }
  return s.positive_zeros();
}

}  // namespace pt::kernels
