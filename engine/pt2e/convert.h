// convert.h — convert_pt2e: observers become quantize / dequantize ops (torchao quantize_pt2e.py,
// pt2e/convert.py, qat_utils.py, quantizer/duplicate_dq_pass.py, constant_fold.py;
// docs/algorithms.md, convert_pt2e).
//
//   pt::GraphModule converted = pt::convert_pt2e(prepared);   // `prepared` is left unchanged
//   converted.forward({x});                                    // runs q/dq in float (reference ops)
//
// Steps, in torchao's order:
// 1. every observer node (call_module) becomes
//    - static per tensor:  quantize_per_tensor.default(x, scale, zp, qmin, qmax, dtype) →
//      dequantize_per_tensor.default(q, same) with a float scale and an int zero point as literals;
//    - static per channel: get_attr _scale_<k>, _zero_point_<k> buffers, quantize_per_channel.default(x,
//      scale, zp, axis, qmin, qmax, dtype) → dequantize_per_channel.default;
//    - dynamic (int8/uint8): choose_qparams.tensor(x, qmin, qmax, eps, dtype) (choose_qparams_symmetric
//      for a symmetric qscheme) → getitem 0 / 1 → quantize_per_tensor.tensor → dequantize_per_tensor.tensor;
//    - any other dtype (a float32 PlaceholderObserver): the node is removed, its users read its input.
//    (qparams from calculate_qparams(): for fake-quantize modules the observer formula.)
// 1b. _fold_conv_bn_qat (pt2e/qat_utils.h): the QAT pattern prepare_qat_pt2e wrote
//    (conv(x, dq(q(w·sf))) / sf [+ b] → batch_norm) becomes w → q → dq → conv(b) → batch_norm with the
//    q / dq qparams computed on the BN-scaled weight, then the BN is folded into the conv weight / bias
//    (BN folding, the BN's own eps) and removed — a converted QAT graph looks like a converted PTQ one.
// 2. DuplicateDQPass: a dequantize with several users gets one copy per user whose annotation is
//    valid (the affine dynamic choose_qparams pattern stays shared); the original goes if unused.
// 3. fold_quantize: quantize nodes whose inputs are all constants (get_attr) are evaluated through the
//    interpreter's op table (graph/interpreter.h evaluate_constants) and replaced by a get_attr of the
//    int8 result (_frozen_param<k>), so a weight reads `int8 const → dequantize`.
// 4. dead code and unused submodules are removed.
// Node names are torch.fx's (Graph::fx_name_hint): quantize_per_tensor_default, dequantize_per_tensor_default_1,
// choose_qparams_tensor, getitem; a DuplicateDQPass copy is named after its original (node_copy), and a
// folded constant's get_attr keeps the name of the quantize node it replaced (replace_node_with_constant).
// The ops' arguments are laid out and read back by graph/quantized_decomposed.h (qdq_arg_list, qdq_args;
// the dtype argument is an int, dtype_code(DType)); the interpreter runs them in float from start-up.
// Recognise the nodes by node_kind() (graph/targets.h): quantize, dequantize, choose_qparams.
// 5. use_reference_representation: the quantized patterns become integer arithmetic
//    (pt2e/reference_representation.h, torchao reference_representation_rewrite.py).
#pragma once
#include <cstdint>

#include "core/tensor.h"
#include "graph/graph.h"
#include "graph/quantized_decomposed.h"

namespace pt {

GraphModule convert_pt2e(const GraphModule& model, bool use_reference_representation = false,
                         bool fold_quantize = true);

// The passes convert_pt2e runs, in place.
void replace_observers_with_quantize_dequantize(GraphModule& gm);
void duplicate_dq_pass(GraphModule& gm);
int fold_quantize_ops(GraphModule& gm);  // returns how many quantize nodes were folded

}  // namespace pt
