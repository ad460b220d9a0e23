// test_composable_quantizer.cpp — ComposableQuantizer: two quantizers on disjoint parts of a graph,
// transform chaining order, the replaced / removed annotation checks, in-place edits, no-op validate.
#include <catch2/catch.hpp>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/report.h"
#include "pt2e/observer_module.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/composable_quantizer.h"
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"
#include "pt2e/quantizers/js_quantizer.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"

using namespace pt;

namespace {

GraphModule exported(const std::string& name) {
  manual_seed(0);
  Model m = get_model(name);
  return export_module(m, example_inputs(m, 4));
}

const QuantizationSpec& act_spec_of(const GraphModule& gm, const std::string& node, const std::string& input) {
  const QuantizationAnnotation* a = get_annotation(gm.graph.find(node));
  REQUIRE(a != nullptr);
  const OptionalQSpec* s = a->input_qspec(gm.graph.find(input));
  REQUIRE(s != nullptr);
  REQUIRE(s->has_value());
  return std::get<QuantizationSpec>(**s);
}

// Annotates relu outputs with an int8 spec, replacing (or, with `remove`, erasing) whatever is there.
std::shared_ptr<JsQuantizer> relu_overwriter(bool remove) {
  return std::make_shared<JsQuantizer>([remove](GraphModule& gm) {
    for (Node* n : gm.graph.nodes()) {
      if (n->target != "aten.relu.default") continue;
      if (remove) {
        n->meta.quantization_annotation.reset();
      } else {
        auto a = std::make_shared<QuantizationAnnotation>();
        a->_annotated = true;
        n->meta.quantization_annotation = a;
      }
    }
  });
}

}  // namespace

TEST_CASE("ComposableQuantizer with X86 on module fc2 and ExecuTorch XNNPACK on the rest", "[composable]") {
  auto x86 = std::make_shared<X86InductorQuantizer>();
  x86->set_module_name_qconfig("fc2", get_default_x86_inductor_quantization_config());
  auto xnn = std::make_shared<executorch::XNNPACKQuantizer>();
  xnn->set_global(get_symmetric_quantization_config({.is_per_channel = true}));
  ComposableQuantizer q({x86, xnn}, {"X86InductorQuantizer", "XNNPACKQuantizer"});

  GraphModule gm = exported("mlp");
  q.transform_for_annotation(gm);
  q.annotate(gm);
  CHECK(act_spec_of(gm, "linear_1", "relu").dtype == DType::UInt8);  // fc2: the first quantizer's
  CHECK(act_spec_of(gm, "linear", "x").dtype == DType::Int8);        // fc1 + relu: the second's
  CHECK(get_annotation(gm.graph.find("relu"))->output_qspec.has_value());
  CHECK(unannotated_ops(gm).empty());

  GraphModule prepared = prepare_pt2e(exported("mlp"), q);
  int uint8_obs = 0, int8_obs = 0;
  for (const Node* n : observer_nodes(prepared)) {
    const ObserverBase* o = get_observer(prepared, n);
    REQUIRE(o != nullptr);
    (o->dtype() == DType::UInt8 ? uint8_obs : int8_obs)++;
  }
  CHECK(uint8_obs == 1);  // fc2's input (relu output edge); fc2's weight is int8
  CHECK(int8_obs == 4);   // x, fc1 weight, relu output, fc2 weight
}

TEST_CASE("ComposableQuantizer chains transform_for_annotation in order and validates nothing", "[composable]") {
  std::vector<int> calls;
  auto first = std::make_shared<JsQuantizer>([](GraphModule&) {});
  first->set_transform_for_annotation([&](GraphModule&) { calls.push_back(0); });
  first->set_validate([](const GraphModule&) { throw ValueError("first rejects every graph"); });
  auto second = std::make_shared<JsQuantizer>([](GraphModule&) {});
  second->set_transform_for_annotation([&](GraphModule&) { calls.push_back(1); });
  ComposableQuantizer q({first, second});
  GraphModule gm = exported("conv_relu");
  q.transform_for_annotation(gm);
  CHECK(calls == std::vector<int>{0, 1});
  CHECK_NOTHROW(q.validate(gm));  // torchao's ComposableQuantizer.validate is a no-op
  CHECK_THROWS_AS(first->validate(gm), ValueError);
}

TEST_CASE("ComposableQuantizer rejects a later quantizer replacing or removing annotations", "[composable]") {
  auto xnn = std::make_shared<executorch::XNNPACKQuantizer>();
  xnn->set_global(get_symmetric_quantization_config());
  for (bool remove : {false, true}) {
    ComposableQuantizer q({xnn, relu_overwriter(remove)}, {"XNNPACKQuantizer", "ReluQuantizer"});
    const std::string expected = std::string("Quantizer ReluQuantizer has ") + (remove ? "removed" : "changed") +
                                 " annotations on node relu";
    GraphModule gm = exported("conv_relu");
    CHECK_THROWS_WITH(q.annotate(gm), expected);
    GraphModule fresh = exported("conv_relu");
    CHECK_THROWS_AS(q.annotate(fresh), RuntimeError);
  }
  // In the other order the relu quantizer annotates first and XNNPACK skips `_annotated` nodes.
  ComposableQuantizer ok({relu_overwriter(false), xnn});
  GraphModule gm = exported("conv_relu");
  CHECK_NOTHROW(ok.annotate(gm));
  CHECK_FALSE(get_annotation(gm.graph.find("relu"))->output_qspec.has_value());
}

TEST_CASE("ComposableQuantizer accepts in-place edits of earlier annotations", "[composable]") {
  auto xnn = std::make_shared<executorch::XNNPACKQuantizer>();
  xnn->set_global(get_symmetric_quantization_config());
  auto editor = std::make_shared<JsQuantizer>([](GraphModule& gm) {
    annotate_output_qspec(gm.graph.find("relu"), std::nullopt);  // edits XNNPACK's object in place
  });
  ComposableQuantizer q({xnn, editor});
  GraphModule gm = exported("conv_relu");
  CHECK_NOTHROW(q.annotate(gm));
  CHECK_FALSE(get_annotation(gm.graph.find("relu"))->output_qspec.has_value());
  CHECK_THROWS_AS(ComposableQuantizer({xnn, nullptr}), ValueError);
  CHECK_THROWS_AS(ComposableQuantizer({xnn}, {"a", "b"}), ValueError);
}

TEST_CASE("ComposableQuantizer keeps its record across annotate calls and graphs, by identity", "[composable]") {
  // torchao composable_quantizer.py: _graph_annotations is filled in __init__ and kept, keyed by the Node objects.
  // Annotating the same graph again, a quantizer that replaces annotations meets its own earlier objects.
  ComposableQuantizer q({relu_overwriter(false)}, {"ReluQuantizer"});
  GraphModule gm = exported("conv_relu");
  CHECK_NOTHROW(q.annotate(gm));
  CHECK_THROWS_WITH(q.annotate(gm), "Quantizer ReluQuantizer has changed annotations on node relu");
  // Other graphs are other nodes, even where a freed graph's memory is reused: no false report.
  for (int i = 0; i < 3; ++i) {
    GraphModule other = exported("conv_relu");
    CHECK_NOTHROW(q.annotate(other));
  }
  // A clone's nodes are new objects (deepcopy), and so are their annotations.
  GraphModule base = exported("conv_relu");
  CHECK_NOTHROW(q.annotate(base));
  GraphModule copy = base.clone();
  CHECK_NOTHROW(q.annotate(copy));
  // Quantizers that leave `_annotated` nodes alone (XNNPACK's annotators) pass a second call unchanged.
  auto xnn = std::make_shared<executorch::XNNPACKQuantizer>();
  xnn->set_global(get_symmetric_quantization_config());
  ComposableQuantizer twice({xnn});
  GraphModule g2 = exported("conv_relu");
  CHECK_NOTHROW(twice.annotate(g2));
  CHECK_NOTHROW(twice.annotate(g2));
}
