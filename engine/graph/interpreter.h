// interpreter.h — runs a GraphModule node by node, and the one target table it dispatches on.
//
// The op table maps a call_function target (graph/targets.h: target::conv2d, target::getitem, ...) to
// a small function over runtime Values. It holds every op the engine runs from start-up: the aten
// float ops of engine/ops and the quantized_decomposed ops (graph/quantized_decomposed.h, over
// engine/quant). register_op adds or replaces a target (a test's own op) — this table is the graph
// room's one documented global. call_module nodes run GraphModule submodules (observers).
//
//   std::vector<pt::Tensor> out = pt::run_graph(gm, {x});
//   pt::run_graph(gm, {x}, [](const pt::Node& n, const pt::Value& v) { ... });  // per-node hook
//   pt::propagate_shapes(gm, {x});                                               // fills meta.val
//   std::vector<pt::Value> v = pt::evaluate_constants(gm, {q});                   // constant folding
//
// Errors raised by an op come back as the same typed error with "node <name> (<target>): " in front;
// an unknown target is a NotImplementedError naming the node.
#pragma once
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "graph/graph.h"

namespace pt {

// A runtime value: None, a tensor, a tuple of tensors (multi-output ops), or a constant argument.
struct Value {
  using Variant = std::variant<std::monostate, Tensor, std::vector<Tensor>, int64_t, double, bool,
                               std::vector<int64_t>>;
  Variant v;
  Value() = default;
  Value(Tensor t) : v(std::move(t)) {}
  Value(std::vector<Tensor> ts) : v(std::move(ts)) {}
  Value(Variant var) : v(std::move(var)) {}
  bool is_none() const { return std::holds_alternative<std::monostate>(v); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(v); }
};

// Argument access for op functions: index `i` of the node's args, with torch's default when the
// argument was omitted. Wrong kinds raise TypeError naming the argument index.
struct OpArgs {
  const std::vector<Value>& values;
  const Node& node;
  bool has(size_t i) const { return i < values.size() && !values[i].is_none(); }
  const Tensor& tensor(size_t i) const;
  std::optional<Tensor> optional_tensor(size_t i) const;
  const std::vector<Tensor>& tensors(size_t i) const;
  int64_t integer(size_t i, std::optional<int64_t> dflt = std::nullopt) const;
  double number(size_t i, std::optional<double> dflt = std::nullopt) const;  // int or float
  bool boolean(size_t i, std::optional<bool> dflt = std::nullopt) const;
  std::vector<int64_t> ints(size_t i, std::optional<std::vector<int64_t>> dflt = std::nullopt) const;
};

using OpFn = std::function<Value(const OpArgs& args)>;

// Adds or replaces the function for a target.
void register_op(const std::string& target, OpFn fn);
const OpFn* find_op(const std::string& target);  // nullptr when unknown
std::vector<std::string> registered_targets();

using NodeHook = std::function<void(const Node& node, const Value& value)>;

// Runs the graph on `inputs` (one per placeholder, in order); returns the output node's tensors.
// `on_node` (optional) sees every node's value right after it is computed.
std::vector<Tensor> run_graph(GraphModule& gm, const std::vector<Tensor>& inputs, const NodeHook& on_node = nullptr);

// Evaluates `nodes` and what they read, which must be get_attr nodes and call_functions of such nodes
// (a placeholder or submodule among them is a ValueError), through the same op table; returns their
// values in the order asked. Constant folding (convert_pt2e's fold_quantize) runs on this.
std::vector<Value> evaluate_constants(const GraphModule& gm, const std::vector<const Node*>& nodes);

// Runs the graph and records each node's output shape and dtype in meta.val (tuple outputs and
// None leave it empty).
void propagate_shapes(GraphModule& gm, const std::vector<Tensor>& inputs);

}  // namespace pt
