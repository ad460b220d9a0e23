// bind_graph.cpp — Embind for engine/graph: the model zoo, export, GraphModule inspection and
// running, passes (fold_bn, DCE) and the report tables. Nodes cross as plain JS objects (a
// snapshot) with their kind (graph/targets.h node_kind) and meta (shape, dtype, nn_module_stack,
// custom, quantization_annotation); node arguments that are nodes appear as {node: name}.
#include <emscripten/bind.h>

#include "common.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/report.h"
#include "graph/targets.h"
#include "graph_handles.h"
#include "graph_view_js.h"

using emscripten::val;
using ptjs::GraphModuleHandle;
using ptjs::ModelHandle;
using ptjs::strings_to_js;
using pt::Tensor;

namespace {

val node_names(const std::vector<pt::Node*>& nodes) {
  val arr = val::array();
  for (const pt::Node* n : nodes) arr.call<void>("push", n->name);
  return arr;
}
val node_ref(const pt::Node* n) {
  val o = val::object();
  o.set("node", n->name);
  return o;
}
val arg_to_js(const pt::Arg& a) {
  return std::visit(
      [](const auto& x) -> val {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::monostate>) return val::null();
        else if constexpr (std::is_same_v<X, pt::Node*>) return node_ref(x);
        else if constexpr (std::is_same_v<X, std::vector<pt::Node*>>) {
          val arr = val::array();
          for (const pt::Node* n : x) arr.call<void>("push", node_ref(n));
          return arr;
        } else if constexpr (std::is_same_v<X, std::vector<int64_t>>) {
          val arr = val::array();
          for (int64_t i : x) arr.call<void>("push", static_cast<double>(i));
          return arr;
        } else if constexpr (std::is_same_v<X, int64_t>) return val(static_cast<double>(x));
        else return val(x);
      },
      a.v);
}
// meta.custom as a plain object: strings, booleans and numbers (an int64 crosses as a double).
val custom_to_js(const pt::CustomMeta& custom) {
  val o = val::object();
  for (const auto& entry : custom)
    std::visit(
        [&](const auto& x) {
          using X = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<X, int64_t>) o.set(entry.first, static_cast<double>(x));
          else o.set(entry.first, x);
        },
        entry.second);
  return o;
}
val node_to_js(const pt::GraphModule& gm, const pt::Node& n) {
  val o = val::object();
  o.set("name", n.name);
  o.set("op", std::string(pt::op_kind_name(n.op)));
  o.set("kind", std::string(pt::node_kind_name(pt::node_kind(n))));
  o.set("target", n.target);
  val args = val::array();
  for (const pt::Arg& a : n.args()) args.call<void>("push", arg_to_js(a));
  o.set("args", args);
  o.set("users", node_names(n.users()));
  val meta = val::object();
  if (n.meta.val) {
    meta.set("shape", ptjs::shape_to_js(n.meta.val->shape));
    meta.set("dtype", std::string(pt::dtype_name(n.meta.val->dtype)));
  }
  val stack = val::array();
  for (const pt::ModuleFrame& f : n.meta.nn_module_stack) {
    val fr = val::object();
    fr.set("fqn", f.fqn);
    fr.set("type", f.type);
    stack.call<void>("push", fr);
  }
  meta.set("nn_module_stack", stack);
  meta.set("custom", custom_to_js(n.meta.custom));
  if (const auto& ann = n.meta.quantization_annotation) {
    val a = val::object();
    val ins = val::array();
    for (const auto& [input, label] : ann->input_spec_labels()) {
      val e = val::object();
      e.set("input", input);
      e.set("spec", label);
      ins.call<void>("push", e);
    }
    a.set("input_qspec_map", ins);
    a.set("output_qspec", ann->output_spec_label());
    a.set("_annotated", ann->annotated());
    meta.set("quantization_annotation", a);
  }
  o.set("meta", meta);
  if (n.op == pt::OpKind::call_module)
    if (pt::SubModule* m = gm.get_module(n.target)) {
      o.set("module_type", m->type_name());
      o.set("module_describe", m->describe());
    }
  return o;
}
val table_to_js(const pt::Table& t) {
  val o = val::object();
  o.set("headers", ptjs::strings_to_js(t.headers));
  val rows = val::array();
  for (const auto& r : t.rows) rows.call<void>("push", ptjs::strings_to_js(r));
  o.set("rows", rows);
  return o;
}
// ---- zoo ----
val model_names() { return ptjs::strings_to_js(pt::model_names()); }
ModelHandle get_model(const std::string& name, const val& opts) {
  return ptjs::guarded([&] {
    pt::ModelOptions o;
    const bool has_opts = !opts.isUndefined() && !opts.isNull();
    if (has_opts && !opts["ch"].isUndefined()) o.ch = static_cast<int64_t>(opts["ch"].as<double>());
    if (has_opts && !opts["num_classes"].isUndefined()) o.num_classes = static_cast<int64_t>(opts["num_classes"].as<double>());
    return ModelHandle{std::make_shared<pt::Model>(pt::get_model(name, o))};
  });
}
val model_info(const ModelHandle& m) {
  return ptjs::guarded([&] {
    val o = val::object();
    o.set("name", m.get().name);
    o.set("class_name", m.get().class_name);
    o.set("input_shape", ptjs::shape_to_js(m.get().input_shape));
    return o;
  });
}
// A state dict as [{name, tensor (a copy), is_buffer?}].
val state_to_js(const std::vector<pt::NamedTensor>& state, bool with_is_buffer) {
  return ptjs::list_to_js(state, [&](const pt::NamedTensor& t) {
    val e = val::object();
    e.set("name", t.name);
    e.set("tensor", t.value.clone());
    if (with_is_buffer) e.set("is_buffer", t.is_buffer);
    return e;
  });
}
val model_state_dict(const ModelHandle& m) {
  return ptjs::guarded([&] { return state_to_js(m.get().state_dict(), false); });
}
GraphModuleHandle export_module(const ModelHandle& m, const val& inputs) {
  return ptjs::guarded([&] { return ptjs::own(pt::export_module(m.get(), ptjs::tensors_from_js(inputs))); });
}
val example_inputs(double batch) { return ptjs::guarded([&] { return ptjs::tensors_to_js(pt::example_inputs(batch)); }); }
// pt::calibration_batches(n, batch_size) with the default (3, 16, 16) images: [{x: float32 [b, 3, 16, 16], labels: int32 [b]}].
val calibration_batches(double n, double batch_size) {
  return ptjs::guarded([&] {
    val arr = val::array();
    for (const pt::Batch& b : pt::calibration_batches(n, batch_size)) {
      val e = val::object();
      e.set("x", b.x);
      e.set("labels", b.labels);
      arr.call<void>("push", e);
    }
    return arr;
  });
}

// ---- GraphModule ----
val gm_nodes(const GraphModuleHandle& h) {
  return ptjs::guarded([&] {
    val arr = val::array();
    for (const pt::Node* n : h.get().graph.nodes()) arr.call<void>("push", node_to_js(h.get(), *n));
    return arr;
  });
}
GraphModuleHandle gm_clone(const GraphModuleHandle& h) {
  return ptjs::guarded([&] { return ptjs::own(h.get().clone()); });
}
// node.meta["custom"][key] = value: a string, a boolean, a safe integer (int64) or another number (double);
// null removes the key. The JS side checks the value's type; an unknown node is a ValueError.
void gm_set_meta_custom(const GraphModuleHandle& h, const std::string& node, const std::string& key, const val& value) {
  ptjs::guarded([&] {
    pt::Node* n = h.get().graph.find(node);
    if (!n) throw pt::ValueError("set_meta_custom(): no node named '" + node + "' in the graph");
    const std::string type = value.typeOf().as<std::string>();
    if (value.isNull()) n->meta.custom.erase(key);
    else if (type == "string") n->meta.custom[key] = value.as<std::string>();
    else if (type == "boolean") n->meta.custom[key] = value.as<bool>();
    else if (val::global("Number").call<bool>("isSafeInteger", value)) n->meta.custom[key] = static_cast<int64_t>(value.as<double>());
    else n->meta.custom[key] = value.as<double>();
    return 0;
  });
}
std::string gm_code(const GraphModuleHandle& h) { return ptjs::guarded([&] { return pt::graph_to_string(h.get().graph); }); }
void gm_lint(const GraphModuleHandle& h) { ptjs::guarded([&] { h.get().graph.lint(); return 0; }); }
val gm_state_dict(const GraphModuleHandle& h) {
  return ptjs::guarded([&] { return state_to_js(h.get().state(), true); });
}
val gm_graph_view(const GraphModuleHandle& h, const val& values) {
  return ptjs::guarded([&] {
    std::map<std::string, double> vals;
    if (!values.isUndefined() && !values.isNull()) {
      const val keys = val::global("Object").call<val>("keys", values);
      for (unsigned i = 0; i < keys["length"].as<unsigned>(); ++i) {
        const std::string k = keys[i].as<std::string>();
        vals[k] = values[k].as<double>();
      }
    }
    return ptjs::graph_view_to_js(pt::graph_view(h.get(), vals));
  });
}

// ---- passes and tables ----
// A pass over a GraphModule returning how many nodes it changed (fold_bn, eliminate_dead_code, torchao's
// move_exported_model_to_train / _eval), a report listing nodes, a report table: each bound through one template.
template <auto Pass> double run_pass(const GraphModuleHandle& h) {
  return ptjs::guarded([&] { return double(Pass(h.get())); });
}
template <auto Report> val report_nodes(const GraphModuleHandle& h) {
  return ptjs::guarded([&] { return node_names(Report(h.get())); });
}
template <auto Report> val report_table(const GraphModuleHandle& h) {
  return ptjs::guarded([&] { return table_to_js(Report(h.get())); });
}
val diff_ops(const GraphModuleHandle& a, const GraphModuleHandle& b) {
  return ptjs::guarded([&] {
    val arr = val::array();
    for (const pt::OpDiffRow& r : pt::diff_ops(a.get(), b.get())) {
      val o = val::object();
      o.set("op", r.op);
      o.set("a", static_cast<double>(r.a));
      o.set("b", static_cast<double>(r.b));
      o.set("delta", static_cast<double>(r.delta));
      arr.call<void>("push", o);
    }
    return arr;
  });
}
val count_ops(const GraphModuleHandle& h) {
  return ptjs::guarded([&] {
    val o = val::object();
    for (const auto& [k, n] : pt::count_ops(h.get())) o.set(k, static_cast<double>(n));
    return o;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pt_graph) {
  using namespace emscripten;
  class_<ModelHandle>("Model")
      .function("info", &model_info)
      .function("state_dict", &model_state_dict);
  class_<GraphModuleHandle>("GraphModule")
      .function("nodes", &gm_nodes)
      .function("clone", &gm_clone)
      .function("set_meta_custom", &gm_set_meta_custom)
      .function("code", &gm_code)
      .function("lint", &gm_lint)
      .function("state_dict", &gm_state_dict)
      .function("graph_view", &gm_graph_view);
  function("model_names", &model_names);
  function("get_model", &get_model);
  function("export_module", &export_module);
  function("example_inputs", &example_inputs);
  function("calibration_batches", &calibration_batches);
  function("fold_bn", &run_pass<pt::fold_bn>);
  function("eliminate_dead_code", &run_pass<pt::eliminate_dead_code>);
  function("move_exported_model_to_train", &run_pass<pt::move_exported_model_to_train>);
  function("move_exported_model_to_eval", &run_pass<pt::move_exported_model_to_eval>);
  function("diff_ops", &diff_ops);
  function("count_ops", &count_ops);
  function("observer_nodes", &report_nodes<pt::observer_nodes>);
  function("qdq_nodes", &report_nodes<pt::qdq_nodes>);
  function("unannotated_ops", &report_nodes<pt::unannotated_ops>);
  function("annotation_table", &report_table<pt::annotation_table>);
  function("observer_placement_table", &report_table<pt::observer_placement_table>);
}
