// loss.h — the training losses, torch.nn.functional's names and mean reduction: each returns the loss
// value and its gradient with respect to the input, which is what Tape::backward takes as the output
// gradient of the graph.
//
//   pt::Loss l = pt::cross_entropy(logits, labels);   // l.value: 0-dim float32; l.grad: logits' shape
//   tape.backward({l.grad});
//
// cross_entropy(input [N, C] float32, target [N] int32 class indices): log_softmax over C, then
// nll_loss with reduction='mean' (ignore_index -100 skipped: no class weights):
//   loss = -(1/N) Σ_i log_softmax(input)[i, target_i],   grad = (softmax(input) - onehot(target)) / N.
// Typed errors as F.cross_entropy: ValueError "Expected input batch_size (4) to match target batch_size
// (3)."; IndexError "Target 5 is out of bounds."; RuntimeError "expected scalar type Int but found Float"
// for float targets (torch: Long; the engine's class labels are int32); ValueError for an input that is
// not [N, C].
// mse_loss(input, target), same shape (ValueError naming both shapes otherwise; torch broadcasts with a
// warning): loss = mean((input - target)²), grad = 2 (input - target) / numel.
// Sums are accumulated in double and rounded once, so values match torch within float rounding.
#pragma once
#include "core/tensor.h"

namespace pt {

struct Loss {
  Tensor value;  // 0-dim float32
  Tensor grad;   // d value / d input, float32 of the input's shape
};

Loss cross_entropy(const Tensor& input, const Tensor& target);
Loss mse_loss(const Tensor& input, const Tensor& target);

}  // namespace pt
