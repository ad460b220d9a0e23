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

// bind_pt2e.cpp — Embind for engine/pt2e: configs, quantizers, annotations written from JS,
// prepare_pt2e / prepare_qat_pt2e / convert_pt2e.
//
// Quantizers cross as plain descriptions built by web/api/pt2e.js:
//   { type: '<registered id>', calls: [[method, [args]]] }   // a backend quantizer (pt2e/quantizer_registry.h):
//                                                              // its setter calls, in order; an argument is a
//                                                              // string key or a config (null = None)
//   { type: 'ComposableQuantizer', quantizers: [descriptions] }
//   { type: 'Quantizer', name, annotate, validate, transform_for_annotation }   // written in JS: functions
// and are built here for the duration of one prepare call; a backend quantizer is made by the registry,
// so this file names none of them. A JS quantizer's callbacks run through Module.pt_safe_call (JS), so
// an error a learner's code throws comes back as data and is rethrown here as the typed C++ error: it
// unwinds C++ frames properly and reaches JS through guarded().
// Specs cross as tagged objects: {kind: 'QuantizationSpec' | 'SharedQuantizationSpec' |
// 'FixedQParamsQuantizationSpec' | 'DerivedQuantizationSpec', ...torchao fields}; nodes by name. Their
// fields are read by one reader and written by one writer (read_spec_fields / write_spec_fields); the
// kwargs of a spec's observer_or_fake_quant_ctr by kwargs.h, as the observer constructors read theirs.
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>

#include "common.h"
#include "graph_handles.h"
#include "kwargs.h"
#include "observer_handle.h"
#include "pt2e/observer_module.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizer.h"
#include "pt2e/quantizer_registry.h"
#include "pt2e/quantizer_utils.h"
#include "pt2e/quantizers/composable_quantizer.h"
#include "pt2e/quantizers/js_quantizer.h"
#include "quant/js_observer.h"
#include "quantizer_js.h"

using emscripten::val;
using ptjs::given;
using ptjs::GraphModuleHandle;

namespace {

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

// ---- nodes and edges ----
pt::Node* node_named(pt::GraphModule& gm, const std::string& name, const char* what) {
  pt::Node* n = gm.graph.find(name);
  if (!n) throw pt::ValueError(std::string(what) + ": no node named '" + name + "' in the graph");
  return n;
}
std::string node_name_of(const val& v, const char* what) {
  const std::string type = ptjs::js_type(v);
  if (type == "string") return v.as<std::string>();
  if (type == "object" && ptjs::js_type(v["name"]) == "string") return v["name"].as<std::string>();
  throw pt::TypeError(std::string(what) + ": expected a node or a node name, got " + type);
}
pt::EdgeOrNode edge_or_node_from_js(pt::GraphModule& gm, const val& v) {
  if (v.isArray()) {
    if (v["length"].as<unsigned>() != 2) throw pt::ValueError("an edge is [producer, consumer]");
    return pt::EdgeOrNode::edge(node_named(gm, node_name_of(v[0], "edge"), "edge"),
                                node_named(gm, node_name_of(v[1], "edge"), "edge"));
  }
  return pt::EdgeOrNode::output(node_named(gm, node_name_of(v, "edge_or_node"), "edge_or_node"));
}
val edge_or_node_to_js(const pt::EdgeOrNode& e) {
  if (!e.is_edge()) return val(e.node->name);
  val a = val::array();
  a.call<void>("push", e.node->name);
  a.call<void>("push", e.user->name);
  return a;
}

// ---- specs: one reader and one writer of the fields ----
std::optional<int64_t> opt_int(const char* cls, const val& o, const char* key) {
  if (!given(o[key])) return std::nullopt;
  return ptjs::int_arg(cls, key, o[key]);
}
val int_or_null(const std::optional<int64_t>& v) { return v ? val(double(*v)) : val::null(); }

// The fields the spec kinds share (torchao: dtype, quant_min, quant_max, qscheme, [ch_axis,] is_dynamic).
template <class S> void read_spec_fields(const char* cls, const val& v, S& s) {
  const std::string dtype = ptjs::string_arg(cls, "dtype", v["dtype"]);
  s.dtype = pt::dtype_from_name(dtype);
  s.quantized_dtype = pt::is_quantized_dtype_name(dtype);
  s.quant_min = opt_int(cls, v, "quant_min");
  s.quant_max = opt_int(cls, v, "quant_max");
  if (given(v["qscheme"])) s.qscheme = pt::qscheme_from_name(ptjs::string_arg(cls, "qscheme", v["qscheme"]));
  if constexpr (requires { s.ch_axis; }) s.ch_axis = opt_int(cls, v, "ch_axis");
  if (given(v["is_dynamic"])) s.is_dynamic = ptjs::bool_arg(cls, "is_dynamic", v["is_dynamic"]);
}
template <class S> void write_spec_fields(const S& s, val& o) {
  o.set("dtype", std::string(pt::torch_dtype_name(s.dtype, s.quantized_dtype)));
  o.set("quant_min", int_or_null(s.quant_min));
  o.set("quant_max", int_or_null(s.quant_max));
  o.set("qscheme", s.qscheme ? val(std::string(pt::qscheme_name(*s.qscheme))) : val::null());
  if constexpr (requires { s.ch_axis; })
    if (s.ch_axis) o.set("ch_axis", double(*s.ch_axis));
  o.set("is_dynamic", s.is_dynamic);
}

// ---- observer classes written in JS (web/api/quant.js) ----
// { base, make }: make(kwargs) returns { forward(tensor), calculate_qparams() -> { scale: [n], zero_point: [n] },
// release() }, one per observer prepare_pt2e builds; each becomes a pt::JsObserver (quant/js_observer.h).
std::set<std::string>& js_observer_names() {  // the registry names JS classes took
  static std::set<std::string> names;
  return names;
}

pt::QParams qparams_from_js(const val& r) {
  const val scale = r["scale"], zero_point = r["zero_point"];
  const unsigned n = scale["length"].as<unsigned>(), nz = zero_point["length"].as<unsigned>();
  pt::QParams qp{pt::Tensor::empty({n}), pt::Tensor::empty({nz}, pt::DType::Int32)};
  for (unsigned i = 0; i < n; ++i) qp.scale.data<float>()[i] = static_cast<float>(scale[i].as<double>());
  for (unsigned i = 0; i < nz; ++i) {
    const double z = zero_point[i].as<double>();
    if (!(z == std::floor(z)) || z < INT32_MIN || z > INT32_MAX) {
      char shown[32];
      std::snprintf(shown, sizeof shown, "%g", z);
      throw pt::ValueError("returned zero_point[" + std::to_string(i) + "] = " + shown +
                           "; expected an integer");  // JsObserver prefixes the class and method
    }
    qp.zero_point.data<int32_t>()[i] = static_cast<int32_t>(z);
  }
  return qp;
}

std::unique_ptr<pt::ObserverBase> make_js_observer(const std::string& name, const val& make, const pt::ObserverArgs& a) {
  const val inst = [&] {
    try {
      return safe_call(make, ptjs::observer_args_to_js(a));
    } catch (const pt::Error& e) {
      pt::rethrow_with_message(e, name + "(): " + e.what());
    }
  }();
  pt::JsObserver::Callbacks cb;
  cb.forward = [inst](const pt::Tensor& x) { safe_call(inst["forward"], val(x)); };
  cb.calculate_qparams = [inst] { return qparams_from_js(safe_call(inst["calculate_qparams"], val::undefined())); };
  cb.release = [inst] { val::module_property("pt_safe_call")(inst["release"], val::undefined()); };  // errors dropped
  return std::make_unique<pt::JsObserver>(name, a, std::move(cb));
}

// Registers (or replaces) a JS class under its name, accepting its engine base class's keywords. A JS class
// cannot take the name of one of the engine's classes.
void register_js_observer(const std::string& name, const val& js) {
  const std::vector<std::string> names = pt::observer_names();
  if (std::find(names.begin(), names.end(), name) != names.end() && !js_observer_names().count(name))
    throw pt::TypeError("QuantizationSpec(): the observer class " + name + " written in JS has the name of the engine's " +
                        name + "; give it a name of its own");
  const std::string base = ptjs::string_arg("QuantizationSpec", "observer class base", js["base"]);
  const val make = js["make"];
  if (ptjs::js_type(make) != "function") throw pt::TypeError("QuantizationSpec(): observer class " + name + " has no make()");
  pt::register_observer({name, [name, make](const pt::ObserverArgs& a) { return make_js_observer(name, make, a); },
                         pt::observer_class(base).kwargs});
  js_observer_names().insert(name);
}

// A QuantizationSpec with torchao's __post_init__ checks; its constructor's kwargs as the class reads them.
pt::QuantizationSpec quantization_spec_from_js(const val& v) {
  pt::QuantizationSpec s;
  read_spec_fields("QuantizationSpec", v, s);
  const val ctr = v["observer_or_fake_quant_ctr"];
  if (!given(ctr) || !given(ctr["name"]))
    throw pt::TypeError("QuantizationSpec(): observer_or_fake_quant_ctr must be an observer class or Class.with_args({...})");
  auto& [name, kwargs] = s.observer_or_fake_quant_ctr;
  name = ptjs::string_arg("QuantizationSpec", "observer_or_fake_quant_ctr.name", ctr["name"]);
  if (given(ctr["js"])) register_js_observer(name, ctr["js"]);
  kwargs = ptjs::observer_args_from_js(name, ctr["kwargs"]);
  pt::check_observer_kwargs(name, kwargs);  // ValueError for an unknown class, TypeError for a keyword it refuses
  s.validate();
  return s;
}

pt::FixedQParamsQuantizationSpec fixed_spec_fields_from_js(const val& v) {
  const char* cls = "FixedQParamsQuantizationSpec";
  pt::FixedQParamsQuantizationSpec s;
  read_spec_fields(cls, v, s);
  s.scale = ptjs::number_arg(cls, "scale", v["scale"]);
  s.zero_point = ptjs::int_arg(cls, "zero_point", v["zero_point"]);
  return s;
}

pt::DeriveQParamsFn derive_fn_from_js(const val& fn) {
  if (ptjs::js_type(fn) != "function")
    throw pt::TypeError("DerivedQuantizationSpec(): derive_qparams_fn must be a function");
  return [fn](const std::vector<pt::ObserverBase*>& observers) {
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
    const char* fn_name = "derive_qparams_fn";
    if (ptjs::js_type(r) != "object" || !r["scale"].isArray() || !r["zero_point"].isArray())
      throw pt::TypeError("derive_qparams_fn must return { scale: [numbers], zero_point: [integers] }, got " + ptjs::js_type(r));
    const val scale = r["scale"], zero_point = r["zero_point"];
    const unsigned n = scale["length"].as<unsigned>();
    if (zero_point["length"].as<unsigned>() != n)
      throw pt::ValueError("derive_qparams_fn returned " + std::to_string(n) + " scales and " +
                           std::to_string(zero_point["length"].as<unsigned>()) + " zero points");
    pt::QParams qp{pt::Tensor::empty({n}), pt::Tensor::empty({n}, pt::DType::Int32)};
    for (unsigned i = 0; i < n; ++i) {
      const std::string at = "[" + std::to_string(i) + "]";
      qp.scale.data<float>()[i] = static_cast<float>(ptjs::number_arg(fn_name, "scale" + at, scale[i]));
      const int64_t zp = ptjs::int_arg(fn_name, "zero_point" + at, zero_point[i]);
      if (zp < INT32_MIN || zp > INT32_MAX) throw pt::ValueError("derive_qparams_fn: zero_point" + at + " = " + std::to_string(zp) + " is outside int32");
      qp.zero_point.data<int32_t>()[i] = static_cast<int32_t>(zp);
    }
    return qp;
  };
}

// Without a graph (a spec being constructed) the edges are only checked to be a list.
pt::DerivedQuantizationSpec derived_spec_fields_from_js(pt::GraphModule* gm, const val& v) {
  pt::DerivedQuantizationSpec s;
  read_spec_fields("DerivedQuantizationSpec", v, s);
  const val from = v["derived_from"];
  if (!from.isArray()) throw pt::TypeError("DerivedQuantizationSpec(): derived_from must be a list of edges or nodes");
  if (gm)
    for (unsigned i = 0; i < from["length"].as<unsigned>(); ++i) s.derived_from.push_back(edge_or_node_from_js(*gm, from[i]));
  s.derive_qparams_fn = derive_fn_from_js(v["derive_qparams_fn"]);
  return s;
}

pt::OptionalQSpec spec_from_js(pt::GraphModule& gm, const val& v) {
  if (!given(v)) return std::nullopt;
  const std::string kind = given(v["kind"]) ? ptjs::string_arg("spec", "kind", v["kind"]) : "";
  if (kind == "QuantizationSpec") return quantization_spec_from_js(v);
  if (kind == "SharedQuantizationSpec") return pt::SharedQuantizationSpec{edge_or_node_from_js(gm, v["edge_or_node"])};
  if (kind == "FixedQParamsQuantizationSpec") {
    pt::FixedQParamsQuantizationSpec f = fixed_spec_fields_from_js(v);
    pt::validate_spec(f);
    return f;
  }
  if (kind == "DerivedQuantizationSpec") {
    pt::DerivedQuantizationSpec d = derived_spec_fields_from_js(&gm, v);
    pt::validate_spec(d);
    return d;
  }
  throw pt::TypeError("expected a QuantizationSpec, SharedQuantizationSpec, FixedQParamsQuantizationSpec, "
                      "DerivedQuantizationSpec or null, got kind '" + kind + "'");
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
            ctr.set("kwargs", ptjs::observer_args_to_js(s.observer_or_fake_quant_ctr.kwargs));
            o.set("observer_or_fake_quant_ctr", ctr);
          } else if constexpr (std::is_same_v<S, pt::FixedQParamsQuantizationSpec>) {
            o.set("kind", std::string("FixedQParamsQuantizationSpec"));
            o.set("scale", s.scale);
            o.set("zero_point", double(s.zero_point));
          } else {
            o.set("kind", std::string("DerivedQuantizationSpec"));
            val from = val::array();
            for (const auto& e : s.derived_from) from.call<void>("push", edge_or_node_to_js(e));
            o.set("derived_from", from);
          }
          write_spec_fields(s, o);
        }
        return o;
      },
      *spec);
}

// The JS spec constructors' check: each field read as annotate and prepare will read it (TypeError for a
// wrong type or an unknown dtype), plus QuantizationSpec's __post_init__ (ValueError for a bad range or
// ch_axis), so an error appears where the learner writes the spec. The other kinds' value checks come
// when they are annotated, as in torchao (their dataclasses have no __post_init__). Returns the
// canonical name of the spec's dtype, which the JS object keeps.
std::string check_spec(const val& v) {
  return ptjs::guarded([&] {
    const std::string kind = ptjs::string_arg("spec", "kind", v["kind"]);
    // The dtype as torch spells it, the learner's spelling kept (torch.quint8 stays quint8).
    const auto spelled = [](const auto& s) { return std::string(pt::torch_dtype_name(s.dtype, s.quantized_dtype)); };
    if (kind == "QuantizationSpec") return spelled(quantization_spec_from_js(v));
    if (kind == "FixedQParamsQuantizationSpec") return spelled(fixed_spec_fields_from_js(v));
    if (kind == "DerivedQuantizationSpec") return spelled(derived_spec_fields_from_js(nullptr, v));
    throw pt::TypeError("check_spec: no fields to check in a " + kind);
  });
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
  if (!given(v)) return std::nullopt;
  if (given(v["kind"]) && ptjs::string_arg("QuantizationConfig", key, v["kind"]) != "QuantizationSpec")
    throw pt::TypeError(std::string("QuantizationConfig: ") + key + " must be a QuantizationSpec or null, got a " +
                        v["kind"].as<std::string>());
  return quantization_spec_from_js(v);
}
std::optional<pt::QuantizationConfig> config_from_js(const val& c) {
  if (!given(c)) return std::nullopt;
  if (ptjs::js_type(c) != "object")
    throw pt::TypeError("expected a QuantizationConfig or null, got " + ptjs::js_type(c));
  pt::QuantizationConfig q;
  q.input_activation = config_spec(c, "input_activation");
  q.output_activation = config_spec(c, "output_activation");
  q.weight = config_spec(c, "weight");
  q.bias = config_spec(c, "bias");
  if (given(c["is_qat"])) q.is_qat = ptjs::bool_arg("QuantizationConfig", "is_qat", c["is_qat"]);
  return q;
}

// A registered config function (pt2e/quantizer_registry.h) called with a JS object of keyword arguments.
val quantization_config(const std::string& id, const val& kwargs) {
  return ptjs::guarded([&] {
    std::vector<std::pair<std::string, pt::KeywordValue>> kw;
    ptjs::for_each_given_key(id, kwargs, [&](const std::string& k, const val& v) {
      if (ptjs::js_type(v) == "boolean") kw.emplace_back(k, v.as<bool>());
      else kw.emplace_back(k, ptjs::int_arg(id, k, v));
    });
    return config_to_js(pt::call_config_function(id, kw));
  });
}

// ---- the registries, for web/api/pt2e.js to build its classes and functions from ----
template <class T, class F> val js_array(const std::vector<T>& items, F&& to_js) {
  val arr = val::array();
  for (const T& item : items) arr.call<void>("push", to_js(item));
  return arr;
}
// { name, <key>: value }
val named(const std::string& name, const char* key, const val& value) {
  val o = val::object();
  o.set("name", name);
  o.set(key, value);
  return o;
}
// { name, ns, id } of a registry entry plus its own list under `key`.
template <class E> val registry_entry(const E& e, const char* key, const val& list) {
  val o = named(e.name, key, list);
  o.set("ns", e.ns);
  o.set("id", e.id());
  return o;
}
// [{ name, ns, id, setters: [{ name, params: [names] }] }]
val quantizer_classes() {
  return js_array(pt::quantizer_classes(), [](const pt::QuantizerClass& c) {
    return registry_entry(c, "setters", js_array(c.setters, [](const pt::QuantizerSetter& s) {
      return named(s.name, "params", js_array(s.params, [](const pt::SetterParam& p) { return val(p.name); }));
    }));
  });
}
// [{ name, ns, id, keywords: [{ name, default }] }]
val config_functions() {
  return js_array(pt::config_functions(), [](const pt::ConfigFunction& f) {
    return registry_entry(f, "keywords", js_array(f.keywords, [](const pt::ConfigKeyword& k) {
      return named(k.name, "default", std::visit([](auto d) { return ptjs::kwarg_to_js(d); }, k.default_value));
    }));
  });
}

// ---- quantizers ----
// Wraps a GraphModule the engine owns for the length of one JS callback (no ownership).
val borrowed_handle(pt::GraphModule& gm) {
  return val(GraphModuleHandle{std::shared_ptr<pt::GraphModule>(&gm, [](pt::GraphModule*) {})});
}

// One argument of a recorded setter call: a string is a key, anything else a config (null = None).
pt::SetterArg setter_arg_from_js(const val& v) {
  if (ptjs::js_type(v) == "string") return v.as<std::string>();
  return config_from_js(v);
}

// A quantizer's description (what its describe() returns; a learner's subclass may return anything) read
// with the typed argument readers: TypeError for a field of the wrong kind.
val list_field(const val& d, const char* key) {
  const val v = d[key];
  if (!v.isArray()) throw pt::TypeError(std::string("quantizer description: '") + key + "' must be a list, got " + ptjs::js_type(v));
  return v;
}

// A JS ComposableQuantizer's record (a Map it keeps: node identity → annotation identity), so the record outlives
// the engine quantizer built for one call, as torchao's _graph_annotations outlives one annotate.
struct JsAnnotationRecord : pt::AnnotationRecord {
  val map;
  explicit JsAnnotationRecord(val m) : map(std::move(m)) {}
  std::optional<uint64_t> find(uint64_t node) const override {
    const val v = map.call<val>("get", double(node));
    return v.isNumber() ? std::optional<uint64_t>(static_cast<uint64_t>(v.as<double>())) : std::nullopt;
  }
  void set(uint64_t node, uint64_t annotation) override { map.call<void>("set", double(node), double(annotation)); }
};

std::shared_ptr<pt::Quantizer> quantizer_from_js(const val& d) {
  if (ptjs::js_type(d) != "object") throw pt::TypeError("a quantizer's describe() must return an object, got " + ptjs::js_type(d));
  const std::string type = ptjs::string_arg("quantizer description", "type", d["type"]);
  if (type == "ComposableQuantizer") {
    std::vector<std::shared_ptr<pt::Quantizer>> parts;
    std::vector<std::string> names;
    const val list = list_field(d, "quantizers");
    for (unsigned i = 0; i < list["length"].as<unsigned>(); ++i) {
      parts.push_back(quantizer_from_js(list[i]));
      names.push_back(ptjs::string_arg("quantizer description", "name", list[i]["name"]));
    }
    const val record = d["record"];
    if (given(record) && !record.instanceof(val::global("Map")))
      throw pt::TypeError("quantizer description: 'record' must be a Map, got " + ptjs::js_type(record));
    return std::make_shared<pt::ComposableQuantizer>(
        parts, names, given(record) ? std::make_shared<JsAnnotationRecord>(record) : nullptr);
  }
  if (type == "Quantizer") {  // written in JS
    const val annotate = d["annotate"], validate = d["validate"], transform = d["transform_for_annotation"];
    auto call = [](const val& fn) {
      return [fn](const pt::GraphModule& gm) { safe_call(fn, borrowed_handle(const_cast<pt::GraphModule&>(gm))); };
    };
    auto q = std::make_shared<pt::JsQuantizer>(call(annotate));
    if (given(validate)) q->set_validate(call(validate));
    if (given(transform)) q->set_transform_for_annotation(call(transform));
    return q;
  }
  pt::QuantizerDescription desc{type, {}};
  const val calls = list_field(d, "calls");
  for (unsigned i = 0; i < calls["length"].as<unsigned>(); ++i) {
    pt::QuantizerCall& c = desc.calls.emplace_back();
    if (!calls[i].isArray()) throw pt::TypeError("quantizer description: a call must be [method, [arguments]]");
    c.method = ptjs::string_arg("quantizer description", "method", calls[i][0]);
    if (!calls[i][1].isArray()) throw pt::TypeError("quantizer description: " + c.method + "'s arguments must be a list");
    const val args = calls[i][1];
    for (unsigned j = 0; j < args["length"].as<unsigned>(); ++j) c.args.push_back(setter_arg_from_js(args[j]));
  }
  return pt::make_quantizer(desc);
}

// A learner's annotate may call prepare_pt2e (or annotate) again, on the graph it is given or another: Python
// recurses until its recursion limit. Here every level holds wasm stack, which has no guard page, so past a
// small depth the call fails as Python's RecursionError would (a RuntimeError here), before any stack runs out.
class NestingGuard {
 public:
  explicit NestingGuard(const char* what) {
    static constexpr int kMaxDepth = 8;
    if (depth_ >= kMaxDepth)
      throw pt::RuntimeError(std::string(what) + ": maximum recursion depth exceeded (a quantizer's callback called prepare_pt2e or annotate " +
                             std::to_string(kMaxDepth) + " levels deep)");
    ++depth_;
  }
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;

 private:
  static inline int depth_ = 0;
};

GraphModuleHandle prepare(const GraphModuleHandle& gm, const val& desc, bool is_qat) {
  return ptjs::guarded([&] {
    NestingGuard nesting(is_qat ? "prepare_qat_pt2e" : "prepare_pt2e");
    auto q = quantizer_from_js(desc);
    return ptjs::own(is_qat ? pt::prepare_qat_pt2e(gm.get(), *q) : pt::prepare_pt2e(gm.get(), *q));
  });
}
GraphModuleHandle convert(const GraphModuleHandle& gm, bool use_reference_representation, bool fold_quantize) {
  return ptjs::guarded(
      [&] { return ptjs::own(pt::convert_pt2e(gm.get(), use_reference_representation, fold_quantize)); });
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
    NestingGuard nesting("annotate");
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
    pt::annotate_input_qspec_map(n, in, spec_from_js(gm, spec));
    return 0;
  });
}
void annotate_output_qspec(const GraphModuleHandle& h, const val& node, const val& spec) {
  ptjs::guarded([&] {
    pt::GraphModule& gm = h.get();
    pt::Node* n = node_named(gm, node_name_of(node, "annotate_output_qspec"), "annotate_output_qspec");
    pt::annotate_output_qspec(n, spec_from_js(gm, spec));
    return 0;
  });
}
// node.meta["quantization_annotation"] = QuantizationAnnotation(...): a new object replaces the node's
// annotation (its flags are the object's own), as Python's assignment does. Every spec is read before
// the node is touched, so a bad one leaves the old annotation in place.
void set_annotation(const GraphModuleHandle& h, const val& node, const val& a) {
  ptjs::guarded([&] {
    pt::GraphModule& gm = h.get();
    pt::Node* n = node_named(gm, node_name_of(node, "annotate"), "annotate");
    auto fresh = std::make_shared<pt::QuantizationAnnotation>();
    const val ins = a["input_qspec_map"];
    const int count = ins["length"].as<int>();
    for (int i = 0; i < count; ++i) {
      pt::Node* input = node_named(gm, node_name_of(ins[i][0], "annotate"), "annotate");
      pt::OptionalQSpec spec = spec_from_js(gm, ins[i][1]);
      if (spec) pt::validate_spec(*spec);
      fresh->set_input_qspec(input, std::move(spec));
    }
    fresh->output_qspec = spec_from_js(gm, a["output_qspec"]);
    if (fresh->output_qspec) pt::validate_spec(*fresh->output_qspec);
    fresh->_annotated = ptjs::bool_arg("QuantizationAnnotation", "_annotated", a["_annotated"]);
    fresh->allow_implicit_sharing =
        ptjs::bool_arg("QuantizationAnnotation", "allow_implicit_sharing", a["allow_implicit_sharing"]);
    n->meta.quantization_annotation = std::move(fresh);
    return 0;
  });
}
// _mark_nodes_as_annotated (quantizer_utils.h): `_annotated = True` on each node's annotation object,
// kept (an empty one where a node has none). All names are resolved before any node is marked.
void mark_nodes_as_annotated(const GraphModuleHandle& h, const val& nodes) {
  ptjs::guarded([&] {
    pt::GraphModule& gm = h.get();
    std::vector<pt::Node*> found;
    const int count = nodes["length"].as<int>();
    for (int i = 0; i < count; ++i)
      found.push_back(node_named(gm, node_name_of(nodes[i], "mark_nodes_as_annotated"), "mark_nodes_as_annotated"));
    pt::mark_nodes_as_annotated(found);
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

// quantizer_js.h: the same readers for the other binding files.
std::shared_ptr<pt::Quantizer> ptjs::quantizer_from_js(const val& description) { return ::quantizer_from_js(description); }
val ptjs::safe_call(const val& fn, const val& arg) { return ::safe_call(fn, arg); }

EMSCRIPTEN_BINDINGS(pt_pt2e) {
  using namespace emscripten;
  function("quantizer_classes", &quantizer_classes);
  function("config_functions", &config_functions);
  function("quantization_config", &quantization_config);
  function("check_spec", &check_spec);
  function("prepare", &prepare);
  function("convert", &convert);
  function("observer_of", &observer_of);
  function("annotate", &annotate);
  function("annotate_input_qspec_map", &annotate_input_qspec_map);
  function("annotate_output_qspec", &annotate_output_qspec);
  function("set_annotation", &set_annotation);
  function("mark_nodes_as_annotated", &mark_nodes_as_annotated);
  function("get_node_annotation", &get_node_annotation);
}
