// report.h — the tables, printouts and view data that lessons, tests and the frontend share.
//
// Functions here only read a GraphModule. Names follow the seed notebooks' helpers:
//
//   auto rows = pt::diff_ops(gm, prepared);            // [{op: "batch_norm", a: 2, b: 0, delta: -2}, ...]
//   std::cout << pt::diff_ops_table(rows, "export", "prepare").to_markdown();
//   std::cout << pt::graph_to_string(gm.graph);       // torch.fx-style listing
//   pt::GraphView v = pt::graph_view(gm);              // nodes, edges, layers, labels, values
//   pt::observer_nodes(prepared); pt::qdq_nodes(converted);
//   pt::annotation_table(annotated); pt::unannotated_ops(annotated); pt::observer_placement_table(prepared);
//
// An op's key is its target without namespace and overload (aten.conv2d.default -> "conv2d",
// quantized_decomposed.dequantize_per_tensor.default -> "dequantize_per_tensor"); a call_module
// node counts as "<module:" + its submodule's type + ">", e.g. "<module:HistogramObserver>".
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "graph/targets.h"

namespace pt {

// A plain table: the frontend renders HTML from it, tests read cells.
struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::string to_markdown() const;
};

std::string short_target(const std::string& target);

// A number as tables and hovers show it: "%.4g" (a module's describe(), a q / dq node's qparams).
std::string fmt_g4(double v);
std::string op_key(const GraphModule& gm, const Node& node);  // "" for placeholder / get_attr / output

// Counts of call_function / call_module nodes by op key.
std::map<std::string, int64_t> count_ops(const GraphModule& gm);

struct OpDiffRow {
  std::string op;
  int64_t a = 0, b = 0, delta = 0;  // delta = b - a
};
// Every op present in either graph; changed rows first, each group sorted by op key (the seed's order).
std::vector<OpDiffRow> diff_ops(const GraphModule& a, const GraphModule& b);
Table diff_ops_table(const std::vector<OpDiffRow>& rows, const std::string& name_a = "a",
                     const std::string& name_b = "b");

// Sorted keys of node.meta as torch would list them (seed M01-2: sorted(cat_node.meta)): "custom" when
// something is in it, "nn_module_stack" on call_function / call_module nodes, "quantization_annotation" when set, "val"
// when shape propagation filled it. There is never a "source_fn_stack".
std::vector<std::string> meta_keys(const Node& node);

// torch.fx-style text: one line per node, then "return (...)".
std::string graph_to_string(const Graph& graph);

// View data: what the graph view (web/views/graph_view.h) draws, as graph_view() gives it. The page
// sees the same fields as plain data (gm.graph_view(): web/bindings/graph_view_js.h).
struct ViewNode {
  std::string name, op, target;
  NodeKind kind = NodeKind::op;          // node_kind(): what the view styles and filters by
  std::string label;                     // short op / module type / attribute target
  Shape shape;                           // from meta.val (empty when unknown)
  std::string dtype;                     // "" when unknown
  int64_t layer = -1;                    // longest_path_layers(): the row it is drawn in; -1 when not known
  bool is_observer = false;              // call_module nodes (kind observer: drawn green)
  std::vector<std::string> annotations;  // "in x: Spec", "out: Spec" when annotated
  std::vector<std::string> qparams;      // hover lines: an observer's qparams (its describe()), a q / dq node's
  bool has_value = false;
  double value = 0.0;                    // per-node metric given by the caller (e.g. SQNR)
};
struct ViewEdge {
  std::string from, to;
  int64_t arg_index = 0;  // which argument of `to`
  std::string label;      // the producer's shape, e.g. "[4, 8, 16, 16]"
};
struct GraphView {
  std::vector<ViewNode> nodes;
  std::vector<ViewEdge> edges;
};
GraphView graph_view(const GraphModule& gm, const std::map<std::string, double>& node_values = {});

// Each node's layer, given edges (from, to) between nodes 0..n-1: the longest path to it from a node
// without inputs (0 for those), so every edge goes down at least one layer. ValueError when an edge
// names a node outside 0..n-1 or the edges form a cycle.
std::vector<int> longest_path_layers(int n, const std::vector<std::pair<int, int>>& edges);

// Observer / fake-quant nodes (call_module), in graph order.
std::vector<Node*> observer_nodes(const GraphModule& gm);
// quantize_per_tensor / dequantize_per_tensor / quantize_per_channel / dequantize_per_channel nodes.
std::vector<Node*> qdq_nodes(const GraphModule& gm);
// One row per annotated node: node | target | input_qspec_map | output_qspec (seed M01-2 layout).
Table annotation_table(const GraphModule& gm);
// call_function nodes without an `_annotated` annotation.
std::vector<Node*> unannotated_ops(const GraphModule& gm);
// One row per observer: observer | type | input from | output to | qparams (submodule describe()).
Table observer_placement_table(const GraphModule& gm);

}  // namespace pt
