// passes.h — graph-to-graph passes: batch-norm folding, dead-code elimination, train / eval switch.
//
//   int folded = pt::fold_bn(gm);            // docs/algorithms.md, BN folding; prepare_pt2e runs this first
//   int removed = pt::eliminate_dead_code(gm);
//
// fold_bn is torchao utils.py _fuse_conv_bn_ then _fuse_linear_bn_ (prepare_pt2e's first step): every
// aten.batch_norm.default — whatever its `training` flag: a model exported in train mode is folded with
// its running statistics all the same — and every aten._native_batch_norm_legit_no_training.default +
// getitem(·, 0), in graph order, whose input is a conv (conv1d / 2d / 3d, conv_transpose*), then one
// whose input is an aten.linear.default (unless the linear's input is known to have more than 2 dims),
// is folded into it by fold_bn_weights_into_conv_node below. A weight node folded once is not scaled a
// second time: the next BN on a conv with that weight is removed without changing the weight, and the
// conv's bias is kept (zeros when it has none, under the same "<weight>_bias" name: torchao's quirk,
// which overwrites the first fold's bias). Like torch it does not check that the conv has no other
// users. A conv / linear weight, bias or BN parameter that is not a get_attr node is a ValueError (torchao
// asserts). Returns the number of batch norms removed.
#pragma once
#include "graph/graph.h"

namespace pt {

int fold_bn(GraphModule& gm);
int eliminate_dead_code(GraphModule& gm);

// torchao utils.fold_bn_weights_into_conv_node / fold_bn_weights_into_linear_node: the fold of one batch
// norm (group::bn, torchao's _is_bn_node: aten.batch_norm.default with either training flag, the
// _legit_no_training form, ...) into `conv` (aten.conv*d / conv_transpose*d / linear), whose weight /
// bias tensors are the get_attr nodes `weight` / `bias`, as torch.nn.utils.fusion.fuse_conv_bn_weights
// does in float32, with the BN node's own eps (arg 6 of the inference form, 7 of the training forms):
//   r = 1 / sqrt(running_var + eps),  W' = W * (gamma * r) per output channel (axis 0; axis 1 for
//   conv_transpose), b' = (b - running_mean) * r * gamma + beta   (b = 0, gamma = 1, beta = 0 when absent).
// W' replaces the weight tensor in place; a conv without bias gets a new parameter "<weight target>_bias"
// (a get_attr node before the conv). fake_fuse (torchao's, for a weight already folded): W and the bias
// are left as they are (zeros for a missing bias). The BN's users (of a tuple-returning form: its
// getitem 0) are redirected to the conv and the BN erased. ValueError when the BN is not one of
// group::bn, or weight / bias / BN parameters / running stats are not get_attr nodes.
void fold_bn_weights_into_conv_node(GraphModule& gm, Node* conv, const Node* weight, const Node* bias, Node* bn,
                                    bool fake_fuse = false);

// torchao move_exported_model_to_train / move_exported_model_to_eval (pt2e/export_utils.py): what
// model.train() / .eval() do for an exported graph — every aten.batch_norm.default gets its `training`
// literal (arg 5) set to True / False, so it uses batch statistics and updates its running stats, or
// uses the running stats. Idempotent; returns how many nodes changed. (torchao rewrites the pattern
// with default momentum / eps literals; we keep the node's own. Dropout: the engine has no dropout op.)
// TypeError when a batch_norm's training argument is not a bool literal.
int move_exported_model_to_train(GraphModule& gm);
int move_exported_model_to_eval(GraphModule& gm);

}  // namespace pt
