// lower.h — lowering a converted graph to integer ops, as a delegate's partitioner does it (ExecuTorch
// backends/xnnpack/partition/xnnpack_partitioner.py + to_edge_transform_and_lower; for x86, what
// Inductor's quantization lowering fuses into onednn.qconv2d_pointwise / qlinear_pointwise).
//
//   pt::Lowered l = pt::lower(converted, {.backend = pt::LowerBackend::xnnpack});
//   l.gm.forward({x});                 // the int8 ops run on engine/kernels; boundary q / dq in float
//   l.report.num_delegated_nodes ...   // executorch.devtools.backend_debug.get_delegation_info's numbers
//
// Patterns, found in graph order, each replaced by one int8 op (graph/targets.h group::int8):
//   dq(x), dq(w int8) [, bias] → conv2d [→ relu] → q      int8.conv2d   (any stride / padding / groups)
//   dq(x), dq(w int8) [, bias] → linear [→ relu] → q      int8.linear
//   dq(a), dq(b) → add [→ relu] → q                        int8.add      (same shapes)
//   dq(x) → max_pool2d → q                                 int8.max_pool2d (shared qparams)
//   dq(x) → adaptive_avg_pool2d(1) | mean([2, 3]) → q      int8.mean
//   dq(x_i)… → cat → q                                     int8.cat      (shared qparams)
//   dq(x) → flatten → q                                    int8.flatten  (shared qparams)
// and on x86 only, a conv / linear whose output is not quantized (X86InductorQuantizer quantizes their inputs only):
//   dq(x), dq(w int8) [, bias] → conv2d | linear [→ relu]   int8.conv2d / int8.linear with the float output stage:
//                                                          float32 f32(acc)·f32(s_in·s_w[c]) + bias[c] [, relu]
//   (torchao v0.18.0 inductor_passes/x86.py: qconv / qlinear_weight_prepack make every dq → conv / linear an onednn
//   op with a float32 output; the relu of a single-user conv / linear is fused into it, "Priority 2" of
//   _register_qconv_unary_fusion / _register_qlinear_unary_fusion.)
// x is any int8 / uint8 code tensor: a boundary quantize, or the op lowered before it. What matches no
// pattern stays as it was (float ops between q / dq, run by the reference ops); the report says why.
// Backends: xnnpack wants int8 activations (s8·s8, per-channel or per-tensor int8 weights, ExecuTorch's
// XNNPACKQuantizer); x86 wants uint8 activations (u8·s8, X86InductorQuantizer, reduce_range or not).
// Weights are int8 with zero point 0 (XNNPACK's qc8w), packed once here (int8_ops.h pack_weight; a conv's
// in the layout its int8 conv2d reads, conv_weight_layout); biases
// are quantized with s_in·s_w[c] (torchao reference_representation_rewrite.py); requantization is `options.requantization` for
// every op (kernels.h RequantKind; f32_output is lowering's own choice for the x86 float outputs, ValueError when
// asked for), except add, which is XNNPACK's integer add in both backends. Under shift_even (the
// fictional VPU's, lower/vpu.h) add sums two codes of one scale and shifts, and an op that requantizes may write int16
// codes (an int16 output quantize: the VPU's Q3.12 output).
//
// Errors (typed, naming the node; the input graph is never changed): a graph that is not converted
// (observers left, or no quantize / dequantize at all) — ValueError; a pattern whose activations are not
// the backend's dtype, a weight that is not int8 with zero point 0, max_pool2d / cat / flatten whose
// input and output qparams differ — ValueError; a shape the kernels do not run (dilation, ceil_mode,
// adaptive pooling to more than 1×1, an add scale ratio XNNPACK rejects) — NotImplementedError.
#pragma once
#include <string>
#include <vector>

#include "graph/graph.h"
#include "kernels/kernels.h"

namespace pt {

enum class LowerBackend { xnnpack, x86 };
const char* backend_name(LowerBackend b);     // "xnnpack", "x86"
LowerBackend backend_from_name(const std::string& name);  // ValueError for another name

// The requantization kinds by name (kernels.h RequantKind), the one list the engine, the bindings and the views
// read: "fp32", "fixed_point", "shift", "shift_even" (what LowerOptions.requantization may ask for) and
// "f32_output" (the float output stage, lowering's own choice for an x86 conv / linear with a float output).
const std::vector<std::string>& requant_names();                 // in RequantKind order
const char* requant_name(kernels::RequantKind kind);             // ValueError for a value outside the enum
kernels::RequantKind requant_from_name(const std::string& name);  // ValueError naming the known names
std::string quoted_requant_names();  // "'fp32', 'fixed_point', ..., 'f32_output'": the names as a message lists them

struct LowerOptions {
  LowerBackend backend = LowerBackend::xnnpack;
  kernels::RequantKind requantization = kernels::RequantKind::fp32;
};

// One call_function node of the converted graph and what lowering did with it.
struct PartitionNode {
  std::string name, target;
  bool delegated = false;
  std::string lowered_as;  // the int8 op's node that took it over ("" when not delegated)
  std::string reason;      // why a node stayed float ("" when delegated)
};

// ExecuTorch's DelegationBreakdown (devtools/backend_debug/delegation_info.py), plus the per-node table.
struct DelegationInfo {
  int num_delegated_subgraphs = 0;  // connected groups of int8 ops (what ExecuTorch fuses into one delegate call)
  int num_delegated_nodes = 0;      // call_function nodes of the converted graph taken over
  int num_non_delegated_nodes = 0;  // call_function nodes left in the lowered graph
  std::vector<PartitionNode> nodes;  // every call_function node of the converted graph, in order
};

struct Lowered {
  GraphModule gm;
  DelegationInfo report;
};

Lowered lower(const GraphModule& converted, const LowerOptions& options = {});

}  // namespace pt
