// loss.cpp — cross_entropy and mse_loss (see loss.h).
#include "train/loss.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace pt {

Reduction reduction_from_name(const std::string& name) {
  if (name == "none") return Reduction::none;
  if (name == "mean") return Reduction::mean;
  if (name == "sum") return Reduction::sum;
  throw ValueError(name + " is not a valid value for reduction");
}

namespace {

// A 0-dim total (mean: over `count`) or the per-sample values, as the reduction asks.
Tensor reduce(Reduction r, const Shape& none_shape, const std::vector<double>& each, double total, double count) {
  if (r == Reduction::sum) return Tensor::scalar(static_cast<float>(total));
  if (r == Reduction::mean) return Tensor::scalar(static_cast<float>(total / count));
  Tensor t = Tensor::uninitialized(none_shape);
  for (size_t i = 0; i < each.size(); ++i) t.data<float>()[i] = static_cast<float>(each[i]);
  return t;
}

}  // namespace

namespace {

// log_softmax of one row in double: the row's max, exp(x − max) per class (into e) and log Σ exp.
struct RowSoftmax {
  double mx = 0, sum = 0, log_sum = 0;
  RowSoftmax(const float* row, int64_t C, double* e) {
    mx = row[0];
    for (int64_t c = 1; c < C; ++c) mx = std::max(mx, static_cast<double>(row[c]));
    for (int64_t c = 0; c < C; ++c) sum += e[c] = std::exp(static_cast<double>(row[c]) - mx);
    log_sum = std::log(sum);
  }
  double lsm(const float* row, int64_t c) const { return static_cast<double>(row[c]) - mx - log_sum; }
};

// Soft targets (torch's cross_entropy_loss_prob_target): target [N, C] of class probabilities, smoothed to
// t·(1 − ε) + ε/C; loss_i = −Σ_c w[c]·t[i, c]·lsm[c]; the mean divides by N.
Loss probabilities(const Tensor& input, const Tensor& target, const CrossEntropyOptions& o, double eps) {
  if (target.dtype() != DType::Float32)
    throw RuntimeError(std::string("Expected floating point type for target with class probabilities, got ") +
                       dtype_name(target.dtype()));
  if (o.ignore_index >= 0) throw RuntimeError("ignore_index is not supported for floating point target");
  const int64_t N = input.size(0), C = input.size(1);
  if (N == 0) throw ValueError("cross_entropy: the batch is empty");
  const float* x = input.data<float>();
  const float* tp = target.data<float>();
  const float* wt = o.weight ? o.weight->data<float>() : nullptr;
  const auto w = [&](int64_t c) { return wt ? static_cast<double>(wt[c]) : 1.0; };
  const auto t = [&](int64_t i, int64_t c) {
    return eps > 0.0 ? static_cast<double>(tp[i * C + c]) * (1.0 - eps) + eps / static_cast<double>(C) : tp[i * C + c];
  };
  std::vector<double> each(static_cast<size_t>(N)), e(static_cast<size_t>(C));
  Tensor grad = Tensor::uninitialized(input.shape());
  float* g = grad.data<float>();
  const double per = o.reduction == Reduction::mean ? static_cast<double>(N) : 1.0;
  double total = 0;
  for (int64_t i = 0; i < N; ++i) {
    const float* row = x + i * C;
    const RowSoftmax sm(row, C, e.data());
    double loss = 0, wt_sum = 0;  // Σ_c w·t: the gradient's softmax factor
    for (int64_t c = 0; c < C; ++c) {
      loss -= w(c) * t(i, c) * sm.lsm(row, c);
      wt_sum += w(c) * t(i, c);
    }
    each[i] = loss;
    total += loss;
    for (int64_t c = 0; c < C; ++c) g[i * C + c] = static_cast<float>((e[c] / sm.sum * wt_sum - w(c) * t(i, c)) / per);
  }
  return {reduce(o.reduction, {N}, each, total, static_cast<double>(N)), grad};
}

}  // namespace

Loss CrossEntropy::operator()(const Tensor& input, const Tensor& target, const CrossEntropyOptions& o) const {
  if (input.dtype() != DType::Float32)
    throw TypeError(std::string("cross_entropy: expected a float32 input, got ") + dtype_name(input.dtype()));
  if (input.dim() != 2)
    throw ValueError("cross_entropy: expected input [N, C] (class scores), got " + shape_str(input.shape()));
  const int64_t N = input.size(0), C = input.size(1);
  // torch smooths only for ε > 0 (a negative or NaN ε is no smoothing) and refuses ε > 1.
  if (o.label_smoothing > 1.0)
    throw RuntimeError((std::ostringstream() << "label_smoothing must be between 0.0 and 1.0. Got: " << o.label_smoothing).str());
  const double eps = o.label_smoothing > 0.0 ? o.label_smoothing : 0.0;
  if (o.weight && (o.weight->dtype() != DType::Float32 || o.weight->dim() != 1 || o.weight->numel() != C))
    throw RuntimeError("weight tensor should be defined either for all " + std::to_string(C) +
                       " classes or no classes but got weight tensor of shape: " + shape_str(o.weight->shape()) +
                       (o.weight->dtype() != DType::Float32 ? std::string(" (") + dtype_name(o.weight->dtype()) + ", expected float32)" : ""));
  if (target.shape() == input.shape()) return probabilities(input, target, o, eps);  // torch: same shapes = soft targets
  if (target.dtype() != DType::Int32)
    throw RuntimeError(std::string("expected scalar type Int but found ") +
                       (target.dtype() == DType::Float32 ? "Float" : dtype_name(target.dtype())) +
                       " (cross_entropy: target must be int32 class indices, or class probabilities of the input's shape)");
  if (target.dim() != 1 || target.size(0) != N)
    throw ValueError("Expected input batch_size (" + std::to_string(N) + ") to match target batch_size (" +
                     std::to_string(target.dim() == 1 ? target.size(0) : target.numel()) + ").");
  const int32_t* t = target.data<int32_t>();
  for (int64_t i = 0; i < N; ++i)
    if (t[i] != o.ignore_index && (t[i] < 0 || t[i] >= C)) throw IndexError("Target " + std::to_string(t[i]) + " is out of bounds.");
  if (N == 0) throw ValueError("cross_entropy: the batch is empty");
  const float* x = input.data<float>();
  const float* wt = o.weight ? o.weight->data<float>() : nullptr;
  const auto w = [&](int64_t c) { return wt ? static_cast<double>(wt[c]) : 1.0; };
  const double keep = 1.0 - eps, spread = eps / static_cast<double>(C);
  double w_all = 0;  // Σ_c w[c]: the smoothing term's gradient
  for (int64_t c = 0; c < C; ++c) w_all += w(c);
  // The samples' losses and the mean's denominator first; the gradient then scales by it.
  std::vector<double> each(static_cast<size_t>(N), 0.0), e(static_cast<size_t>(N * C));
  std::vector<double> sums(static_cast<size_t>(N), 1.0);
  double total = 0, count = 0;
  for (int64_t i = 0; i < N; ++i) {
    if (t[i] == o.ignore_index) continue;
    const float* row = x + i * C;
    const RowSoftmax sm(row, C, e.data() + i * C);
    sums[i] = sm.sum;
    double loss = w(t[i]) * -sm.lsm(row, t[i]);  // −w[t] · log_softmax at t
    if (eps != 0.0) {
      double smooth = 0;
      for (int64_t c = 0; c < C; ++c) smooth -= w(c) * sm.lsm(row, c);
      loss = keep * loss + spread * smooth;
    }
    each[i] = loss;
    total += loss;
    count += w(t[i]);
  }
  Tensor grad = Tensor::zeros(input.shape());  // an ignored sample's row stays 0
  float* g = grad.data<float>();
  for (int64_t i = 0; i < N; ++i) {
    if (t[i] == o.ignore_index) continue;
    const double* ei = e.data() + i * C;
    for (int64_t c = 0; c < C; ++c) {
      const double p = ei[c] / sums[i];
      // d loss_i / d x[i, c]: w[t] (p − [c = t]) kept, and ε/C (p Σw − w[c]) from the smoothing
      double d = w(t[i]) * (p - (c == t[i] ? 1.0 : 0.0));
      if (eps != 0.0) d = keep * d + spread * (p * w_all - w(c));
      g[i * C + c] = static_cast<float>(o.reduction == Reduction::mean ? d / count : d);
    }
  }
  return {reduce(o.reduction, {N}, each, total, count), grad};
}

Loss MseLoss::operator()(const Tensor& input, const Tensor& target, Reduction reduction) const {
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
  const double n = static_cast<double>(input.numel()), dn = reduction == Reduction::mean ? n : 1.0;
  std::vector<double> each(reduction == Reduction::none ? static_cast<size_t>(input.numel()) : 0);
  double total = 0;
  for (int64_t i = 0; i < input.numel(); ++i) {
    const double d = static_cast<double>(x[i]) - y[i];
    total += d * d;
    if (!each.empty()) each[i] = d * d;
    g[i] = static_cast<float>(2.0 * d / dn);
  }
  return {reduce(reduction, input.shape(), each, total, n), grad};
}

}  // namespace pt
