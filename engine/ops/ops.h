// ops.h — float32 reference operators, one small pure function per aten op.
//
// These are the numerics of the float graph: each function takes tensors (and plain hyper-
// parameters, spelled as in the aten schema) and returns a new tensor; nothing is mutated (except the
// running stats batch_norm_training updates, as torch does). They match
// torch's CPU results within float rounding (sums are accumulated in double and rounded once, so the
// engine is at least as close to the exact value as torch; the backward's matrix products, ops/
// backward.h, run in float32 on kernels::f32_gemm). Shapes and dtypes are checked first:
// a mismatch throws pt::RuntimeError (shapes, as torch does) or pt::TypeError (dtype), and the
// message starts with the op name, e.g. "conv2d: expected input with 8 channels ...".
//
//   pt::Tensor y = pt::ops::conv2d(x, w, b, {1, 1}, {1, 1}, {1, 1}, 1);   // aten.conv2d.default
//   pt::Tensor z = pt::ops::add(y, x);                                     // aten.add.Tensor
//
// Int lists accept one value for both spatial dims ({1} == {1, 1}), as torch's IntArrayRef[2] does.
// The graph interpreter (graph/interpreter.h) maps aten targets onto these functions.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.h"

namespace pt::ops {

using IntList = std::vector<int64_t>;

// aten.conv2d.default: input [N, C, H, W], weight [O, C/groups, kH, kW], bias [O] or none.
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
              const IntList& stride = {1}, const IntList& padding = {0}, const IntList& dilation = {1},
              int64_t groups = 1);
// aten.linear.default: input [..., in], weight [out, in], bias [out] or none.
Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias);
// aten.relu.default, aten.sigmoid.default, aten.hardtanh.default.
Tensor relu(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor hardtanh(const Tensor& x, double min_val = -1.0, double max_val = 1.0);
// aten.max_pool2d.default: input [N, C, H, W]; an empty stride means stride = kernel_size.
Tensor max_pool2d(const Tensor& x, const IntList& kernel_size, const IntList& stride = {},
                  const IntList& padding = {0}, const IntList& dilation = {1}, bool ceil_mode = false);
// aten.max_pool2d_with_indices: the same output and, per output element, the flat index ih * W + iw
// (int32; int64 in torch) of the input element it took — the first maximum in window order, a NaN
// winning — which is where its backward sends the gradient.
struct MaxPoolResult {
  Tensor output;
  Tensor indices;
};
MaxPoolResult max_pool2d_with_indices(const Tensor& x, const IntList& kernel_size, const IntList& stride = {},
                                      const IntList& padding = {0}, const IntList& dilation = {1},
                                      bool ceil_mode = false);
// aten.adaptive_avg_pool2d.default: input [N, C, H, W] -> [N, C, oH, oW].
Tensor adaptive_avg_pool2d(const Tensor& x, const IntList& output_size);
// aten.mean.dim: mean over `dims` (negative dims count from the end; empty = all dims).
Tensor mean_dim(const Tensor& x, const IntList& dims, bool keepdim = false);
// aten.add.Tensor (self + alpha * other) and aten.mul.Tensor, with numpy-style broadcasting.
Tensor add(const Tensor& a, const Tensor& b, double alpha = 1.0);
Tensor mul(const Tensor& a, const Tensor& b);
// aten.cat.default: all inputs equal except along dim.
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
// aten.flatten.using_ints: merge dims start_dim..end_dim (negative dims allowed).
Tensor flatten(const Tensor& x, int64_t start_dim = 0, int64_t end_dim = -1);
// aten.batch_norm.default in inference (training=False), same numbers as
// aten._native_batch_norm_legit_no_training: y = x * a + c with a = w / sqrt(var + eps),
// c = b - mean * a per channel (dim 1). weight / bias may be absent (1 and 0).
Tensor batch_norm(const Tensor& x, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  const Tensor& running_mean, const Tensor& running_var, double eps = 1e-5);

// aten.batch_norm.default with training=True, as torch's CPU kernel computes it (batch_norm_cpu,
// contiguous input): per channel c over N and the spatial dims (n = numel / C values),
//   sum in double in memory order, mean = float(sum / n);
//   var_sum = sum in double of float((x - mean) * (x - mean)), kept as float;
//   ([N, C] input: torch's channels-last kernel — float sums over N, var term fma(d, d, acc); this is
//   torch's single-thread order, torch with several threads sums per-thread chunks)
//   invstd = float(1 / sqrt(double(var_sum / n) + eps))      (biased variance normalises);
//   a = invstd * w, c = fma(-mean, a, b), y = fma(x, a, c)     (float, fused as torch's AVX2 kernel);
//   running_mean = 0.1f-style float momentum: m * mean + (1 - m) * running_mean   (float),
//   running_var  = m * double(var_sum / (n - 1)) + float((1 - m) * running_var)   (unbiased).
// The running stats, when given, are updated IN PLACE (their storage is shared with the caller, so
// a GraphModule's buffers change as torch's do) — the one op here with a side effect. ValueError when
// a channel has a single value (n == 1), as F.batch_norm raises "Expected more than 1 value per channel".
Tensor batch_norm_training(const Tensor& x, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                           std::optional<Tensor> running_mean, std::optional<Tensor> running_var,
                           double momentum = 0.1, double eps = 1e-5);
// The per-channel batch statistics batch_norm_training computes (its first half, shared with its backward):
// n values per channel, mean, var_sum (the float sum of squared deviations) and invstd, as above.
struct BatchNormStats {
  int64_t n;
  std::vector<float> mean, var_sum, invstd;
};
BatchNormStats batch_norm_stats(const Tensor& x, double eps);
// Values a forward saves for its backward, as torch's native_batch_norm returns save_mean / save_invstd so that
// native_batch_norm_backward does not take the batch statistics again. While a thread has one open
// (SaveForBackward; train/autograd.h's Tape opens one around each node it records), batch_norm_training leaves
// its statistics in it, max_pool2d its indices (as aten.max_pool2d_with_indices returns them for its
// backward) and conv2d its im2col columns (so that the weight's gradient does not build them again; only
// while they take at most kSavedColumnsBytes, else the backward builds them; none for ConvGeometry::winograd_gradients(),
// whose gradient does not use them); otherwise nothing is saved.
struct SavedForBackward {
  std::optional<BatchNormStats> batch_norm;
  std::optional<Tensor> max_pool_indices;
  std::optional<Tensor> conv_columns;  // [N, groups, K, P] (ops/im2col.h), float32
};
inline constexpr int64_t kSavedColumnsBytes = int64_t{16} << 20;
class SaveForBackward {  // opens `into` on this thread for the scope's lifetime
 public:
  explicit SaveForBackward(SavedForBackward& into);
  ~SaveForBackward();
  SaveForBackward(const SaveForBackward&) = delete;
  SaveForBackward& operator=(const SaveForBackward&) = delete;

 private:
  SavedForBackward* previous_;
};
// aten.sqrt.default, aten.div.Tensor (broadcasting), aten.zeros_like.default (float32).
Tensor sqrt(const Tensor& x);
Tensor div(const Tensor& a, const Tensor& b);
Tensor zeros_like(const Tensor& x);

// Broadcast two shapes (numpy rules); RuntimeError naming `op` when they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op);

}  // namespace pt::ops
