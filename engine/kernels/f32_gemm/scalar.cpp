// f32_gemm/scalar.cpp — the reference of f32_gemm (kernels.h): one float32 chain per output, k in order.
#include "kernels/variants.h"

namespace pt::kernels {

void f32_gemm__scalar(const GemmArgs& g) noexcept {
  for (size_t m = 0; m < g.M; ++m)
    for (size_t n = 0; n < g.N; ++n) {
      float c = g.accumulate ? g.C[m * g.ldc + n] : 0.0f;
      for (size_t k = 0; k < g.K; ++k) c = c + g.A[m * g.a_row + k * g.a_col] * g.B[k * g.ldb + n];
      g.C[m * g.ldc + n] = c;
    }
}

}  // namespace pt::kernels
