// numeric_debugger.h — torchao's numeric debugger (quantization/pt2e/_numeric_debugger.py): tag each node of
// an exported model with a numeric debug handle, log every tagged node's output in the float model and in
// its quantized version, and compare the two node by node (SQNR, MSE).
//
//   pt::generate_numeric_debug_handle(exported);                       // node.meta["custom"]["numeric_debug_handle"]
//   pt::GraphModule ref = pt::prepare_for_propagation_comparison(float_model);   // a copy with OutputLoggers
//   ref.forward({x});
//   pt::GraphModule act = pt::prepare_for_propagation_comparison(converted);     // converted_pt2e(prepare_pt2e(exported))
//   act.forward({x});
//   auto cmp = pt::compare_results(pt::extract_results_from_loggers(ref), pt::extract_results_from_loggers(act));
//   for (auto& [handle, s] : cmp) s.ref_node_name, s.results[0].sqnr(), s.results[0].mse_loss();
//
// Handles. generate_numeric_debug_handle (in place) gives every node but placeholders, outputs and get_attr
// nodes (an ExportedProgram's parameters are placeholders: torchao's loop never sees them) an int handle in
// node.meta["custom"]["numeric_debug_handle"], unique in the graph: numbering starts after the largest
// handle already there (at 1 in a fresh graph), in graph order, and keeps existing ones. The passes carry
// meta.custom as torchao 0.18 carries a node's provenance (its FROM_NODE_KEY "from_node", which 0.18 keys the
// debugger on instead of the handle; graph/graph.h): prepare_pt2e copies a node's to its output observer,
// convert_pt2e an observer's to the quantize and dequantize nodes it becomes, DuplicateDQPass to the copies,
// clone() everywhere; a folded batch norm disappears and its conv keeps its own handle. So after convert the
// op and the q / dq nodes of its output all carry the handle of the op they came from.
// Compare against the float model with its batch norms folded (graph/passes.h fold_bn), as prepare_pt2e
// folds them: in the unfolded model a conv's handle names the value before batch norm (torchao has the
// same trap).
//
// prepare_for_propagation_comparison(model) returns a copy in which every node that has a handle and one
// tensor output (meta.val) gets an OutputLogger right after it: a call_module node named
// "<node>_logger<i>" (torchao's get_new_attr_name_with_prefix: the first free i from 0) that every former
// user of the node now reads (the output node too). A logger records each tensor it sees (sharing storage,
// as x.detach()) and returns it unchanged, so the copy computes what the model computes. (torchao also logs
// tuple outputs; the engine's tuple outputs, choose_qparams, are not logged.)
// extract_results_from_loggers(model): handle -> (node name, nn_module_stack, the recorded tensors), for
// loggers that recorded something; when several loggers share a handle (an op and its q / dq after convert)
// the last one in graph order wins, as torchao's dict assignment does — after convert that is the
// dequantize: the op's output as the quantized model passes it on.
// compare_results(ref, actual): for each handle of ref also in actual, one QuantizationComparisonResult per
// recorded pair (zip of the two lists: one per forward call), with
//   sqnr()     = compute_sqnr(actual, ref) = 20·log10(‖actual‖ / ‖actual − ref‖) (torch.ao.ns.fx.utils; the
//                signal is the actual value; quant/quantize.h pt::sqnr), +inf when they are equal,
//   mse_loss() = F.mse_loss(actual, ref) = mean((actual − ref)²),
// both on float32 copies (an int8 q output is compared by value). Handles missing from actual are skipped.
// ValueError naming the handle and both node names when two recorded tensors differ in shape.
// NodeAccuracySummary's module stacks are strings: the innermost nn_module_stack entry's module path ("conv1"),
// "" for a node outside any module. torchao 0.18 keys the maps by NodeSourceDebugInfo (name, graph_id) and
// names the field debug_info; the engine keys them by handle, the earlier torchao API (`handle`).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace pt {

inline constexpr char NUMERIC_DEBUG_HANDLE_KEY[] = "numeric_debug_handle";
inline constexpr char CUSTOM_KEY[] = "custom";

void generate_numeric_debug_handle(GraphModule& gm);
// The node's handle, or nullopt when it has none (or a non-int value under the key).
std::optional<int64_t> numeric_debug_handle(const Node& n);

class OutputLogger : public SubModule {
 public:
  OutputLogger(int64_t debug_handle, std::string node_name, std::vector<ModuleFrame> nn_module_stack)
      : debug_handle(debug_handle), node_name(std::move(node_name)), nn_module_stack(std::move(nn_module_stack)) {}
  std::string type_name() const override { return "OutputLogger"; }
  Tensor forward(const Tensor& x) override {
    stats.push_back(x);
    return x;
  }
  std::string describe() const override;  // "debug_handle=3, node_name=conv2d, num_stats=2"
  std::shared_ptr<SubModule> clone() const override { return std::make_shared<OutputLogger>(*this); }

  int64_t debug_handle;
  std::string node_name;
  std::vector<ModuleFrame> nn_module_stack;
  std::vector<Tensor> stats;
};

GraphModule prepare_for_propagation_comparison(const GraphModule& model);

struct LoggedNode {
  std::string node_name;
  std::vector<ModuleFrame> nn_module_stack;
  std::vector<Tensor> stats;
};
using NumericResults = std::map<int64_t, LoggedNode>;  // by handle
NumericResults extract_results_from_loggers(const GraphModule& model);

struct QuantizationComparisonResult {
  Tensor actual, ref;
  double sqnr() const;
  double mse_loss() const;
};

struct NodeAccuracySummary {
  int64_t handle = 0;
  std::string actual_node_name, actual_module_stack, ref_node_name, ref_module_stack;
  std::vector<QuantizationComparisonResult> results;
};
std::map<int64_t, NodeAccuracySummary> compare_results(const NumericResults& ref_results,
                                                       const NumericResults& actual_results);

}  // namespace pt
