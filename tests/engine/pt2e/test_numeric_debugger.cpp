// test_numeric_debugger.cpp — torchao's numeric debugger (pt2e/numeric_debugger.h) and lesson M05's layer
// sensitivity on top of it (pt2e/layer_sensitivity.h): handles written and carried through prepare / convert
// (PTQ and QAT) so the q / dq and op nodes after convert match back to the node they came from, loggers that
// do not change what a model computes, the comparison (SQNR, MSE), and on `tiny` the per-node SQNR table and
// the check that the layer the debugger ranks most sensitive is the one whose staying in float raises the
// model SQNR most.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <set>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/targets.h"
#include "ops/golden.h"
#include "pt2e/convert.h"
#include "pt2e/layer_sensitivity.h"
#include "pt2e/numeric_debugger.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

using namespace pt;

namespace {

GraphModule exported_tiny() {
  manual_seed(0);
  const Model m = get_model("tiny");
  return export_module(m, example_inputs(m, 4));
}

QuantizationData tiny_data() {
  QuantizationData d;
  for (const Batch& b : calibration_batches(128, 32)) d.calibration.push_back(b.x);
  d.inputs = synthetic_images("test", 32, {.num_classes = 4, .noise = 0.05}).x;
  return d;
}

// X86InductorQuantizer keeps a layer in float with set_module_name_qconfig(layer, None).
std::shared_ptr<Quantizer> x86_keeping_float(const std::vector<std::string>& keep_float) {
  auto q = std::make_shared<X86InductorQuantizer>();
  q->set_global(get_default_x86_inductor_quantization_config());
  for (const std::string& layer : keep_float) q->set_module_name_qconfig(layer, std::nullopt);
  return q;
}

XNNPACKQuantizer xnnpack_per_channel(bool is_qat) {
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true, .is_qat = is_qat}));
  return q;
}

// handle -> the node kinds that carry it
std::map<int64_t, std::multiset<NodeKind>> kinds_by_handle(const GraphModule& gm) {
  std::map<int64_t, std::multiset<NodeKind>> out;
  for (const Node* n : gm.graph.nodes())
    if (auto h = numeric_debug_handle(*n)) out[*h].insert(node_kind(*n));
  return out;
}

}  // namespace

TEST_CASE("generate_numeric_debug_handle numbers the graph's ops from 1, keeps handles already there") {
  GraphModule gm = exported_tiny();
  generate_numeric_debug_handle(gm);
  int64_t expect = 1;
  for (const Node* n : gm.graph.nodes()) {
    const auto h = numeric_debug_handle(*n);
    if (n->op == OpKind::call_function) {
      REQUIRE(h);
      CHECK(*h == expect++);
    } else {
      CHECK_FALSE(h);  // placeholder, output and get_attr (an ExportedProgram's parameters) get none
    }
  }
  const std::map<std::string, MetaValue> before = gm.graph.find("conv2d")->meta.custom;
  generate_numeric_debug_handle(gm);  // nothing new to number
  CHECK(gm.graph.find("conv2d")->meta.custom == before);

  GraphModule fresh = exported_tiny();
  fresh.graph.find("relu")->meta.custom[NUMERIC_DEBUG_HANDLE_KEY] = int64_t{40};
  generate_numeric_debug_handle(fresh);
  CHECK(*numeric_debug_handle(*fresh.graph.find("conv2d")) == 41);  // numbering starts after the largest
  CHECK(*numeric_debug_handle(*fresh.graph.find("relu")) == 40);
}

TEST_CASE("handles survive prepare and convert: an op and the q / dq of its output match back to it") {
  for (bool is_qat : {false, true}) {
    INFO((is_qat ? "prepare_qat_pt2e" : "prepare_pt2e"));
    GraphModule gm = exported_tiny();
    generate_numeric_debug_handle(gm);
    XNNPACKQuantizer q = xnnpack_per_channel(is_qat);
    GraphModule prepared = is_qat ? prepare_qat_pt2e(gm, q) : prepare_pt2e(gm, q);
    prepared.forward({calibration_batches(8, 8)[0].x});
    if (is_qat) move_exported_model_to_eval(prepared);
    GraphModule converted = convert_pt2e(prepared);
    const auto kinds = kinds_by_handle(converted);
    for (const char* op : {"conv2d", "relu", "linear", "add"}) {
      const int64_t h = *numeric_debug_handle(*gm.graph.find(op));
      INFO("node " << op << " handle " << h);
      REQUIRE(kinds.count(h));
      CHECK(kinds.at(h).count(NodeKind::op) == 1);  // the op itself (the QAT rewrites rename convs: same target)
      for (const Node* n : converted.graph.nodes())
        if (numeric_debug_handle(*n) == h && node_kind(*n) == NodeKind::op) CHECK(n->target == gm.graph.find(op)->target);
    }
    // XNNPACK observes relu's output: its q and dq carry relu's handle; the conv inside conv-relu has none
    const auto& relu = kinds.at(*numeric_debug_handle(*gm.graph.find("relu")));
    CHECK(relu.count(NodeKind::quantize) == 1);
    CHECK(relu.count(NodeKind::dequantize) >= 1);
    // no handle is carried by two ops
    for (const auto& [h, k] : kinds) CHECK(k.count(NodeKind::op) <= 1);
  }
}

TEST_CASE("prepare_for_propagation_comparison: one logger per handled node, the model's output unchanged") {
  GraphModule gm = exported_tiny();
  generate_numeric_debug_handle(gm);
  const GraphModule logged = prepare_for_propagation_comparison(gm);
  int loggers = 0, handled = 0;
  for (const Node* n : gm.graph.nodes()) handled += numeric_debug_handle(*n).has_value();
  for (const auto& [name, module] : logged.modules())
    if (const auto* l = dynamic_cast<const OutputLogger*>(module.get())) {
      ++loggers;
      CHECK(name == l->node_name + "_logger0");
      const Node* logger = logged.graph.find(name);
      REQUIRE(logger);
      CHECK(logger->args()[0].node()->name == l->node_name);
      CHECK(logger->meta.custom.empty());  // a logger is no node of the model: it has no handle
    }
  CHECK(loggers == handled);
  CHECK(gm.modules().empty());  // the model itself is left as it was
  GraphModule run = logged.clone();
  const Tensor x = calibration_batches(4, 4)[0].x;
  CHECK(golden::bit_equal(run.forward({x})[0], gm.forward({x})[0]));
  const NumericResults r = extract_results_from_loggers(run);
  CHECK(r.size() == static_cast<size_t>(handled));
  CHECK(r.at(1).node_name == "conv2d");
  CHECK(r.at(1).stats.size() == 1);
}

TEST_CASE("compare_results: SQNR and MSE per handle; a model against itself is exact; shapes must match") {
  GraphModule gm = exported_tiny();
  generate_numeric_debug_handle(gm);
  GraphModule a = prepare_for_propagation_comparison(gm), b = prepare_for_propagation_comparison(gm);
  const Tensor x = calibration_batches(4, 4)[0].x;
  a.forward({x});
  b.forward({x});
  b.forward({x});  // a second call: zip keeps the common length
  const auto same = compare_results(extract_results_from_loggers(a), extract_results_from_loggers(b));
  for (const auto& [h, s] : same) {
    REQUIRE(s.results.size() == 1);
    CHECK(std::isinf(s.results[0].sqnr()));
    CHECK(s.results[0].mse_loss() == 0.0);
    CHECK(s.ref_node_name == s.actual_node_name);
  }
  CHECK(same.at(1).ref_module_stack == "conv1");

  NumericResults ref = extract_results_from_loggers(a), bad = ref;
  bad.at(1).stats[0] = Tensor::empty({2, 2});
  CHECK_THROWS_AS(compare_results(ref, bad), ValueError);
  CHECK_THROWS_WITH(compare_results(ref, bad), Catch::Contains("debug_handle=1") && Catch::Contains("conv2d"));
  bad.erase(1);
  CHECK(compare_results(ref, bad).count(1) == 0);  // handles the actual model lacks are skipped
}

TEST_CASE("numeric debugger on tiny: per-node SQNR, and the most sensitive layer is the one to keep in float") {
  const GraphModule gm = exported_tiny();
  const QuantizationData data = tiny_data();
  const NumericComparison full = quantize_and_compare(gm, *x86_keeping_float({}), data);
  std::printf("tiny, X86InductorQuantizer: per-node SQNR (quantized vs float, 32 held-out images); model %.2f dB\n",
              full.model_sqnr);
  for (const auto& [h, s] : full.nodes)
    std::printf("  %3lld %-20s -> %-26s %-6s SQNR %6.2f dB  MSE %.3g\n", static_cast<long long>(h), s.ref_node_name.c_str(),
                s.actual_node_name.c_str(), s.ref_module_stack.c_str(), s.results[0].sqnr(), s.results[0].mse_loss());
  CHECK(full.nodes.size() >= 10);
  CHECK(std::isfinite(full.model_sqnr));
  // the pool's op and the q / dq convert made of its output carry its handle; its value is the dequantize's
  const int64_t pool = *numeric_debug_handle(*full.reference.graph.find("max_pool2d"));
  std::multiset<NodeKind> sharing;
  for (const Node* n : full.quantized.graph.nodes())
    if (numeric_debug_handle(*n) == pool) sharing.insert(node_kind(*n));
  CHECK(sharing.count(NodeKind::op) == 1);
  CHECK(sharing.count(NodeKind::quantize) == 1);
  CHECK(node_kind(*full.quantized.graph.find(full.nodes.at(pool).actual_node_name)) == NodeKind::dequantize);

  const std::vector<std::string> layers = layer_names(gm);
  CHECK(layers == std::vector<std::string>{"conv1", "conv2", "conv3", "conv4", "fc"});
  const auto alone = quantize_one_layer_alone(gm, x86_keeping_float, layers, data);
  const auto kept = keep_one_layer_float(gm, x86_keeping_float, layers, data);
  const std::vector<std::string> rank = rank_by_sensitivity(alone);
  std::printf("layer   quantized alone   kept float (model SQNR, dB)\n");
  for (size_t i = 0; i < layers.size(); ++i)
    std::printf("  %-6s %8.2f %16.2f\n", layers[i].c_str(), alone[i].model_sqnr, kept[i].model_sqnr);
  std::printf("ranked most sensitive first:");
  for (const std::string& l : rank) std::printf(" %s", l.c_str());
  std::printf("\n");
  const auto top = std::find_if(kept.begin(), kept.end(), [&](const LayerSQNR& p) { return p.layer == rank[0]; });
  for (const LayerSQNR& p : kept) {
    INFO("keeping " << rank[0] << " float gives " << top->model_sqnr << " dB, keeping " << p.layer << " float " << p.model_sqnr);
    if (p.layer != rank[0]) CHECK(top->model_sqnr > p.model_sqnr);
  }
  CHECK(top->model_sqnr > full.model_sqnr);

  const auto curve = sqnr_vs_layers_kept_float(gm, x86_keeping_float, rank, data);
  REQUIRE(curve.size() == layers.size() + 1);
  std::printf("model SQNR vs layers kept float:");
  for (const LayerSQNR& p : curve) std::printf(" %zu: %.2f", p.kept_float.size(), p.model_sqnr);
  std::printf("\n");
  CHECK(curve.front().model_sqnr == Approx(full.model_sqnr));
  CHECK(curve[1].model_sqnr == Approx(top->model_sqnr));
  CHECK(std::isinf(curve.back().model_sqnr));  // every layer float: nothing is quantized in tiny's X86 patterns
}

TEST_CASE("layer sensitivity: typed errors for bad input") {
  const GraphModule gm = exported_tiny();
  QuantizationData data = tiny_data();
  CHECK_THROWS_AS(keep_one_layer_float(gm, x86_keeping_float, {"conv9"}, data), ValueError);
  CHECK_THROWS_WITH(keep_one_layer_float(gm, x86_keeping_float, {"conv9"}, data), Catch::Contains("conv1, conv2"));
  CHECK_THROWS_AS(sqnr_vs_layers_kept_float(gm, [](const std::vector<std::string>&) { return nullptr; }, {}, data),
                  ValueError);
  data.calibration.clear();
  CHECK_THROWS_AS(quantize_and_compare(gm, *x86_keeping_float({}), data), ValueError);
}
