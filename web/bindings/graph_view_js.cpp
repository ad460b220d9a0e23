// graph_view_js.cpp — pt::GraphView to plain JS data and back (graph_view_js.h).
#include "graph_view_js.h"

#include <cmath>

#include "common.h"
#include "spec_reader.h"

using emscripten::val;

namespace ptjs {

namespace {

// The kind named by node_kind_name(); NodeKind's values run from placeholder to output.
pt::NodeKind kind_from_js(const std::string& name, const std::string& where) {
  std::string known;
  for (int k = 0; k <= static_cast<int>(pt::NodeKind::output); ++k) {
    const char* candidate = pt::node_kind_name(static_cast<pt::NodeKind>(k));
    if (name == candidate) return static_cast<pt::NodeKind>(k);
    known += (known.empty() ? "" : ", ") + std::string(candidate);
  }
  throw pt::ValueError(where + ".kind must be one of " + known + ", got '" + name + "'");
}

pt::ViewNode node_from_js(const val& n, const std::string& where) {
  using namespace spec;
  require_object(n, where);
  pt::ViewNode d;
  d.name = string_or(n, "name", where);
  d.op = string_or(n, "op", where);
  const std::string kind = string_or(n, "kind", where);
  if (!kind.empty()) d.kind = kind_from_js(kind, where);
  d.target = string_or(n, "target", where);
  d.label = string_or(n, "label", where);
  for (double v : numbers(n, "shape", true, where)) {
    if (!std::isfinite(v) || v < 0 || v != std::floor(v))
      throw pt::ValueError(where + ".shape must hold sizes (integers >= 0)");
    d.shape.push_back(static_cast<int64_t>(v));
  }
  d.dtype = string_or(n, "dtype", where);
  d.layer = integer(n, "layer", -1, where);
  d.is_observer = n["is_observer"].isTrue();
  d.annotations = strings(n, "annotations", where);
  d.qparams = strings(n, "details", where);
  // One way to colour nodes: the view's metric (web/views/graph_metric.h), not a value per stage node.
  if (!absent(n["value"]))
    throw pt::ValueError(where + " has a 'value': a graph view colours nodes by its spec's metric, { metric: { name, unit, values: { '" +
                         d.name + "': " + std::to_string(number_or(n, "value", 0, where)) + " } } }");
  return d;
}

pt::ViewEdge edge_from_js(const val& e, const std::string& where) {
  using namespace spec;
  require_object(e, where);
  return {string_or(e, "from", where), string_or(e, "to", where), integer(e, "arg_index", 0, where), string_or(e, "label", where)};
}

}  // namespace

val graph_view_to_js(const pt::GraphView& v) {
  val nodes = val::array();
  for (const pt::ViewNode& n : v.nodes) {
    val o = val::object();
    o.set("name", n.name);
    o.set("op", n.op);
    o.set("kind", std::string(pt::node_kind_name(n.kind)));
    o.set("target", n.target);
    o.set("label", n.label);
    o.set("shape", shape_to_js(n.shape));
    o.set("dtype", n.dtype);
    o.set("layer", static_cast<double>(n.layer));
    o.set("is_observer", n.is_observer);
    o.set("annotations", strings_to_js(n.annotations));
    o.set("details", strings_to_js(n.qparams));
    if (n.has_value) o.set("value", n.value);
    nodes.call<void>("push", o);
  }
  val edges = val::array();
  for (const pt::ViewEdge& e : v.edges) {
    val o = val::object();
    o.set("from", e.from);
    o.set("to", e.to);
    o.set("arg_index", static_cast<double>(e.arg_index));
    o.set("label", e.label);
    edges.call<void>("push", o);
  }
  val out = val::object();
  out.set("nodes", nodes);
  out.set("edges", edges);
  return out;
}

pt::GraphView graph_view_from_js(const val& data, const std::string& where) {
  spec::require_object(data, where);
  pt::GraphView v;
  spec::each(data, "nodes", false, where, [&](const val& n, const std::string& w) { v.nodes.push_back(node_from_js(n, w)); });
  spec::each(data, "edges", false, where, [&](const val& e, const std::string& w) { v.edges.push_back(edge_from_js(e, w)); });
  return v;
}

}  // namespace ptjs
