// nn_init.h — parameter initialisation exactly as torch.nn modules do it.
//
// torch.nn.Conv2d / Linear draw kaiming_uniform_(weight, a=sqrt(5)) and then
// uniform_(bias, -1/sqrt(fan_in), 1/sqrt(fan_in)) from the default generator, in that order;
// BatchNorm2d sets weight=1, bias=0, running_mean=0, running_var=1 and draws nothing. Building
// modules in the same order after the same manual_seed therefore gives the same parameters.
#pragma once
#include <cstdint>

#include "core/generator.h"

namespace pt::nn_init {

// fan_in of a weight of shape [out, in, k...] (torch's _calculate_fan_in_and_fan_out).
int64_t fan_in(const Tensor& weight);
void kaiming_uniform_(Tensor& weight, double a, Generator& gen = default_generator());

struct Conv2dParams { Tensor weight, bias; };  // bias is empty (numel 0) when bias=false
Conv2dParams conv2d(int64_t in_channels, int64_t out_channels, int64_t kernel_size, bool bias = true,
                    int64_t groups = 1, Generator& gen = default_generator());
struct LinearParams { Tensor weight, bias; };
LinearParams linear(int64_t in_features, int64_t out_features, bool bias = true,
                    Generator& gen = default_generator());
struct BatchNormParams { Tensor weight, bias, running_mean, running_var; double eps = 1e-5; double momentum = 0.1; };
BatchNormParams batch_norm2d(int64_t num_features);

}  // namespace pt::nn_init
