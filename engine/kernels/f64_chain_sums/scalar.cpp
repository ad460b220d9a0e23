// f64_chain_sums/scalar.cpp — the reference of f64_chain_sums (kernels.h): each channel's chain on its own, element
// by element in order.
#include "kernels/variants.h"

namespace pt::kernels {

void f64_chain_sums__scalar(const ChainSums& c) noexcept {
  for (size_t j = 0; j < c.m; ++j) {
    double a = c.acc[j];
    for (size_t i = 0; i < c.n; ++i) a += ChainSums::term(c.x[j * c.stride + i], c.mean, j);
    c.acc[j] = a;
  }
}

}  // namespace pt::kernels
