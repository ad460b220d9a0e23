// numeric_debugger.cpp — handles, OutputLogger, and the comparison (see numeric_debugger.h).
#include "pt2e/numeric_debugger.h"

#include <algorithm>

#include "graph/targets.h"
#include "quant/quantize.h"

namespace pt {

namespace {

bool gets_handle(const Node& n) {
  return n.op != OpKind::placeholder && n.op != OpKind::output && n.op != OpKind::get_attr;
}

// torchao utils.get_new_attr_name_with_prefix: prefix + the first i (from 0) not yet a module or attribute.
std::string new_attr_name(const GraphModule& gm, const std::string& prefix) {
  for (int i = 0;; ++i) {
    const std::string name = prefix + std::to_string(i);
    if (!gm.get_module(name) && !gm.has_tensor(name) && !gm.graph.find(name)) return name;
  }
}

std::string module_stack_str(const std::vector<ModuleFrame>& stack) { return stack.empty() ? "" : stack.back().fqn; }

Tensor as_float(const Tensor& t) { return t.dtype() == DType::Float32 ? t : t.to(DType::Float32); }

}  // namespace

std::optional<int64_t> numeric_debug_handle(const Node& n) {
  auto it = n.meta.custom.find(NUMERIC_DEBUG_HANDLE_KEY);
  if (it == n.meta.custom.end()) return std::nullopt;
  if (const auto* h = std::get_if<int64_t>(&it->second)) return *h;
  return std::nullopt;
}

void generate_numeric_debug_handle(GraphModule& gm) {
  int64_t unique_id = 0;
  for (const Node* n : gm.graph.nodes())
    if (gets_handle(*n)) unique_id = std::max(unique_id, numeric_debug_handle(*n).value_or(0));
  ++unique_id;
  for (Node* n : gm.graph.nodes())
    if (gets_handle(*n) && !n->meta.custom.count(NUMERIC_DEBUG_HANDLE_KEY))
      n->meta.custom[NUMERIC_DEBUG_HANDLE_KEY] = unique_id++;
}

std::string OutputLogger::describe() const {
  return "debug_handle=" + std::to_string(debug_handle) + ", node_name=" + node_name +
         ", num_stats=" + std::to_string(stats.size());
}

GraphModule prepare_for_propagation_comparison(const GraphModule& model) {
  GraphModule gm = model.clone();
  for (Node* n : gm.graph.nodes()) {
    const std::optional<int64_t> handle = numeric_debug_handle(*n);
    if (!handle || !gets_handle(*n) || !n->meta.val) continue;
    const std::string name = new_attr_name(gm, n->name + "_logger");
    gm.add_module(name, std::make_shared<OutputLogger>(*handle, n->name, n->meta.nn_module_stack));
    Node* logger = gm.graph.insert_after(n, OpKind::call_module, name, {n}, name);
    logger->meta.val = n->meta.val;
    gm.graph.replace_all_uses_with(n, logger, [logger](Node* user) { return user != logger; });
  }
  gm.graph.lint();
  return gm;
}

NumericResults extract_results_from_loggers(const GraphModule& model) {
  NumericResults out;
  for (const auto& [name, module] : model.modules())
    if (const auto* logger = dynamic_cast<const OutputLogger*>(module.get()); logger && !logger->stats.empty())
      out[logger->debug_handle] = {logger->node_name, logger->nn_module_stack, logger->stats};
  return out;
}

double QuantizationComparisonResult::sqnr() const { return pt::sqnr(as_float(actual), as_float(ref)); }

double QuantizationComparisonResult::mse_loss() const {
  const Tensor a = as_float(actual), r = as_float(ref);
  double sum = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double d = static_cast<double>(a.data<float>()[i] - r.data<float>()[i]);
    sum += d * d;
  }
  return static_cast<float>(a.numel() ? sum / static_cast<double>(a.numel()) : 0.0);
}

std::map<int64_t, NodeAccuracySummary> compare_results(const NumericResults& ref_results,
                                                       const NumericResults& actual_results) {
  std::map<int64_t, NodeAccuracySummary> out;
  for (const auto& [handle, ref] : ref_results) {
    auto it = actual_results.find(handle);
    if (it == actual_results.end()) continue;
    const LoggedNode& actual = it->second;
    NodeAccuracySummary s{handle, actual.node_name, module_stack_str(actual.nn_module_stack), ref.node_name,
                          module_stack_str(ref.nn_module_stack), {}};
    for (size_t i = 0; i < std::min(actual.stats.size(), ref.stats.size()); ++i) {
      if (actual.stats[i].shape() != ref.stats[i].shape())
        throw ValueError("For debug_handle=" + std::to_string(handle) + " from ref node " + ref.node_name +
                         " and actual node " + actual.node_name + ": Cannot compare tensors with different shapes: ref=" +
                         shape_str(ref.stats[i].shape()) + " vs actual=" + shape_str(actual.stats[i].shape()));
      s.results.push_back({actual.stats[i], ref.stats[i]});
    }
    out.emplace(handle, std::move(s));
  }
  return out;
}

}  // namespace pt
