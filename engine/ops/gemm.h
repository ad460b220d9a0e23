// gemm.h — the three reference matrix products the backward of conv2d and linear spend their time in
// (ops/backward.cpp): the seam where a faster GEMM kernel (engine/kernels/) plugs in.
//
// All matrices are row-major and dense; each function ADDS its product into the double accumulator C
// (M x N), so a caller sums over images or rows and rounds to float once:
//   gemm_nn: C += A · B     A: M x K, B: K x N     linear: grad · W
//   gemm_tn: C += Aᵀ · B    A: K x M, B: K x N     linear: gradᵀ · input;  conv2d: Wᵀ · grad (then col2im)
//   gemm_nt: C += A · Bᵀ    A: M x K, B: N x K     conv2d: grad · colsᵀ
// gemm_nt's B is im2col's double columns. Products of two floats are exact in double, so
// the order of the sum is the only rounding these reference loops add.
#pragma once
#include <cstdint>

namespace pt::ops {

void gemm_nn(int64_t M, int64_t N, int64_t K, const float* A, const float* B, double* C);
void gemm_tn(int64_t M, int64_t N, int64_t K, const float* A, const float* B, double* C);
void gemm_nt(int64_t M, int64_t N, int64_t K, const float* A, const double* B, double* C);

}  // namespace pt::ops
