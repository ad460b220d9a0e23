// qat_utils.h — the QAT conv-bn rewrites of torchao pt2e/qat_utils.py (docs/algorithms.md).
//
// Purpose: in quantization-aware training the conv weight must be fake-quantized as it will be
// quantized after batch norm is folded into it, i.e. scaled by bn_weight / running_std. prepare_qat_pt2e
// therefore rewrites every annotated conv -> batch_norm into the "approximate" nniqat.ConvBn2d form
// (_fuse_conv_bn_qat), and convert_pt2e turns the quantized result back into a plain conv whose weight
// and bias have the BN folded in (_fold_conv_bn_qat), so a converted QAT graph looks like a converted
// PTQ graph: int8 weight constant -> dequantize_per_channel -> conv(bias).
//
//   pt::GraphModule gm = exported.clone();
//   quantizer.annotate(gm);
//   int fused = pt::_fuse_conv_bn_qat(gm);    // prepare_qat_pt2e does this after validate()
//   ...                                        // prepare(is_qat), train, move_exported_model_to_eval
//   int folded = pt::_fold_conv_bn_qat(gm);   // convert_pt2e does this after observers became q / dq
//
// _fuse_conv_bn_qat matches conv(x, w, b?) -> aten.batch_norm.default (any training literal, as the
// pattern matcher ignores literals), where conv is aten.conv1d.default / conv2d.default /
// conv_transpose1d.default / conv_transpose2d.input, the conv's only user is the BN and the BN's
// weight, bias, running_mean, running_var are nodes; it replaces the pair with (torchao's
// _qat_conv_bn_pattern[_no_conv_bias], eps hard-coded 1e-5 as upstream):
//   add = rv + 1e-5; sqrt; sf = bn_w / sqrt; w_scaled = w * sf.reshape([-1,1,..]) ([1,-1,..] transpose)
//   [zero_bias = zeros_like(b)]; conv(x, w_scaled, zero_bias | None, <the old conv's literal args>)
//   y = conv / sf.reshape([1,-1,1,..]); [y = y + b.reshape([1,-1,1,..])]
//   batch_norm(y, rm, rv, bn_w, bn_b, training=True, momentum=0.1, eps=1e-5, cudnn_enabled=True)
// (BN literals are the replacement pattern's defaults, as upstream.) The new conv gets the old conv's
// meta, its input_qspec_map re-keyed by position (input, w_scaled, zero_bias); the new BN the old BN's
// meta; every annotation in the graph has its Shared / Derived specs and keys rewritten through
// {old conv -> new conv, old BN -> new BN, w -> w_scaled, b -> zero_bias}. New nodes get meta.val and
// the conv's nn_module_stack. Returns the number of pairs rewritten.
//
// _fold_conv_bn_qat matches what convert made of that pattern: batch_norm(div(conv, reshape(sf)) [+
// reshape(b)]) whose conv weight is dq(q(mul(w, ·))) (per tensor or per channel) and whose bias is None,
// zeros_like(b) or dq(q(zeros_like(b))); every pattern node must have no other user. It points the
// weight q at w (keeping the q / dq literals and scale / zero-point buffers, computed on the BN-scaled
// weight), gives the conv the bias b (through the bias q / dq if it had one), then
// fold_bn_weights_into_conv_node (graph/passes.h; the BN node's own eps) writes the folded weight and
// bias into the parameters and removes the BN. Dead nodes are removed. Returns the number folded.
// (Our graphs carry no num_batches_tracked add_, so there is nothing of that to erase.)
#pragma once
#include "graph/graph.h"

namespace pt {

int _fuse_conv_bn_qat(GraphModule& gm);
int _fold_conv_bn_qat(GraphModule& gm);

}  // namespace pt
