// bind_lower.cpp — Embind for engine/lower: lowering a converted graph for a backend, the VPU's integer-only
// simulation, their delegation report and the integer pictures of output elements, as plain data. The public API
// over this is web/api/lower.js.
#include <emscripten/bind.h>

#include "common.h"
#include "graph_handles.h"
#include "lower/integer_picture.h"
#include "lower/lower.h"
#include "lower/vpu.h"

using emscripten::val;
using ptjs::GraphModuleHandle;

namespace {

val delegation_info(const pt::DelegationInfo& r) {
  val o = val::object();
  o.set("num_delegated_subgraphs", r.num_delegated_subgraphs);
  o.set("num_delegated_nodes", r.num_delegated_nodes);
  o.set("num_non_delegated_nodes", r.num_non_delegated_nodes);
  val nodes = val::array();
  for (const pt::PartitionNode& n : r.nodes) {
    val e = val::object();
    e.set("name", n.name);
    e.set("target", n.target);
    e.set("delegated", n.delegated);
    e.set("lowered_as", n.lowered_as.empty() ? val::null() : val(n.lowered_as));
    e.set("reason", n.reason.empty() ? val::null() : val(n.reason));
    nodes.call<void>("push", e);
  }
  o.set("nodes", nodes);
  return o;
}

val lower(const GraphModuleHandle& gm, const std::string& backend, const std::string& requantization) {
  return ptjs::guarded([&] {
    pt::Lowered l = pt::lower(gm.get(), {pt::backend_from_name(backend), pt::requant_from_name(requantization)});
    val out = val::object();
    out.set("report", delegation_info(l.report));
    out.set("gm", ptjs::own(std::move(l.gm)));
    return out;
  });
}

val simulate_vpu(const GraphModuleHandle& gm) {
  return ptjs::guarded([&] {
    pt::Lowered l = pt::simulate_vpu(gm.get());
    val out = val::object();
    out.set("report", delegation_info(l.report));
    out.set("gm", ptjs::own(std::move(l.gm)));
    return out;
  });
}

val ints_to_js(const std::vector<int32_t>& v) {
  val arr = val::array();
  for (int32_t x : v) arr.call<void>("push", x);
  return arr;
}

// One picture as a plain object: the one list of IntegerPicture's fields the JS API sees.
val picture_to_js(const pt::IntegerPicture& p) {
  val o = val::object();
  o.set("node", p.node);
  o.set("target", p.target);
  o.set("requantization", p.requantization);
  o.set("output_coords", ptjs::shape_to_js(p.output_coords));
  o.set("channel", static_cast<double>(p.channel));
  o.set("input_zero_point", p.input_zero_point);
  o.set("inputs", ints_to_js(p.inputs));
  o.set("weights", ints_to_js(p.weights));
  o.set("products", ints_to_js(p.products));
  o.set("accumulator", p.accumulator);
  o.set("bias", p.bias);
  o.set("accumulator_with_bias", p.accumulator_with_bias);
  o.set("multiplier", p.multiplier);
  o.set("fixed_multiplier", p.fixed_multiplier);
  o.set("shift", p.shift);
  o.set("scaled", p.scaled);
  o.set("output_zero_point", p.output_zero_point);
  o.set("qmin", p.qmin);
  o.set("qmax", p.qmax);
  o.set("output", p.output);
  o.set("float_output", p.float_output);  // the X86 path's float output stage: bias_f32, relu, output_f32
  o.set("bias_f32", p.bias_f32);
  o.set("relu", p.relu);
  o.set("output_f32", p.output_f32);
  return o;
}

// The pictures of the elements `indices` (a JS array of integers) from one run of the graph, as an array.
val integer_pictures(const GraphModuleHandle& gm, const std::string& node, const val& inputs, const val& indices) {
  return ptjs::guarded([&] {
    const std::vector<pt::IntegerPicture> ps =
        pt::integer_pictures(gm.get(), node, ptjs::tensors_from_js(inputs), ptjs::int64s_from_js(indices, "indices"));
    return ptjs::list_to_js(ps, picture_to_js);
  });
}

val requant_names() {
  val arr = val::array();
  for (const std::string& n : pt::requant_names()) arr.call<void>("push", n);
  return arr;
}

}  // namespace

EMSCRIPTEN_BINDINGS(pt_lower) {
  emscripten::function("lower", &lower);
  emscripten::function("integer_pictures", &integer_pictures);
  emscripten::constant("max_integer_pictures", static_cast<double>(pt::kMaxIntegerPictures));  // indices in one call
  emscripten::function("simulate_vpu", &simulate_vpu);
  emscripten::function("requant_names", &requant_names);  // lower.h's names of the requantization kinds
}
