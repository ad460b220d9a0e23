// reference_representation.h — convert_pt2e(..., use_reference_representation=True): torchao's
// reference_representation_rewrite.py, the quantized patterns rewritten into integer arithmetic.
//
//   pt::GraphModule ref = pt::convert_pt2e(prepared, /*use_reference_representation=*/true);
//   // int8 conv / linear / add / max_pool2d run in int32; outputs stay within 1 LSB of the q/dq graph
//
// torchao rewrites each pattern with torch.fx's subgraph rewriter into the aten ops of its replacement
// function (clamp, to(int16), out_dtype(linear, int32, ...), div, mul, round ...). The graph IR has no
// out_dtype and no dtype literals, so each replacement here is one op named after the function
// (target::reference_quantized_linear = "torchao.reference_quantized_linear", ...), with the pattern's
// arguments, whose body restates the function step by step (reference_representation.cpp). In torchao's
// order, on int8 per-tensor q / dq (the patterns' dtype):
//   q(linear(dq(x), dq(w per tensor), bias))          → reference_quantized_linear
//   q(conv2d(dq(x), dq(w per tensor), bias, ...))     → reference_quantized_conv2d
//   q(relu(add(dq(x), dq(y))))                        → reference_quantized_add_relu
//   q(add(dq(x), dq(y)))                              → reference_quantized_add
//   q(max_pool2d(dq(x), ...))                         → reference_quantized_max_pool2d
//   quantize / dequantize_per_tensor(int8)            → reference_(de)quantize_per_tensor_int8
//   quantize / dequantize_per_channel(int8)           → reference_(de)quantize_per_channel_int8
// Where torchao's patterns spell the op differently from what an exported graph holds, the graph's op is
// matched: aten.convolution.default (pattern) vs aten.conv2d.default (graph), max_pool2d_with_indices
// (pattern) vs max_pool2d (graph) — a training-IR export never holds the pattern's spelling, so the
// upstream rewrite leaves those float; here they are rewritten. Weights quantized per channel do not match
// the linear / conv patterns (torchao's use dequantize_per_tensor), so those convs stay float between
// reference q / dq, as upstream. Not restated: dynamic linear and the 4-bit groupwise linear.
// Arithmetic is float32 where torchao's example inputs are float32 tensors (scales) and int32 where they
// are ints; out_dtype's float → int32 is a truncation, torch.round is half to even.
#pragma once
#include "graph/graph.h"

namespace pt {

// Rewrites `gm` in place; returns how many patterns were replaced.
int reference_representation_rewrite(GraphModule& gm);

}  // namespace pt
