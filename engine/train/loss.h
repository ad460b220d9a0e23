// loss.h — the training losses under torch.nn.functional's names and arguments: each returns the loss value
// and its gradient with respect to the input, which is what Tape::backward takes as the output gradient of
// the graph.
//
//   pt::Loss l = pt::cross_entropy(logits, labels);   // l.value: 0-dim float32; l.grad: logits' shape
//   tape.backward({l.grad});
//   pt::cross_entropy(logits, labels, {.weight = w, .ignore_index = 0, .reduction = pt::Reduction::sum,
//                                      .label_smoothing = 0.1});
//
// cross_entropy(input [N, C] float32, target [N] int32 class indices), F.cross_entropy with class indices
// (aten/src/ATen/native/LossNLL.cpp: cross_entropy_loss, cross_entropy_loss_label_smoothing): per sample i
// with lsm = log_softmax(input[i]), w the class weights (all 1 without), ε the label smoothing and t = target[i]
// not ignore_index:
//   loss_i = (1 − ε) · (−w[t] · lsm[t]) + ε / C · (−Σ_c w[c] · lsm[c]);   an ignored sample's loss_i = 0.
// reduction mean: Σ loss_i / Σ w[t_i] over the samples not ignored (NaN when every sample is ignored, as torch);
// sum: Σ loss_i; none: loss_i per sample [N]. A target of the input's shape holds class probabilities instead
// (torch's cross_entropy_loss_prob_target: float32, no ignore_index): t smoothed to t·(1 − ε) + ε/C,
// loss_i = −Σ_c w[c]·t[i, c]·lsm[c], and the mean divides by N. As torch, ε ≤ 0 or NaN means no smoothing.
// Typed errors as F.cross_entropy: ValueError "Expected input batch_size (4) to match target batch_size (3).";
// IndexError "Target 5 is out of bounds."; RuntimeError "expected scalar type Int but found Float" for float
// targets of another shape (torch: Long; the engine's class labels are int32); RuntimeError for a weight that is
// not float32 [C], a label smoothing above 1, integer probabilities or an ignore_index ≥ 0 with them;
// ValueError for an input that is not [N, C].
// mse_loss(input, target, reduction), same shape (ValueError naming both shapes otherwise; torch broadcasts
// with a warning): (input − target)² per element, then mean, sum or none.
// grad is d(Σ value)/d input: with reduction none, a cotangent c scales each sample's row (mse_loss: each
// element) — sample i's loss depends on row i only. Sums are accumulated in double and rounded once, so values
// match torch within float rounding; with the defaults the arithmetic is the plain mean cross_entropy's.
#pragma once
#include <optional>
#include <string>

#include "core/tensor.h"

namespace pt {

struct Loss {
  Tensor value;  // 0-dim float32 (mean, sum), or one loss per sample / element (none)
  Tensor grad;   // d(Σ value) / d input, float32 of the input's shape
};

// torch's reduction= argument.
enum class Reduction { none, mean, sum };
// "none" / "mean" / "sum"; ValueError "<name> is not a valid value for reduction" otherwise (torch's words).
Reduction reduction_from_name(const std::string& name);

struct CrossEntropyOptions {
  std::optional<Tensor> weight;  // float32 [C]: a weight per class
  int64_t ignore_index = -100;   // a target with this value adds nothing and counts for nothing (class indices)
  Reduction reduction = Reduction::mean;
  double label_smoothing = 0.0;  // at most 1 (≤ 0: none)
};

// Function objects, so that a loss is also a value (TrainLoop's LossFn takes input and target).
inline constexpr struct CrossEntropy {
  Loss operator()(const Tensor& input, const Tensor& target, const CrossEntropyOptions& options = {}) const;
} cross_entropy;
inline constexpr struct MseLoss {
  Loss operator()(const Tensor& input, const Tensor& target, Reduction reduction = Reduction::mean) const;
} mse_loss;

}  // namespace pt
