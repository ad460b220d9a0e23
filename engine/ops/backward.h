// backward.h — float32 reference backward ops: for each forward op of ops.h that autograd
// (engine/train/autograd.h) differentiates, the gradient of its inputs given the gradient `grad` of
// its output, with the formulas of torch's tools/autograd/derivatives.yaml and the ATen backward
// kernels named on each. Like ops.h: small pure functions, sums accumulated in double and rounded once
// (the matrix products of conv2d and linear in float32 on kernels::f32_gemm: one chain per output, the
// terms in a fixed order, engine/kernels/kernels.h; batch_norm's backward as torch's CPU kernel computes it),
// typed errors for shapes that do not fit.
//
//   Tensor dx = pt::ops::conv2d_backward_input(grad, w, x.shape(), {1}, {1}, {1}, 1);
//   Tensor dw = pt::ops::conv2d_backward_weight(grad, x, w.shape(), {1}, {1}, {1}, 1);
//   Tensor db = pt::ops::sum_to(grad, {w.size(0), 1, 1}).reshape({w.size(0)});
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "core/tensor.h"
#include "ops/ops.h"

namespace pt::ops {

// aten.convolution_backward (conv2d): the input gradient (a transposed convolution: Wᵀ·grad per image
// and group, then col2im) and the weight gradient (grad·colsᵀ summed over the batch; `columns`: the forward's
// im2col columns of input, SavedForBackward::conv_columns, or nullptr to build them again).
Tensor conv2d_backward_input(const Tensor& grad, const Tensor& weight, const Shape& input_shape, const IntList& stride,
                             const IntList& padding, const IntList& dilation, int64_t groups);
Tensor conv2d_backward_weight(const Tensor& grad, const Tensor& input, const Shape& weight_shape,
                              const IntList& stride, const IntList& padding, const IntList& dilation, int64_t groups,
                              const Tensor* columns = nullptr);
// linear (input [..., in], weight [out, in]): grad·W and gradᵀ·input (rows flattened); the bias
// gradient is sum_to(grad, {out}).
Tensor linear_backward_input(const Tensor& grad, const Tensor& weight);
Tensor linear_backward_weight(const Tensor& grad, const Tensor& input);

// at::sum_to: the gradient of broadcasting a `shape` tensor to grad's shape — grad summed over the
// leading dims grad has in excess and over every dim where `shape` is 1. RuntimeError if `shape` does
// not broadcast to grad's shape.
Tensor sum_to(const Tensor& grad, const Shape& shape);
// div (aten.div.Tensor, result = self / other)'s two gradients as derivatives.yaml's div_tensor_self_backward and
// div_tensor_other_backward compute them, with self / other taken from the forward's `result`:
//   self  <- sum_to(grad / other, self_shape),   other <- sum_to(-(grad * (result / other)), other.shape()).
// Bit for bit that composition of div, mul and sum_to, in one pass over grad and result when other is broadcast
// over them (a [1, C, 1, 1] factor); only the gradients asked for are computed.
struct DivGrads {
  std::optional<Tensor> self, other;
};
DivGrads div_backward(const Tensor& grad, const Tensor& result, const Tensor& other, const Shape& self_shape,
                      bool need_self, bool need_other);
// grad / count, broadcast back over the reduced dims of x: mean.dim's backward (and
// adaptive_avg_pool2d's when every window is the whole plane).
Tensor mean_dim_backward(const Tensor& grad, const Shape& input_shape, const IntList& dims, bool keepdim);

// A mask byte as a float, m exactly: 2²³ + m has m in its low mantissa bits, so the float with bits 0x4B000000 | m
// minus 2²³. Integer lanes and one subtraction, where float(m) becomes one scalar conversion per lane in wasm SIMD.
// grad · mask_float(m) is ATen's dY * mask (quant/quantize.h fake_quantize_backward, and the masked rules below).
inline float mask_float(uint8_t m) {
  const uint32_t bits = 0x4B000000u | m;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f - 8388608.f;
}

// An STE mask (`grad_mask` below): a fake quantize's uint8 mask of grad's shape that the gradient is still to be
// multiplied by (fake_quantize_backward's grad × mask, 1 keeps, 0 gives 0 with grad's sign), when the fake quantize
// reads this op's output; taking it in the op's own pass saves a pass over grad. Bit for bit the op on grad × mask.

// relu: threshold_backward(grad, result, 0) = grad where result > 0, else 0 (bit for bit); with grad_mask,
// grad × mask where result > 0.
Tensor threshold_backward(const Tensor& grad, const Tensor& result, float threshold = 0.f,
                          const Tensor* grad_mask = nullptr);
// hardtanh_backward: grad where min_val < x < max_val, else 0 (0 on the bounds, as torch).
Tensor hardtanh_backward(const Tensor& grad, const Tensor& x, double min_val, double max_val);
// sigmoid_backward: grad * (1 - y) * y, float, left to right as torch's CPU kernel.
Tensor sigmoid_backward(const Tensor& grad, const Tensor& result);
// max_pool2d_with_indices_backward: each output's gradient added to the input element it took, in float
// and in output order as torch's cpu_max_pool_backward (overlapping windows that share a maximum round
// their sum as torch does). `indices` are the forward's (SavedForBackward); without them the forward's
// window search runs again. With grad_mask (an STE mask, above), each output's gradient × its mask is added.
Tensor max_pool2d_backward(const Tensor& grad, const Tensor& x, const IntList& kernel_size, const IntList& stride,
                           const IntList& padding, const IntList& dilation, bool ceil_mode,
                           const Tensor* indices = nullptr, const Tensor* grad_mask = nullptr);
// adaptive_avg_pool2d_backward: grad / (window height) / (window width) added to every element of
// its window (windows overlap when the size does not divide).
Tensor adaptive_avg_pool2d_backward(const Tensor& grad, const Tensor& x);
// cat: the gradient of each input is its slice of grad along dim.
std::vector<Tensor> cat_backward(const Tensor& grad, const std::vector<Shape>& input_shapes, int64_t dim);

// native_batch_norm_backward (CPU, batch_norm_cpu_backward_contiguous_impl). training: with the batch's
// statistics (batch_norm_stats of x), per channel, sums over the n values of the channel:
//   dotp = Σ (x - mean) dy,  sum = Σ dy;   dx = (dy - sum/n - (x - mean) · dotp · invstd² / n) · invstd · w
// eval: with running_mean / running_var: invstd = 1 / sqrt(running_var + eps), dx = dy · invstd · w.
// Both: dweight = dotp · invstd, dbias = sum. As torch computes them: each plane's sums in float vector lanes, the
// planes' added in double, dx in float. Only the gradients asked for are computed. saved: the statistics
// batch_norm_training took of this x (SavedForBackward), used instead of taking them again.
struct BatchNormGrads {
  std::optional<Tensor> input, weight, bias;
};
BatchNormGrads batch_norm_backward(const Tensor& grad, const Tensor& x, const std::optional<Tensor>& weight,
                                   const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                                   bool training, double eps, bool need_input, bool need_weight, bool need_bias,
                                   const BatchNormStats* saved = nullptr);

}  // namespace pt::ops
