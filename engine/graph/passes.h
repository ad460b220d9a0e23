// passes.h — graph-to-graph passes: batch-norm folding and dead-code elimination.
//
//   int folded = pt::fold_bn(gm);            // spec §8.1; prepare_pt2e runs this first
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

}  // namespace pt
