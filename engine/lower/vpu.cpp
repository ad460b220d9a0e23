// vpu.cpp — simulate_vpu (vpu.h): lower() with shift_even requantization, then every node that stayed
// float must be the boundary (the input's quantize, the output's dequantize).
#include "lower/vpu.h"

#include <algorithm>

#include "graph/targets.h"

namespace pt {

namespace {

// The float nodes an integer-only graph keeps: a quantize of a placeholder, a dequantize the output reads.
bool is_boundary(const Node* n) {
  if (node_kind(*n) == NodeKind::quantize) {
    const Node* in = arg_node(n, 0);
    return in && in->op == OpKind::placeholder;
  }
  if (node_kind(*n) == NodeKind::dequantize) {
    const auto& users = n->users();
    return !users.empty() && std::all_of(users.begin(), users.end(), [](const Node* u) { return u->op == OpKind::output; });
  }
  return false;
}

}  // namespace

Lowered simulate_vpu(const GraphModule& converted) {
  Lowered sim = lower(converted, {LowerBackend::xnnpack, kernels::RequantKind::shift_even});
  // The first float op named first (the dequantize before it stays float because of it), then anything else.
  std::vector<const Node*> left;
  for (const Node* n : sim.gm.graph.nodes())
    if (n->op == OpKind::call_function && node_kind(*n) != NodeKind::delegate && !is_boundary(n)) left.push_back(n);
  std::stable_partition(left.begin(), left.end(), [](const Node* n) { return node_kind(*n) == NodeKind::op; });
  for (const Node* n : left) {
    const auto it = std::find_if(sim.report.nodes.begin(), sim.report.nodes.end(),
                                 [&](const PartitionNode& p) { return p.name == n->name; });
    const std::string why = it != sim.report.nodes.end() && !it->reason.empty() ? it->reason : "not part of a lowered pattern";
    throw NotImplementedError("simulate_vpu: node " + n->name + " (" + n->target + ") stays float: " + why +
                              "; the VPU runs integer ops only");
  }
  return sim;
}

}  // namespace pt
