// bind_numeric_debugger.cpp — Embind for pt2e/numeric_debugger.h (torchao's numeric debugger) and
// pt2e/layer_sensitivity.h (M05's experiments on top). The public API over these is web/api/debugger.js.
// Logged results cross as arrays of {handle, node_name, nn_module_stack: [{fqn, type}], stats: [Tensor]};
// comparisons as arrays of {handle, actual_node_name, actual_module_stack, ref_node_name, ref_module_stack,
// results: [{sqnr, mse_loss}]}. The layer experiments take a JS function (keep_float: string[]) -> a
// quantizer description (web/api/pt2e.js describe()), called through quantizer_js.h.
#include <emscripten/bind.h>

#include "common.h"
#include "graph_handles.h"
#include "pt2e/layer_sensitivity.h"
#include "pt2e/numeric_debugger.h"
#include "quantizer_js.h"

using emscripten::val;
using ptjs::GraphModuleHandle;

namespace {

val frames_to_js(const std::vector<pt::ModuleFrame>& frames) {
  return ptjs::list_to_js(frames, [](const pt::ModuleFrame& f) {
    val o = val::object();
    o.set("fqn", f.fqn);
    o.set("type", f.type);
    return o;
  });
}

std::vector<pt::ModuleFrame> frames_from_js(const val& arr) {
  if (arr.isUndefined() || arr.isNull()) return {};
  return ptjs::list_from_js(arr, [](const val& f) {
    return pt::ModuleFrame{f["fqn"].as<std::string>(), f["type"].as<std::string>()};
  });
}

pt::NumericResults results_from_js(const val& arr) {
  pt::NumericResults out;
  for (unsigned i = 0; i < arr["length"].as<unsigned>(); ++i) {
    const val e = arr[i];
    out[static_cast<int64_t>(e["handle"].as<double>())] = {e["node_name"].as<std::string>(),
                                                           frames_from_js(e["nn_module_stack"]),
                                                           ptjs::tensors_from_js(e["stats"])};
  }
  return out;
}

val summaries_to_js(const std::map<int64_t, pt::NodeAccuracySummary>& summaries) {
  val arr = val::array();
  for (const auto& [handle, s] : summaries) {
    val o = val::object();
    o.set("handle", double(handle));
    o.set("actual_node_name", s.actual_node_name);
    o.set("actual_module_stack", s.actual_module_stack);
    o.set("ref_node_name", s.ref_node_name);
    o.set("ref_module_stack", s.ref_module_stack);
    val results = val::array();
    for (const pt::QuantizationComparisonResult& r : s.results) {
      val e = val::object();
      e.set("sqnr", r.sqnr());
      e.set("mse_loss", r.mse_loss());
      results.call<void>("push", e);
    }
    o.set("results", results);
    arr.call<void>("push", o);
  }
  return arr;
}

pt::QuantizationData data_from_js(const val& d) {
  return {ptjs::tensors_from_js(d["calibration"]), d["inputs"].as<pt::Tensor>()};
}

pt::QuantizerForKeptFloat maker_from_js(const val& fn) {
  return [fn](const std::vector<std::string>& keep_float) {
    return ptjs::quantizer_from_js(ptjs::safe_call(fn, ptjs::strings_to_js(keep_float)));
  };
}

val points_to_js(const std::vector<pt::LayerSQNR>& points) {
  val arr = val::array();
  for (const pt::LayerSQNR& p : points) {
    val o = val::object();
    if (!p.layer.empty()) o.set("layer", p.layer);
    o.set("kept_float", ptjs::strings_to_js(p.kept_float));
    o.set("model_sqnr", p.model_sqnr);
    arr.call<void>("push", o);
  }
  return arr;
}

// ---- torchao's functions ----
void generate_handles(const GraphModuleHandle& gm) {
  ptjs::guarded([&] {
    pt::generate_numeric_debug_handle(gm.get());
    return 0;
  });
}

GraphModuleHandle prepare_for_comparison(const GraphModuleHandle& gm) {
  return ptjs::guarded([&] { return ptjs::own(pt::prepare_for_propagation_comparison(gm.get())); });
}

val extract_results(const GraphModuleHandle& gm) {
  return ptjs::guarded([&] {
    val arr = val::array();
    for (const auto& [handle, r] : pt::extract_results_from_loggers(gm.get())) {
      val o = val::object();
      o.set("handle", double(handle));
      o.set("node_name", r.node_name);
      o.set("nn_module_stack", frames_to_js(r.nn_module_stack));
      o.set("stats", ptjs::tensors_to_js(r.stats));
      arr.call<void>("push", o);
    }
    return arr;
  });
}

val compare(const val& ref, const val& actual) {
  return ptjs::guarded([&] { return summaries_to_js(pt::compare_results(results_from_js(ref), results_from_js(actual))); });
}

// ---- M05 ----
val layer_names(const GraphModuleHandle& gm) { return ptjs::guarded([&] { return ptjs::strings_to_js(pt::layer_names(gm.get())); }); }

val quantize_and_compare(const GraphModuleHandle& gm, const val& quantizer, const val& data) {
  return ptjs::guarded([&] {
    pt::NumericComparison c = pt::quantize_and_compare(gm.get(), *ptjs::quantizer_from_js(quantizer), data_from_js(data));
    val o = val::object();
    o.set("model_sqnr", c.model_sqnr);
    o.set("nodes", summaries_to_js(c.nodes));
    o.set("reference", ptjs::own(std::move(c.reference)));
    o.set("quantized", ptjs::own(std::move(c.quantized)));
    return o;
  });
}

// kind: "quantize_one_layer_alone" | "keep_one_layer_float" | "sqnr_vs_layers_kept_float"
val layer_experiment(const std::string& kind, const GraphModuleHandle& gm, const val& maker, const val& layers, const val& data) {
  return ptjs::guarded([&] {
    const pt::QuantizerForKeptFloat make = maker_from_js(maker);
    const std::vector<std::string> names = ptjs::strings_from_js(layers);
    const pt::QuantizationData d = data_from_js(data);
    if (kind == "quantize_one_layer_alone") return points_to_js(pt::quantize_one_layer_alone(gm.get(), make, names, d));
    if (kind == "keep_one_layer_float") return points_to_js(pt::keep_one_layer_float(gm.get(), make, names, d));
    return points_to_js(pt::sqnr_vs_layers_kept_float(gm.get(), make, names, d));
  });
}

val rank_by_sensitivity(const val& points) {
  return ptjs::guarded([&] {
    std::vector<pt::LayerSQNR> ps;
    for (unsigned i = 0; i < points["length"].as<unsigned>(); ++i)
      ps.push_back({{}, points[i]["layer"].as<std::string>(), points[i]["model_sqnr"].as<double>()});
    return ptjs::strings_to_js(pt::rank_by_sensitivity(ps));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pt_numeric_debugger) {
  using emscripten::function;
  function("generate_numeric_debug_handle", &generate_handles);
  function("prepare_for_propagation_comparison", &prepare_for_comparison);
  function("extract_results_from_loggers", &extract_results);
  function("compare_results", &compare);
  function("layer_names", &layer_names);
  function("quantize_and_compare", &quantize_and_compare);
  function("layer_experiment", &layer_experiment);
  function("rank_by_sensitivity", &rank_by_sensitivity);
}
