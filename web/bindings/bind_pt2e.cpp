// bind_pt2e.cpp — Embind for engine/pt2e: configs, quantizers, annotations written from JS,
// prepare_pt2e / prepare_qat_pt2e / convert_pt2e.
//
// Quantizers cross as plain descriptions built by web/api/pt2e.js:
//   { type: 'XNNPACKQuantizer' | 'executorch.XNNPACKQuantizer' | 'X86InductorQuantizer' | 'ComposableQuantizer' | 'Quantizer',
//     global, operator_type: [[name, config]], module_type: [...], module_name: [...],   // configs (null = None)
//     quantizers: [descriptions],                                                         // ComposableQuantizer
//     annotate, validate, transform_for_annotation }                                      // 'Quantizer': JS functions
// and are built here for the duration of one prepare call. A JS quantizer's callbacks run through
// Module.pt_safe_call (JS), so an error a learner's code throws comes back as data and is rethrown
// here as the typed C++ error: it unwinds C++ frames properly and reaches JS through guarded().
// Specs cross as tagged objects: {kind: 'QuantizationSpec' | 'SharedQuantizationSpec' |
// 'FixedQParamsQuantizationSpec' | 'DerivedQuantizationSpec', ...torchao fields}; nodes by name.
#include <emscripten/bind.h>

#include <memory>

#include "common.h"
#include "graph_handles.h"
#include "observer_handle.h"
#include "pt2e/observer_module.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizer.h"
#include "pt2e/quantizers/composable_quantizer.h"
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"
#include "pt2e/quantizers/js_quantizer.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

using emscripten::val;
using ptjs::GraphModuleHandle;

namespace {

bool present(const val& v) { return !v.isUndefined() && !v.isNull(); }
template <class T> std::optional<T> opt(const val& o, const char* key) {
  const val v = o[key];
  if (!present(v)) return std::nullopt;
  return v.as<T>();
}
std::optional<int64_t> opt_int(const val& o, const char* key) {
  auto d = opt<double>(o, key);
  if (!d) return std::nullopt;
  return static_cast<int64_t>(*d);
}

[[noreturn]] void rethrow_js(const val& r) {
  const std::string name = r["name"].as<std::string>(), msg = r["message"].as<std::string>();
  if (name == "ValueError") throw pt::ValueError(msg);
  if (name == "TypeError") throw pt::TypeError(msg);
  if (name == "NotImplementedError") throw pt::NotImplementedError(msg);
  if (name == "IndexError") throw pt::IndexError(msg);
  throw pt::RuntimeError(name == "RuntimeError" ? msg : name + ": " + msg);
}
// Calls a JS function with one argument through Module.pt_safe_call; returns its value.
val safe_call(const val& fn, const val& arg) {
  val r = val::module_property("pt_safe_call")(fn, arg);
  if (!r["ok"].as<bool>()) rethrow_js(r);
  return r["value"];
}

// ---- specs ----
pt::Node* node_named(pt::GraphModule& gm, const std::string& name, const char* what) {
  pt::Node* n = gm.graph.find(name);
  if (!n) throw pt::ValueError(std::string(what) + ": no node named '" + name + "' in the graph");
  return n;
}
std::string node_name_of(const val& v, const char* what) {
  if (v.typeOf().as<std::string>() == "string") return v.as<std::string>();
  if (present(v) && present(v["name"])) return v["name"].as<std::string>();
  throw pt::TypeError(std::string(what) + ": expected a node or a node name");
}
pt::EdgeOrNode edge_or_node_from_js(pt::GraphModule* gm, const val& v) {
  if (!gm) throw pt::ValueError("a SharedQuantizationSpec / DerivedQuantizationSpec belongs in an annotation, not a config");
  if (v.isArray()) {
    if (v["length"].as<unsigned>() != 2) throw pt::ValueError("an edge is [producer, consumer]");
    return pt::EdgeOrNode::edge(node_named(*gm, node_name_of(v[0], "edge"), "edge"),
                                node_named(*gm, node_name_of(v[1], "edge"), "edge"));
  }
  return pt::EdgeOrNode::output(node_named(*gm, node_name_of(v, "edge_or_node"), "edge_or_node"));
}
val edge_or_node_to_js(const pt::EdgeOrNode& e) {
  if (!e.is_edge()) return val(e.node->name);
  val a = val::array();
  a.call<void>("push", e.node->name);
  a.call<void>("push", e.user->name);
  return a;
}
pt::ObserverArgs ctor_kwargs(const val& kwargs);  // below

pt::QuantizationSpec quantization_spec_from_js(const val& v) {
  pt::QuantizationSpec s;
  s.dtype = pt::dtype_from_name(v["dtype"].as<std::string>());
  const val ctr = v["observer_or_fake_quant_ctr"];
  if (!present(ctr)) throw pt::TypeError("QuantizationSpec: observer_or_fake_quant_ctr is required");
  s.observer_or_fake_quant_ctr.name = ctr["name"].as<std::string>();
  s.observer_or_fake_quant_ctr.kwargs = ctor_kwargs(ctr["kwargs"]);
  pt::observer_class(s.observer_or_fake_quant_ctr.name);  // ValueError for an unknown class
  s.quant_min = opt_int(v, "quant_min");
  s.quant_max = opt_int(v, "quant_max");
  if (auto q = opt<std::string>(v, "qscheme")) s.qscheme = pt::qscheme_from_name(*q);
  s.ch_axis = opt_int(v, "ch_axis");
  s.is_dynamic = opt<bool>(v, "is_dynamic").value_or(false);
  s.validate();
  return s;
}

pt::OptionalQSpec spec_from_js(pt::GraphModule* gm, const val& v) {
  if (!present(v)) return std::nullopt;
  const std::string kind = present(v["kind"]) ? v["kind"].as<std::string>() : "";
  if (kind == "QuantizationSpec") return quantization_spec_from_js(v);
  if (kind == "SharedQuantizationSpec") return pt::SharedQuantizationSpec{edge_or_node_from_js(gm, v["edge_or_node"])};
  if (kind == "FixedQParamsQuantizationSpec") {
    pt::FixedQParamsQuantizationSpec s;
    s.dtype = pt::dtype_from_name(v["dtype"].as<std::string>());
    s.scale = v["scale"].as<double>();
    s.zero_point = static_cast<int64_t>(v["zero_point"].as<double>());
    s.quant_min = opt_int(v, "quant_min");
    s.quant_max = opt_int(v, "quant_max");
    if (auto q = opt<std::string>(v, "qscheme")) s.qscheme = pt::qscheme_from_name(*q);
    s.is_dynamic = opt<bool>(v, "is_dynamic").value_or(false);
    pt::validate_spec(s);
    return s;
  }
  if (kind == "DerivedQuantizationSpec") {
    pt::DerivedQuantizationSpec s;
    const val from = v["derived_from"];
    for (unsigned i = 0; i < from["length"].as<unsigned>(); ++i) s.derived_from.push_back(edge_or_node_from_js(gm, from[i]));
    const val fn = v["derive_qparams_fn"];
    s.derive_qparams_fn = [fn](const std::vector<pt::ObserverBase*>& observers) {
      val arg = val::array();
      for (pt::ObserverBase* o : observers) {
        const pt::QParams qp = o->calculate_qparams();
        val e = val::object();
        e.set("type", std::string(o->type_name()));
        e.set("scale", ptjs::tensor_data_to_js(qp.scale));
        e.set("zero_point", ptjs::tensor_data_to_js(qp.zero_point));
        arg.call<void>("push", e);
      }
      const val r = safe_call(fn, arg);
      const unsigned n = r["scale"]["length"].as<unsigned>();
      pt::QParams qp{pt::Tensor::empty({n}), pt::Tensor::empty({n}, pt::DType::Int32)};
      for (unsigned i = 0; i < n; ++i) {
        qp.scale.data<float>()[i] = r["scale"][i].as<float>();
        qp.zero_point.data<int32_t>()[i] = r["zero_point"][i].as<int32_t>();
      }
      return qp;
    };
    s.dtype = pt::dtype_from_name(v["dtype"].as<std::string>());
    s.quant_min = opt_int(v, "quant_min");
    s.quant_max = opt_int(v, "quant_max");
    if (auto q = opt<std::string>(v, "qscheme")) s.qscheme = pt::qscheme_from_name(*q);
    s.ch_axis = opt_int(v, "ch_axis");
    s.is_dynamic = opt<bool>(v, "is_dynamic").value_or(false);
    pt::validate_spec(s);
    return s;
  }
  throw pt::TypeError("expected a QuantizationSpec, SharedQuantizationSpec, FixedQParamsQuantizationSpec, "
                      "DerivedQuantizationSpec or null, got kind '" + kind + "'");
}

val kwargs_to_js(const pt::ObserverArgs& a) {
  val o = val::object();
  if (a.dtype) o.set("dtype", std::string(pt::dtype_name(*a.dtype)));
  if (a.qscheme) o.set("qscheme", std::string(pt::qscheme_name(*a.qscheme)));
  if (a.reduce_range) o.set("reduce_range", *a.reduce_range);
  if (a.quant_min) o.set("quant_min", double(*a.quant_min));
  if (a.quant_max) o.set("quant_max", double(*a.quant_max));
  if (a.eps) o.set("eps", *a.eps);
  if (a.is_dynamic) o.set("is_dynamic", *a.is_dynamic);
  if (a.ch_axis) o.set("ch_axis", double(*a.ch_axis));
  if (a.averaging_constant) o.set("averaging_constant", *a.averaging_constant);
  if (a.bins) o.set("bins", double(*a.bins));
  if (a.observer) o.set("observer", *a.observer);
  return o;
}
pt::ObserverArgs ctor_kwargs(const val& kwargs) {
  pt::ObserverArgs a;
  if (!present(kwargs)) return a;
  if (present(kwargs["dtype"])) a.dtype = pt::dtype_from_name(kwargs["dtype"].as<std::string>());
  if (present(kwargs["qscheme"])) a.qscheme = pt::qscheme_from_name(kwargs["qscheme"].as<std::string>());
  a.reduce_range = opt<bool>(kwargs, "reduce_range");
  a.quant_min = opt_int(kwargs, "quant_min");
  a.quant_max = opt_int(kwargs, "quant_max");
  if (auto e = opt<double>(kwargs, "eps")) a.eps = static_cast<float>(*e);
  a.is_dynamic = opt<bool>(kwargs, "is_dynamic");
  a.ch_axis = opt_int(kwargs, "ch_axis");
  a.averaging_constant = opt<double>(kwargs, "averaging_constant");
  a.bins = opt_int(kwargs, "bins");
  a.observer = opt<std::string>(kwargs, "observer");
  return a;
}

val spec_to_js(const pt::OptionalQSpec& spec) {
  if (!spec) return val::null();
  return std::visit(
      [](const auto& s) -> val {
        using S = std::decay_t<decltype(s)>;
        val o = val::object();
        if constexpr (std::is_same_v<S, pt::SharedQuantizationSpec>) {
          o.set("kind", std::string("SharedQuantizationSpec"));
          o.set("edge_or_node", edge_or_node_to_js(s.edge_or_node));
        } else {
          if constexpr (std::is_same_v<S, pt::QuantizationSpec>) {
            o.set("kind", std::string("QuantizationSpec"));
            val ctr = val::object();
            ctr.set("name", s.observer_or_fake_quant_ctr.name);
            ctr.set("kwargs", kwargs_to_js(s.observer_or_fake_quant_ctr.kwargs));
            o.set("observer_or_fake_quant_ctr", ctr);
            if (s.ch_axis) o.set("ch_axis", double(*s.ch_axis));
          } else if constexpr (std::is_same_v<S, pt::FixedQParamsQuantizationSpec>) {
            o.set("kind", std::string("FixedQParamsQuantizationSpec"));
            o.set("scale", s.scale);
            o.set("zero_point", double(s.zero_point));
          } else {
            o.set("kind", std::string("DerivedQuantizationSpec"));
            val from = val::array();
            for (const auto& e : s.derived_from) from.call<void>("push", edge_or_node_to_js(e));
            o.set("derived_from", from);
            if (s.ch_axis) o.set("ch_axis", double(*s.ch_axis));
          }
          o.set("dtype", std::string(pt::dtype_name(s.dtype)));
          o.set("quant_min", s.quant_min ? val(double(*s.quant_min)) : val::null());
          o.set("quant_max", s.quant_max ? val(double(*s.quant_max)) : val::null());
          o.set("qscheme", s.qscheme ? val(std::string(pt::qscheme_name(*s.qscheme))) : val::null());
          o.set("is_dynamic", s.is_dynamic);
        }
        return o;
      },
      *spec);
}

// ---- configs ----
val config_to_js(const pt::QuantizationConfig& c) {
  val o = val::object();
  o.set("input_activation", spec_to_js(pt::as_qspec(c.input_activation)));
  o.set("output_activation", spec_to_js(pt::as_qspec(c.output_activation)));
  o.set("weight", spec_to_js(pt::as_qspec(c.weight)));
  o.set("bias", spec_to_js(pt::as_qspec(c.bias)));
  o.set("is_qat", c.is_qat);
  return o;
}
std::optional<pt::QuantizationSpec> config_spec(const val& c, const char* key) {
  const val v = c[key];
  if (!present(v)) return std::nullopt;
  return quantization_spec_from_js(v);
}
std::optional<pt::QuantizationConfig> config_from_js(const val& c) {
  if (!present(c)) return std::nullopt;
  pt::QuantizationConfig q;
  q.input_activation = config_spec(c, "input_activation");
  q.output_activation = config_spec(c, "output_activation");
  q.weight = config_spec(c, "weight");
  q.bias = config_spec(c, "bias");
  q.is_qat = opt<bool>(c, "is_qat").value_or(false);
  return q;
}

val get_symmetric_quantization_config(const val& o) {
  return ptjs::guarded([&] {
    pt::SymmetricQuantizationOptions opts;
    opts.is_per_channel = opt<bool>(o, "is_per_channel").value_or(false);
    opts.is_qat = opt<bool>(o, "is_qat").value_or(false);
    opts.is_dynamic = opt<bool>(o, "is_dynamic").value_or(false);
    opts.act_qmin = opt_int(o, "act_qmin").value_or(opts.act_qmin);
    opts.act_qmax = opt_int(o, "act_qmax").value_or(opts.act_qmax);
    opts.weight_qmin = opt_int(o, "weight_qmin").value_or(opts.weight_qmin);
    opts.weight_qmax = opt_int(o, "weight_qmax").value_or(opts.weight_qmax);
    return config_to_js(pt::get_symmetric_quantization_config(opts));
  });
}
val get_default_x86_inductor_quantization_config(bool is_qat, bool is_dynamic, bool reduce_range) {
  return ptjs::guarded([&] {
    return config_to_js(pt::get_default_x86_inductor_quantization_config(is_qat, is_dynamic, reduce_range));
  });
}

// ---- quantizers ----
template <class F> void each_entry(const val& list, F&& f) {
  if (!present(list)) return;
  for (unsigned i = 0; i < list["length"].as<unsigned>(); ++i) f(list[i][0].as<std::string>(), config_from_js(list[i][1]));
}

// Wraps a GraphModule the engine owns for the length of one JS callback (no ownership).
val borrowed_handle(pt::GraphModule& gm) {
  return val(GraphModuleHandle{std::shared_ptr<pt::GraphModule>(&gm, [](pt::GraphModule*) {})});
}

std::shared_ptr<pt::Quantizer> quantizer_from_js(const val& d) {
  const std::string type = d["type"].as<std::string>();
  if (type == "XNNPACKQuantizer") {
    auto q = std::make_shared<pt::XNNPACKQuantizer>();
    if (auto g = config_from_js(d["global"])) q->set_global(*g);
    each_entry(d["operator_type"], [&](const std::string& k, auto c) { if (c) q->set_operator_type(k, *c); });
    each_entry(d["module_type"], [&](const std::string& k, auto c) { if (c) q->set_module_type(k, *c); });
    each_entry(d["module_name"], [&](const std::string& k, auto c) { q->set_module_name(k, c); });
    return q;
  }
  if (type == "executorch.XNNPACKQuantizer") {
    auto q = std::make_shared<pt::executorch::XNNPACKQuantizer>();
    q->set_global(config_from_js(d["global"]));
    each_entry(d["operator_type"], [&](const std::string& k, auto c) { q->set_operator_type(k, c); });
    each_entry(d["module_type"], [&](const std::string& k, auto c) { q->set_module_type(k, c); });
    each_entry(d["module_name"], [&](const std::string& k, auto c) { q->set_module_name(k, c); });
    return q;
  }
  if (type == "X86InductorQuantizer") {
    auto q = std::make_shared<pt::X86InductorQuantizer>();
    q->set_global(config_from_js(d["global"]));
    each_entry(d["module_name"], [&](const std::string& k, auto c) { q->set_module_name_qconfig(k, c); });
    each_entry(d["module_type"], [&](const std::string& k, auto c) { q->set_module_type_qconfig(k, c); });
    each_entry(d["function_type"], [&](const std::string& k, auto c) { q->set_function_type_qconfig(k, c); });
    return q;
  }
  if (type == "ComposableQuantizer") {
    std::vector<std::shared_ptr<pt::Quantizer>> parts;
    std::vector<std::string> names;
    const val list = d["quantizers"];
    for (unsigned i = 0; i < list["length"].as<unsigned>(); ++i) {
      parts.push_back(quantizer_from_js(list[i]));
      names.push_back(list[i]["name"].as<std::string>());
    }
    return std::make_shared<pt::ComposableQuantizer>(parts, names);
  }
  if (type == "Quantizer") {  // written in JS
    const val annotate = d["annotate"], validate = d["validate"], transform = d["transform_for_annotation"];
    auto call = [](const val& fn) {
      return [fn](const pt::GraphModule& gm) { safe_call(fn, borrowed_handle(const_cast<pt::GraphModule&>(gm))); };
    };
    auto q = std::make_shared<pt::JsQuantizer>(call(annotate));
    if (present(validate)) q->set_validate(call(validate));
    if (present(transform)) q->set_transform_for_annotation(call(transform));
    return q;
  }
  throw pt::TypeError("unknown quantizer type '" + type + "'");
}

GraphModuleHandle prepare(const GraphModuleHandle& gm, const val& desc, bool is_qat) {
  return ptjs::guarded([&] {
    auto q = quantizer_from_js(desc);
    return GraphModuleHandle::own(is_qat ? pt::prepare_qat_pt2e(gm.get(), *q) : pt::prepare_pt2e(gm.get(), *q));
  });
}
GraphModuleHandle convert(const GraphModuleHandle& gm, bool use_reference_representation, bool fold_quantize) {
  return ptjs::guarded(
      [&] { return GraphModuleHandle::own(pt::convert_pt2e(gm.get(), use_reference_representation, fold_quantize)); });
}

// The observer instance behind an observer node of a prepared graph (shared, so it sees calibration).
ptjs::ObserverHandle observer_of(const GraphModuleHandle& h, const std::string& name) {
  return ptjs::guarded([&] {
    pt::GraphModule& gm = h.get();
    auto obs = pt::get_observer_ptr(gm, node_named(gm, name, "observer"));
    if (!obs) throw pt::ValueError("observer: node '" + name + "' is not an observer node");
    return ptjs::ObserverHandle(obs);
  });
}

// quantizer.annotate(gm) alone, in place (the seed's look at annotations before prepare).
void annotate(const GraphModuleHandle& gm, const val& desc) {
  ptjs::guarded([&] {
    quantizer_from_js(desc)->annotate(gm.get());
    return 0;
  });
}

// ---- annotations written from JS ----
void annotate_input_qspec_map(const GraphModuleHandle& h, const val& node, const val& input, const val& spec) {
  ptjs::guarded([&] {
    pt::GraphModule& gm = h.get();
    pt::Node* n = node_named(gm, node_name_of(node, "annotate_input_qspec_map"), "annotate_input_qspec_map");
    pt::Node* in = node_named(gm, node_name_of(input, "annotate_input_qspec_map"), "annotate_input_qspec_map");
    pt::annotate_input_qspec_map(n, in, spec_from_js(&gm, spec));
    return 0;
  });
}
void annotate_output_qspec(const GraphModuleHandle& h, const val& node, const val& spec) {
  ptjs::guarded([&] {
    pt::GraphModule& gm = h.get();
    pt::Node* n = node_named(gm, node_name_of(node, "annotate_output_qspec"), "annotate_output_qspec");
    pt::annotate_output_qspec(n, spec_from_js(&gm, spec));
    return 0;
  });
}
void set_annotation_flags(const GraphModuleHandle& h, const val& node, const val& flags) {
  ptjs::guarded([&] {
    pt::GraphModule& gm = h.get();
    pt::QuantizationAnnotation& a = pt::ensure_annotation(node_named(gm, node_name_of(node, "annotate"), "annotate"));
    if (auto b = opt<bool>(flags, "_annotated")) a._annotated = *b;
    if (auto b = opt<bool>(flags, "allow_implicit_sharing")) a.allow_implicit_sharing = *b;
    return 0;
  });
}
val get_node_annotation(const GraphModuleHandle& h, const std::string& name) {
  return ptjs::guarded([&] {
    pt::GraphModule& gm = h.get();
    const pt::QuantizationAnnotation* a = pt::get_annotation(node_named(gm, name, "annotation"));
    if (!a) return val::null();
    val o = val::object();
    val ins = val::array();
    for (const auto& [input, spec] : a->input_qspec_map) {
      val e = val::array();
      e.call<void>("push", input->name);
      e.call<void>("push", spec_to_js(spec));
      ins.call<void>("push", e);
    }
    o.set("input_qspec_map", ins);
    o.set("output_qspec", spec_to_js(a->output_qspec));
    o.set("allow_implicit_sharing", a->allow_implicit_sharing);
    o.set("_annotated", a->_annotated);
    return o;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pt_pt2e) {
  using namespace emscripten;
  function("get_symmetric_quantization_config", &get_symmetric_quantization_config);
  function("get_default_x86_inductor_quantization_config", &get_default_x86_inductor_quantization_config);
  function("prepare", &prepare);
  function("convert", &convert);
  function("observer_of", &observer_of);
  function("annotate", &annotate);
  function("annotate_input_qspec_map", &annotate_input_qspec_map);
  function("annotate_output_qspec", &annotate_output_qspec);
  function("set_annotation_flags", &set_annotation_flags);
  function("get_node_annotation", &get_node_annotation);
}
