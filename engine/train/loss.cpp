// loss.cpp — cross_entropy and mse_loss (see loss.h).
#include "train/loss.h"

#include <cmath>
#include <string>
#include <vector>

namespace pt {

Loss cross_entropy(const Tensor& input, const Tensor& target) {
  if (input.dtype() != DType::Float32)
    throw TypeError(std::string("cross_entropy: expected a float32 input, got ") + dtype_name(input.dtype()));
  if (input.dim() != 2)
    throw ValueError("cross_entropy: expected input [N, C] (class scores), got " + shape_str(input.shape()));
  if (target.dtype() != DType::Int32)
    throw RuntimeError(std::string("expected scalar type Int but found ") +
                       (target.dtype() == DType::Float32 ? "Float" : dtype_name(target.dtype())) +
                       " (cross_entropy: target must be int32 class indices)");
  const int64_t N = input.size(0), C = input.size(1);
  if (target.dim() != 1 || target.size(0) != N)
    throw ValueError("Expected input batch_size (" + std::to_string(N) + ") to match target batch_size (" +
                     std::to_string(target.dim() == 1 ? target.size(0) : target.numel()) + ").");
  const int32_t* t = target.data<int32_t>();
  for (int64_t i = 0; i < N; ++i)
    if (t[i] < 0 || t[i] >= C) throw IndexError("Target " + std::to_string(t[i]) + " is out of bounds.");
  if (N == 0) throw ValueError("cross_entropy: the batch is empty");
  const float* x = input.data<float>();
  Tensor grad = Tensor::empty(input.shape());
  float* g = grad.data<float>();
  double total = 0;
  std::vector<double> e(static_cast<size_t>(C));
  for (int64_t i = 0; i < N; ++i) {
    const float* row = x + i * C;
    double mx = row[0];
    for (int64_t c = 1; c < C; ++c) mx = std::max(mx, static_cast<double>(row[c]));
    double sum = 0;
    for (int64_t c = 0; c < C; ++c) sum += e[c] = std::exp(static_cast<double>(row[c]) - mx);
    const double log_sum = std::log(sum);
    total -= static_cast<double>(row[t[i]]) - mx - log_sum;  // -log_softmax at the target
    for (int64_t c = 0; c < C; ++c)
      g[i * C + c] = static_cast<float>((e[c] / sum - (c == t[i] ? 1.0 : 0.0)) / static_cast<double>(N));
  }
  return {Tensor::scalar(static_cast<float>(total / static_cast<double>(N))), grad};
}

Loss mse_loss(const Tensor& input, const Tensor& target) {
  if (input.dtype() != DType::Float32 || target.dtype() != DType::Float32)
    throw TypeError(std::string("mse_loss: expected float32 input and target, got ") + dtype_name(input.dtype()) +
                    " and " + dtype_name(target.dtype()));
  if (input.shape() != target.shape())
    throw ValueError("mse_loss: input " + shape_str(input.shape()) + " and target " + shape_str(target.shape()) +
                     " must have the same shape");
  if (input.numel() == 0) throw ValueError("mse_loss: the input is empty");
  const float* x = input.data<float>();
  const float* y = target.data<float>();
  Tensor grad = Tensor::empty(input.shape());
  float* g = grad.data<float>();
  const double n = static_cast<double>(input.numel());
  double total = 0;
  for (int64_t i = 0; i < input.numel(); ++i) {
    const double d = static_cast<double>(x[i]) - y[i];
    total += d * d;
    g[i] = static_cast<float>(2.0 * d / n);
  }
  return {Tensor::scalar(static_cast<float>(total / n)), grad};
}

}  // namespace pt
