// nn_init.cpp — torch.nn's parameter initialisation (torch/nn/init.py, Conv2d/Linear reset_parameters).
//
// Bounds are computed in double exactly as the Python code does (math.sqrt, **, /), then uniform_
// rounds them to float32. Weight is drawn before bias, as reset_parameters does.
#include "core/nn_init.h"

#include <cmath>
#include <string>

namespace pt::nn_init {

int64_t fan_in(const Tensor& weight) {
  if (weight.dim() < 2)
    throw ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  int64_t receptive_field = 1;
  for (int64_t d = 2; d < weight.dim(); ++d) receptive_field *= weight.size(d);
  return weight.size(1) * receptive_field;
}

void kaiming_uniform_(Tensor& weight, double a, Generator& gen) {
  if (weight.numel() == 0) return;  // torch warns "Initializing zero-element tensors is a no-op"
  const int64_t fan = fan_in(weight);
  const double gain = std::sqrt(2.0 / (1.0 + a * a));  // calculate_gain('leaky_relu', a); a**2 == a*a
  const double std = gain / std::sqrt(static_cast<double>(fan));
  const double bound = std::sqrt(3.0) * std;
  uniform_(weight, -bound, bound, gen);
}

namespace {

// The bias of Conv2d/Linear: uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)), or 0 when fan_in is 0.
Tensor init_bias(int64_t n, int64_t fan, Generator& gen) {
  Tensor bias = Tensor::empty({n});
  const double bound = fan > 0 ? 1.0 / std::sqrt(static_cast<double>(fan)) : 0.0;
  uniform_(bias, -bound, bound, gen);
  return bias;
}

void check_nonnegative(int64_t v, const char* module, const char* name) {
  if (v < 0)
    throw ValueError(std::string(module) + ": " + name + " must be >= 0, got " + std::to_string(v));
}

}  // namespace

Conv2dParams conv2d(int64_t in_channels, int64_t out_channels, int64_t kernel_size, bool bias, int64_t groups,
                    Generator& gen) {
  if (groups <= 0) throw ValueError("Conv2d: groups must be a positive integer, got " + std::to_string(groups));
  check_nonnegative(in_channels, "Conv2d", "in_channels");
  check_nonnegative(out_channels, "Conv2d", "out_channels");
  check_nonnegative(kernel_size, "Conv2d", "kernel_size");
  if (in_channels % groups != 0) throw ValueError("Conv2d: in_channels must be divisible by groups");
  if (out_channels % groups != 0) throw ValueError("Conv2d: out_channels must be divisible by groups");
  Conv2dParams p;
  p.weight = Tensor::empty({out_channels, in_channels / groups, kernel_size, kernel_size});
  kaiming_uniform_(p.weight, std::sqrt(5.0), gen);
  if (bias) {  // _ConvNd.reset_parameters skips the bias when fan_in is 0: no draw (torch leaves it
               // uninitialised; we zero it). Linear draws with bound 0 instead (init_bias).
    const int64_t fan = fan_in(p.weight);
    p.bias = fan != 0 ? init_bias(out_channels, fan, gen) : Tensor::zeros({out_channels});
  }
  return p;
}

LinearParams linear(int64_t in_features, int64_t out_features, bool bias, Generator& gen) {
  check_nonnegative(in_features, "Linear", "in_features");
  check_nonnegative(out_features, "Linear", "out_features");
  LinearParams p;
  p.weight = Tensor::empty({out_features, in_features});
  kaiming_uniform_(p.weight, std::sqrt(5.0), gen);
  if (bias) p.bias = init_bias(out_features, fan_in(p.weight), gen);
  return p;
}

BatchNormParams batch_norm2d(int64_t num_features) {
  check_nonnegative(num_features, "BatchNorm2d", "num_features");
  BatchNormParams p;
  p.weight = Tensor::full({num_features}, 1.0f);
  p.bias = Tensor::zeros({num_features});
  p.running_mean = Tensor::zeros({num_features});
  p.running_var = Tensor::full({num_features}, 1.0f);
  return p;
}

}  // namespace pt::nn_init
