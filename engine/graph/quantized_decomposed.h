// quantized_decomposed.h — torch.ops.quantized_decomposed, once: the argument layout of the quantize /
// dequantize / choose_qparams ops that convert_pt2e writes, the one accessor that reads a node's
// arguments back, and the float reference implementations the interpreter's op table holds from
// start-up (graph/interpreter.h).
//
// The signatures (torch/ao/quantization/fx/_decomposed.py, the library torchao's pt2e/convert.py
// imports so that these ops are registered), restated:
//   quantize_per_tensor.default  (input, scale: float,  zero_point: int,    quant_min, quant_max, dtype)
//   quantize_per_tensor.tensor   (input, scale: Tensor, zero_point: Tensor, quant_min, quant_max, dtype)
//   quantize_per_channel.default (input, scales: Tensor, zero_points: Tensor, axis, quant_min, quant_max, dtype)
//   dequantize_*                 the same arguments as the matching quantize
//   choose_qparams[_symmetric].tensor (input, quant_min, quant_max, eps, dtype) -> (scale, zero_point)
// The dtype argument is an int: dtype_code(DType), since the graph IR has no dtype literal.
//
//   Node* q = g.call_function(target::quantize_per_tensor,
//                             qdq_arg_list({x, 0.02, int64_t{-3}, std::nullopt, -128, 127, DType::Int8}));
//   if (const auto a = qdq_args(*node)) ... a->scale, a->axis, a->quant_min, a->dtype ...
//
// Report tables (hover qparams, qdq_nodes), convert_pt2e and later lowering read q / dq nodes through
// qdq_args only; nothing else spells these argument positions.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "graph/interpreter.h"

namespace pt {

// The arguments of a quantize / dequantize node (NodeKind::quantize / dequantize).
struct QDQArgs {
  Node* input = nullptr;
  Arg scale;                    // per tensor .default: a float literal; .tensor / per channel: a node
  Arg zero_point;               // per tensor .default: an int literal; .tensor / per channel: a node
  std::optional<int64_t> axis;  // per channel only
  int64_t quant_min = 0;
  int64_t quant_max = 0;
  DType dtype = DType::Int8;
};
// The node's positional arguments in the ops' order (the axis is written only when set).
std::vector<Arg> qdq_arg_list(const QDQArgs& a);
// The arguments of a quantize / dequantize node; nullopt for any other node, or one whose quant_min,
// quant_max, dtype or axis is not an int literal, or whose dtype code is unknown.
std::optional<QDQArgs> qdq_args(const Node& n);

// A static per-tensor quantize / dequantize (the .default overloads): its literal qparams, read through
// qdq_args; nullopt for any other node.
struct PerTensorQParams {
  double scale = 1.0;
  int64_t zero_point = 0;
  int64_t quant_min = 0, quant_max = 0;
  DType dtype = DType::Int8;
};
std::optional<PerTensorQParams> per_tensor_qparams(const Node& n);

// The arguments of a choose_qparams[_symmetric].tensor node.
struct ChooseQParamsArgs {
  Node* input = nullptr;
  int64_t quant_min = 0;
  int64_t quant_max = 0;
  double eps = 0;
  DType dtype = DType::Int8;
};
std::vector<Arg> choose_qparams_arg_list(const ChooseQParamsArgs& a);

int64_t dtype_code(DType dtype);      // the int the dtype argument holds
DType dtype_from_code(int64_t code);  // ValueError for an unknown code

// Every quantized_decomposed target with its float reference implementation (engine/quant); the
// interpreter's op table is built with these.
std::vector<std::pair<const char*, OpFn>> quantized_decomposed_ops();

}  // namespace pt
