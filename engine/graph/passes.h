// passes.h — graph-to-graph passes: batch-norm folding, dead-code elimination, train / eval switch.
//
//   int folded = pt::fold_bn(gm);            // docs/algorithms.md, BN folding; prepare_pt2e runs this first
//   int removed = pt::eliminate_dead_code(gm);
//
// fold_bn folds every inference batch norm (aten.batch_norm.default with training=False, or
// aten._native_batch_norm_legit_no_training.default + getitem(·, 0)) whose input is an
// aten.conv2d.default, or an aten.linear.default with a 2-D input, and whose parameters are get_attr
// nodes, as torch.nn.utils.fusion.fuse_conv_bn_weights does, in float32:
//   r = 1 / sqrt(running_var + eps),  W' = W * (gamma * r) per output channel (axis 0),
//   b' = (b - running_mean) * r * gamma + beta   (b = 0, gamma = 1, beta = 0 when absent).
// W' replaces the conv weight tensor in place; a conv without bias gets a new parameter
// "<weight target>_bias" (node <weight node name>_bias, inserted before the conv). The BN's users
// are redirected to the conv, the BN (and its getitem) erased, then dead code removed. Like torch it
// does not check that the conv has no other users. Returns the number of batch norms folded.
#pragma once
#include "graph/graph.h"

namespace pt {

int fold_bn(GraphModule& gm);
int eliminate_dead_code(GraphModule& gm);

// torchao utils.fold_bn_weights_into_conv_node: the fold of one batch norm (group::bn, torchao's
// _is_bn_node: aten.batch_norm.default with either training flag, the _legit_no_training form, ...)
// into `conv` (aten.conv*d / conv_transpose*d / linear), whose weight / bias tensors are the get_attr
// nodes `weight` / `bias` (bias may be null, then "<weight target>_bias" is created) — the arithmetic
// of fold_bn above with the BN node's own eps (arg 6 of the inference form, 7 of the training forms);
// conv_transpose scales weight axis 1. The BN's users (of a tuple-returning form: its getitem 0) are
// redirected to the conv and the BN erased. ValueError when the BN is not one of group::bn, or weight /
// bias / running stats are not get_attr nodes.
void fold_bn_weights_into_conv_node(GraphModule& gm, Node* conv, const Node* weight, const Node* bias, Node* bn);

// torchao move_exported_model_to_train / move_exported_model_to_eval (pt2e/export_utils.py): what
// model.train() / .eval() do for an exported graph — every aten.batch_norm.default gets its `training`
// literal (arg 5) set to True / False, so it uses batch statistics and updates its running stats, or
// uses the running stats. Idempotent; returns how many nodes changed. (torchao rewrites the pattern
// with default momentum / eps literals; we keep the node's own. Dropout: the engine has no dropout op.)
// TypeError when a batch_norm's training argument is not a bool literal.
int move_exported_model_to_train(GraphModule& gm);
int move_exported_model_to_eval(GraphModule& gm);

}  // namespace pt
