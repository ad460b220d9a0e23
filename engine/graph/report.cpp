// report.cpp — op counts and diffs, text listing, view data and the annotation / observer tables.
#include "graph/report.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "core/error.h"
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"

namespace pt {

std::string Table::to_markdown() const {
  auto line = [](const std::vector<std::string>& cells) {
    std::string s = "|";
    for (const auto& c : cells) s += " " + c + " |";
    return s + "\n";
  };
  std::string out = line(headers);
  out += "|";
  for (size_t i = 0; i < headers.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : rows) out += line(r);
  return out;
}

std::string short_target(const std::string& target) {
  size_t a = target.find('.'), b = target.rfind('.');
  if (a == std::string::npos) return target;
  if (a == b) return target.substr(a + 1);  // "operator.getitem" -> "getitem"
  return target.substr(a + 1, b - a - 1);
}

std::string fmt_g4(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string op_key(const GraphModule& gm, const Node& node) {
  if (node.op == OpKind::call_function) return short_target(node.target);
  if (node.op == OpKind::call_module) {
    SubModule* m = gm.get_module(node.target);
    return "<module:" + (m ? m->type_name() : std::string("?")) + ">";
  }
  return "";
}

std::map<std::string, int64_t> count_ops(const GraphModule& gm) {
  std::map<std::string, int64_t> counts;
  for (const Node* n : gm.graph.nodes()) {
    std::string k = op_key(gm, *n);
    if (!k.empty()) ++counts[k];
  }
  return counts;
}

std::vector<OpDiffRow> diff_ops(const GraphModule& a, const GraphModule& b) {
  auto ca = count_ops(a), cb = count_ops(b);
  std::map<std::string, OpDiffRow> rows;
  for (const auto& [k, v] : ca) rows[k].a = v;
  for (const auto& [k, v] : cb) rows[k].b = v;
  std::vector<OpDiffRow> out;
  for (auto& [k, r] : rows) {
    r.op = k;
    r.delta = r.b - r.a;
    out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const OpDiffRow& x, const OpDiffRow& y) { return (x.delta != 0) > (y.delta != 0); });
  return out;
}

Table diff_ops_table(const std::vector<OpDiffRow>& rows, const std::string& name_a, const std::string& name_b) {
  Table t{{"op", name_a, name_b, "delta"}, {}};
  for (const auto& r : rows)
    t.rows.push_back({r.op, std::to_string(r.a), std::to_string(r.b), std::to_string(r.delta)});
  return t;
}

std::vector<std::string> meta_keys(const Node& node) {
  std::vector<std::string> keys;
  if (!node.meta.custom.empty()) keys.push_back("custom");
  if (node.op == OpKind::call_function || node.op == OpKind::call_module) keys.push_back("nn_module_stack");
  if (node.meta.quantization_annotation) keys.push_back("quantization_annotation");
  if (node.meta.val) keys.push_back("val");
  return keys;  // already sorted
}

std::string graph_to_string(const Graph& graph) {
  std::string s = "graph():\n";
  for (const Node* n : graph.nodes()) {
    if (n->op == OpKind::output) {
      s += "    return (";
      const auto& ins = n->all_input_nodes();
      for (size_t i = 0; i < ins.size(); ++i) s += (i ? ", " : "") + ins[i]->name;
      s += ins.size() == 1 ? ",)\n" : ")\n";
      continue;
    }
    s += "    %" + n->name + " : [num_users=" + std::to_string(n->users().size()) + "] = " + op_kind_name(n->op);
    if (n->op == OpKind::call_function) {
      const bool aten = n->target.rfind("aten.", 0) == 0 || n->target.rfind("quantized_decomposed.", 0) == 0;
      s += "[target=" + (aten ? "torch.ops." + n->target : n->target == target::getitem ? "operator.getitem" : n->target) + "]";
    } else {
      s += "[target=" + n->target + "]";
    }
    if (n->op == OpKind::call_function || n->op == OpKind::call_module) {
      s += "(args = (";
      for (size_t i = 0; i < n->args().size(); ++i) s += (i ? ", " : "") + n->args()[i].str();
      s += n->args().size() == 1 ? ",), kwargs = {})" : "), kwargs = {})";
    }
    s += "\n";
  }
  return s;
}

namespace {
std::vector<std::string> annotation_lines(const Node& n) {
  std::vector<std::string> out;
  const auto& a = n.meta.quantization_annotation;
  if (!a) return out;
  for (const auto& [in, label] : a->input_spec_labels()) out.push_back("in " + in + ": " + label);
  out.push_back("out: " + a->output_spec_label());
  return out;
}

// The qparams a node stands for, as its hover shows them: an observer (or fake quant) module's as it
// would compute them now (describe(), as observer_placement_table shows), a quantize / dequantize
// node's from its arguments (qdq_args): literals per tensor, the scale / zero point attributes per
// channel, nodes computed at run time for the .tensor overloads (dynamic quantization).
std::vector<std::string> qparam_lines(const GraphModule& gm, const Node& n) {
  if (n.op == OpKind::call_module) {
    const SubModule* m = gm.get_module(n.target);
    const std::string d = m ? m->describe() : "";
    if (d.empty() || d == "-") return {};
    return {"qparams: " + d};
  }
  const std::optional<QDQArgs> a = qdq_args(n);
  if (!a) return {};
  const std::string grid = std::string(dtype_name(a->dtype)) + " [" + std::to_string(a->quant_min) + ", " +
                           std::to_string(a->quant_max) + "]";
  if (!a->axis) {
    const auto* scale = std::get_if<double>(&a->scale.v);
    const auto* zp = std::get_if<int64_t>(&a->zero_point.v);
    if (!scale || !zp) return {"qparams: computed per batch (dynamic), " + grid};
    return {"qparams: scale=" + fmt_g4(*scale) + " zp=" + std::to_string(*zp) + ", " + grid};
  }
  const Node* scales = a->scale.node();
  if (!scales || scales->op != OpKind::get_attr) return {};
  const Tensor s = gm.get_tensor(scales->target).to(DType::Float32);
  const std::span<const float> v = s.span<float>();
  if (v.empty()) return {};
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {"qparams: per-channel, axis " + std::to_string(*a->axis) + ", " + std::to_string(v.size()) +
          " scales in [" + fmt_g4(*lo) + ", " + fmt_g4(*hi) + "], " + grid};
}
}  // namespace

GraphView graph_view(const GraphModule& gm, const std::map<std::string, double>& node_values) {
  GraphView v;
  std::unordered_map<const Node*, int> index;
  for (const Node* n : gm.graph.nodes()) index.emplace(n, static_cast<int>(index.size()));
  std::vector<std::pair<int, int>> links;  // v.edges by node index, for the layers
  for (const Node* n : gm.graph.nodes()) {
    ViewNode vn;
    vn.name = n->name;
    vn.op = op_kind_name(n->op);
    vn.target = n->target;
    vn.kind = node_kind(*n);
    vn.is_observer = vn.kind == NodeKind::observer;
    if (n->op == OpKind::call_module) {
      SubModule* m = gm.get_module(n->target);
      vn.label = m ? m->type_name() : n->target;
    } else if (n->op == OpKind::call_function) {
      vn.label = short_target(n->target);
    } else {
      vn.label = n->op == OpKind::get_attr ? n->target : n->name;
    }
    if (n->meta.val) {
      vn.shape = n->meta.val->shape;
      vn.dtype = dtype_name(n->meta.val->dtype);
    }
    const auto& args = n->args();
    for (size_t i = 0; i < args.size(); ++i) {
      std::vector<Node*> ins;
      if (Node* in = args[i].node()) ins.push_back(in);
      if (auto* ns = std::get_if<std::vector<Node*>>(&args[i].v)) ins = *ns;
      for (Node* in : ins) {
        v.edges.push_back({in->name, n->name, static_cast<int64_t>(i), in->meta.val ? shape_str(in->meta.val->shape) : ""});
        links.emplace_back(index.at(in), index.at(n));
      }
    }
    vn.annotations = annotation_lines(*n);
    vn.qparams = qparam_lines(gm, *n);
    auto it = node_values.find(n->name);
    if (it != node_values.end()) {
      vn.has_value = true;
      vn.value = it->second;
    }
    v.nodes.push_back(std::move(vn));
  }
  const std::vector<int> layers = longest_path_layers(static_cast<int>(v.nodes.size()), links);
  for (size_t i = 0; i < v.nodes.size(); ++i) v.nodes[i].layer = layers[i];
  return v;
}

std::vector<int> longest_path_layers(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<std::vector<int>> succ(n);
  std::vector<int> indegree(n, 0);
  for (auto [a, b] : edges) {
    if (a < 0 || a >= n || b < 0 || b >= n)
      throw ValueError("longest_path_layers: edge (" + std::to_string(a) + ", " + std::to_string(b) +
                       ") names a node outside 0.." + std::to_string(n - 1));
    succ[a].push_back(b);
    ++indegree[b];
  }
  // Kahn's walk: a node is placed once all its inputs are, one layer below the deepest of them.
  std::vector<int> layer(n, 0), ready;
  for (int v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push_back(v);
  int placed = 0;
  while (!ready.empty()) {
    const int v = ready.back();
    ready.pop_back();
    ++placed;
    for (int w : succ[v]) {
      layer[w] = std::max(layer[w], layer[v] + 1);
      if (--indegree[w] == 0) ready.push_back(w);
    }
  }
  if (placed != n) throw ValueError("longest_path_layers: the edges form a cycle");
  return layer;
}

std::vector<Node*> observer_nodes(const GraphModule& gm) {
  std::vector<Node*> out;
  for (Node* n : gm.graph.nodes())
    if (n->op == OpKind::call_module) out.push_back(n);
  return out;
}

std::vector<Node*> qdq_nodes(const GraphModule& gm) {
  std::vector<Node*> out;
  for (Node* n : gm.graph.nodes()) {
    const NodeKind k = node_kind(*n);
    if (k == NodeKind::quantize || k == NodeKind::dequantize) out.push_back(n);
  }
  return out;
}

Table annotation_table(const GraphModule& gm) {
  Table t{{"node", "target", "input_qspec_map", "output_qspec"}, {}};
  for (const Node* n : gm.graph.nodes()) {
    const auto& a = n->meta.quantization_annotation;
    if (!a) continue;
    std::string inputs;
    for (const auto& [in, label] : a->input_spec_labels()) inputs += (inputs.empty() ? "" : ", ") + in + ":" + label;
    t.rows.push_back({n->name, n->op == OpKind::call_function ? short_target(n->target) : n->target,
                      inputs.empty() ? "-" : inputs, a->output_spec_label()});
  }
  return t;
}

std::vector<Node*> unannotated_ops(const GraphModule& gm) {
  std::vector<Node*> out;
  for (Node* n : gm.graph.nodes()) {
    if (n->op != OpKind::call_function) continue;
    const auto& a = n->meta.quantization_annotation;
    if (!a || !a->annotated()) out.push_back(n);
  }
  return out;
}

Table observer_placement_table(const GraphModule& gm) {
  Table t{{"observer", "type", "input from", "output to", "qparams"}, {}};
  for (const Node* n : observer_nodes(gm)) {
    SubModule* m = gm.get_module(n->target);
    const auto ins = n->all_input_nodes();
    std::string users;
    for (const Node* u : n->users()) users += (users.empty() ? "" : ", ") + u->name;
    t.rows.push_back({n->name, m ? m->type_name() : "?", ins.empty() ? "-" : ins[0]->name, users.empty() ? "-" : users,
                      m ? m->describe() : ""});
  }
  return t;
}

}  // namespace pt
