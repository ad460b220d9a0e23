// test_js_quantizer.cpp — JsQuantizer: seed M03's ten-line relu-output quantizer written as a C++
// callback gives one observer per relu after prepare_pt2e (1 / 2 / 4 on conv_relu / residual / tiny);
// callbacks run in prepare's order, errors pass through, annotate is required.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/report.h"
#include "pt2e/observer_module.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/js_quantizer.h"

using namespace pt;

namespace {

GraphModule exported(const std::string& name) {
  manual_seed(0);
  Model m = get_model(name);
  return export_module(m, example_inputs(m, 4));
}

// int8 per-tensor affine, HistogramObserver (the seed's act_spec()).
QuantizationSpec act_spec() {
  ObserverArgs kwargs;
  kwargs.eps = 0x1p-12f;
  return QuantizationSpec{DType::Int8, {"HistogramObserver", kwargs}, -128, 127, QScheme::per_tensor_affine,
                          std::nullopt, false};
}

// The seed's ReluOutputQuantizer.annotate, as the callback a lesson cell would supply.
void annotate_relu_outputs(GraphModule& gm) {
  for (Node* node : gm.graph.nodes())
    if (node->op == OpKind::call_function && node->target == "aten.relu.default") {
      annotate_output_qspec(node, QuantizationSpecBase(act_spec()));
      get_annotation(node)->_annotated = true;
    }
}

}  // namespace

TEST_CASE("JsQuantizer: the ten-line relu-output quantizer puts one observer after each relu", "[js_quantizer]") {
  JsQuantizer q(annotate_relu_outputs, [](const GraphModule&) {});
  const std::vector<std::pair<std::string, size_t>> expected{{"conv_relu", 1}, {"residual", 2}, {"tiny", 4}};
  for (const auto& [name, n_relu] : expected) {
    GraphModule prepared = prepare_pt2e(exported(name), q);
    const std::vector<Node*> observers = observer_nodes(prepared);
    INFO(name);
    CHECK(observers.size() == n_relu);
    for (const Node* obs : observers) {
      const Node* producer = obs->args()[0].node();
      REQUIRE(producer != nullptr);
      CHECK(producer->target == "aten.relu.default");
      REQUIRE(get_observer(prepared, obs) != nullptr);
      CHECK(std::string(get_observer(prepared, obs)->type_name()) == "HistogramObserver");
    }
  }
}

TEST_CASE("JsQuantizer callbacks run in prepare_pt2e's order and their errors pass through", "[js_quantizer]") {
  std::vector<std::string> calls;
  JsQuantizer q([&](GraphModule& gm) {
    calls.push_back("annotate");
    annotate_relu_outputs(gm);
  });
  q.set_transform_for_annotation([&](GraphModule& gm) {
    calls.push_back("transform:" + std::to_string(count_ops(gm)["batch_norm"]));  // folded before
  });
  q.set_validate([&](const GraphModule& gm) {
    calls.push_back("validate");
    for (const Node* n : gm.graph.nodes())
      if (n->target == "aten.add.Tensor") throw NotImplementedError("this backend has no int8 add");
  });
  GraphModule prepared = prepare_pt2e(exported("stem"), q);
  CHECK(calls == std::vector<std::string>{"transform:0", "annotate", "validate"});
  CHECK(observer_nodes(prepared).size() == 1);
  CHECK_THROWS_AS(prepare_pt2e(exported("residual"), q), NotImplementedError);
  CHECK_THROWS_AS(JsQuantizer(nullptr), TypeError);
}
