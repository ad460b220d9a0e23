// test_prepare_rules.cpp — prepare_pt2e's grouping and insertion rules and its typed errors, on small
// hand-annotated graphs (docs/algorithms.md, prepare_pt2e), plus XNNPACKQuantizer's annotation driver.
#include <catch2/catch.hpp>

#include <functional>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/report.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

using namespace pt;

namespace {

// A Quantizer whose annotate is a lambda (the seed's "ten-line rule-based quantizer" shape).
struct LambdaQuantizer : Quantizer {
  std::function<void(GraphModule&)> fn;
  explicit LambdaQuantizer(std::function<void(GraphModule&)> f) : fn(std::move(f)) {}
  void annotate(GraphModule& gm) override { fn(gm); }
  void validate(const GraphModule&) const override {}
};

QuantizationSpec act_spec(int64_t qmin = -128, int64_t qmax = 127) {
  ObserverArgs kwargs;
  kwargs.eps = 0x1p-12f;
  return QuantizationSpec{DType::Int8, {"MinMaxObserver", kwargs}, qmin, qmax, QScheme::per_tensor_affine,
                          std::nullopt, false};
}

// x -> relu -> add(relu, x) -> output: x has two users.
GraphModule two_user_graph() {
  GraphModule gm;
  Node* x = gm.graph.placeholder("x");
  Node* r = gm.graph.call_function("aten.relu.default", {x});
  Node* a = gm.graph.call_function("aten.add.Tensor", {r, x});
  gm.graph.output({a});
  manual_seed(0);
  propagate_shapes(gm, {randn({2, 4})});
  return gm;
}

Node* find(GraphModule& gm, const std::string& name) {
  Node* n = gm.graph.find(name);
  REQUIRE(n);
  return n;
}

}  // namespace

TEST_CASE("implicit sharing: two users of x with matching specs share one observer", "[prepare]") {
  LambdaQuantizer q([](GraphModule& gm) {
    Node *x = find(gm, "x"), *relu = find(gm, "relu"), *add = find(gm, "add");
    annotate_input_qspec_map(relu, x, act_spec());
    annotate_input_qspec_map(add, x, act_spec());
  });
  GraphModule p = prepare_pt2e(two_user_graph(), q);
  REQUIRE(observer_nodes(p).size() == 1);
  const Table t = observer_placement_table(p);
  CHECK(t.rows[0][2] == "x");
  CHECK(t.rows[0][3] == "relu, add");
}

TEST_CASE("implicit sharing ignores the observer class but not the range", "[prepare]") {
  SECTION("different class, same attributes: shared, built from the first key's spec") {
    LambdaQuantizer q([](GraphModule& gm) {
      QuantizationSpec other = act_spec();
      other.observer_or_fake_quant_ctr.name = "HistogramObserver";
      annotate_input_qspec_map(find(gm, "relu"), find(gm, "x"), act_spec());
      annotate_input_qspec_map(find(gm, "add"), find(gm, "x"), other);
    });
    GraphModule p = prepare_pt2e(two_user_graph(), q);
    REQUIRE(observer_nodes(p).size() == 1);
    CHECK(p.get_module(observer_nodes(p)[0]->target)->type_name() == "MinMaxObserver");
  }
  SECTION("different quant_max: two observers") {
    LambdaQuantizer q([](GraphModule& gm) {
      annotate_input_qspec_map(find(gm, "relu"), find(gm, "x"), act_spec());
      annotate_input_qspec_map(find(gm, "add"), find(gm, "x"), act_spec(-128, 100));
    });
    CHECK(observer_nodes(prepare_pt2e(two_user_graph(), q)).size() == 2);
  }
  SECTION("allow_implicit_sharing = false on one consumer: the other still joins it (torchao's rule)") {
    LambdaQuantizer q([](GraphModule& gm) {
      annotate_input_qspec_map(find(gm, "relu"), find(gm, "x"), act_spec());
      annotate_input_qspec_map(find(gm, "add"), find(gm, "x"), act_spec());
      get_annotation(find(gm, "add"))->allow_implicit_sharing = false;
    });
    CHECK(observer_nodes(prepare_pt2e(two_user_graph(), q)).size() == 1);
  }
  SECTION("allow_implicit_sharing = false on both consumers: two observers") {
    LambdaQuantizer q([](GraphModule& gm) {
      annotate_input_qspec_map(find(gm, "relu"), find(gm, "x"), act_spec());
      annotate_input_qspec_map(find(gm, "add"), find(gm, "x"), act_spec());
      get_annotation(find(gm, "relu"))->allow_implicit_sharing = false;
      get_annotation(find(gm, "add"))->allow_implicit_sharing = false;
    });
    CHECK(observer_nodes(prepare_pt2e(two_user_graph(), q)).size() == 2);
  }
}

TEST_CASE("output observer and a Shared input reuse one instance, chains when specs differ", "[prepare]") {
  LambdaQuantizer q([](GraphModule& gm) {
    Node *relu = find(gm, "relu"), *add = find(gm, "add");
    annotate_output_qspec(relu, act_spec());
    annotate_input_qspec_map(add, relu, SharedQuantizationSpec{EdgeOrNode::output(relu)});
    annotate_input_qspec_map(add, find(gm, "x"), act_spec(-100, 100));
  });
  GraphModule p = prepare_pt2e(two_user_graph(), q);
  const auto obs = observer_nodes(p);
  REQUIRE(obs.size() == 2);
  // add reads relu through relu's output observer (no second node), and x through its own.
  const Node* add = p.graph.find("add");
  CHECK(add->args()[0].node()->op == OpKind::call_module);
  CHECK(add->args()[0].node()->args()[0].node()->name == "relu");
  CHECK(add->args()[1].node()->args()[0].node()->name == "x");
}

TEST_CASE("None input specs are keys without observers", "[prepare]") {
  LambdaQuantizer q([](GraphModule& gm) { annotate_input_qspec_map(find(gm, "relu"), find(gm, "x"), std::nullopt); });
  GraphModule p = prepare_pt2e(two_user_graph(), q);
  CHECK(observer_nodes(p).empty());
  const auto specs = get_edge_or_node_to_qspec(p);
  REQUIRE(specs.size() == 1);
  CHECK(!specs[0].second.has_value());
}

TEST_CASE("errors: Shared spec to a later edge, foreign node, invalid range", "[prepare][errors]") {
  SECTION("a SharedQuantizationSpec pointing to a later edge is a RuntimeError") {
    LambdaQuantizer q([](GraphModule& gm) {
      Node *x = find(gm, "x"), *relu = find(gm, "relu"), *add = find(gm, "add");
      annotate_input_qspec_map(relu, x, SharedQuantizationSpec{EdgeOrNode::edge(relu, add)});
      annotate_input_qspec_map(add, relu, act_spec(-100, 100));
    });
    CHECK_THROWS_AS(prepare_pt2e(two_user_graph(), q), RuntimeError);
  }
  SECTION("a Shared spec naming an edge without a spec is a ValueError") {
    LambdaQuantizer q([](GraphModule& gm) {
      Node *x = find(gm, "x"), *relu = find(gm, "relu"), *add = find(gm, "add");
      annotate_input_qspec_map(relu, x, SharedQuantizationSpec{EdgeOrNode::edge(relu, add)});
    });
    CHECK_THROWS_AS(prepare_pt2e(two_user_graph(), q), ValueError);
  }
  SECTION("an annotation naming a node outside the graph is a ValueError") {
    GraphModule other = two_user_graph();
    Node* foreign = other.graph.find("x");
    LambdaQuantizer q([foreign](GraphModule& gm) { annotate_input_qspec_map(find(gm, "relu"), foreign, act_spec()); });
    CHECK_THROWS_WITH(prepare_pt2e(two_user_graph(), q),
                      Catch::Contains("node relu") && Catch::Contains("not a node of this graph"));
    CHECK_THROWS_AS(prepare_pt2e(two_user_graph(), q), ValueError);
  }
  SECTION("a spec with quant_min > quant_max is a ValueError, at annotation time") {
    GraphModule gm = two_user_graph();
    CHECK_THROWS_AS(annotate_output_qspec(find(gm, "relu"), act_spec(10, -10)), ValueError);
    QuantizationSpec neg_axis = act_spec();
    neg_axis.ch_axis = -1;
    CHECK_THROWS_AS(neg_axis.validate(), ValueError);
  }
  SECTION("a spec range the observer rejects (0 outside the range) is a ValueError from make_observer") {
    LambdaQuantizer q([](GraphModule& gm) { annotate_input_qspec_map(find(gm, "relu"), find(gm, "x"), act_spec(5, 100)); });
    CHECK_THROWS_AS(prepare_pt2e(two_user_graph(), q), ValueError);
  }
  SECTION("a directly edited annotation with an invalid range is caught by prepare") {
    LambdaQuantizer q([](GraphModule& gm) {
      ensure_annotation(find(gm, "relu")).output_qspec = act_spec(10, -10);
    });
    CHECK_THROWS_AS(prepare_pt2e(two_user_graph(), q), ValueError);
  }
}

TEST_CASE("QuantizationSpec value equality and config getters", "[quantizer]") {
  CHECK(act_spec() == act_spec());
  CHECK(!(act_spec() == act_spec(-127, 127)));
  QuantizationSpec other_eps = act_spec();
  other_eps.observer_or_fake_quant_ctr.kwargs.eps = 1e-3f;
  CHECK(!(act_spec() == other_eps));
  const QuantizationConfig a = get_symmetric_quantization_config({.is_per_channel = true});
  CHECK(a == get_symmetric_quantization_config({.is_per_channel = true}));
  CHECK(a.weight->qscheme == QScheme::per_channel_symmetric);
  CHECK(a.weight->ch_axis == 0);
  CHECK(a.input_activation->observer_or_fake_quant_ctr.name == "HistogramObserver");
  CHECK(!a.bias);
  CHECK(!get_symmetric_quantization_config({.is_dynamic = true}).output_activation);
  QuantizationConfig bad = a;
  bad.input_activation->qscheme = QScheme::per_channel_affine;
  CHECK_THROWS_AS(get_input_act_qspec(bad), ValueError);
  bad = a;
  bad.weight->qscheme = QScheme::per_tensor_affine;
  CHECK_THROWS_AS(get_weight_qspec(bad), ValueError);
}

TEST_CASE("XNNPACKQuantizer: set_module_name None, set_operator_type ignored, module filters", "[xnnpack]") {
  XNNPACKQuantizer q;
  CHECK_THROWS_AS(q.set_module_name("conv1", std::nullopt), ValueError);
  manual_seed(0);
  Model m = get_model("residual", {.ch = 8});
  GraphModule gm = export_module(m, {randn({4, 8, 16, 16})});
  // Only an operator-type config: stored but never used, so nothing is annotated.
  q.set_operator_type("aten.conv2d.default", get_symmetric_quantization_config());
  GraphModule a = gm.clone();
  q.annotate(a);
  CHECK(annotation_table(a).rows.empty());
  // A module-name config quantizes only that module's linear (the global config is unset).
  manual_seed(0);
  Model mlp = get_model("mlp");
  XNNPACKQuantizer q2;
  q2.set_module_name("fc2", get_symmetric_quantization_config());
  GraphModule p = prepare_pt2e(export_module(mlp, example_inputs(mlp, 4)), q2);
  std::vector<std::string> observed;
  for (const Node* n : observer_nodes(p))
    for (const Node* u : n->users()) observed.push_back(u->name);
  CHECK(observed == std::vector<std::string>{"linear_1", "linear_1", "output"});
}

TEST_CASE("XNNPACKQuantizer transform_for_annotation: scalar operands of add / mul become buffers", "[xnnpack]") {
  GraphModule gm;
  Node* x = gm.graph.placeholder("x");
  Node* mul = gm.graph.call_function("aten.mul.Tensor", {x, 0.5});
  Node* add = gm.graph.call_function("aten.add.Tensor", {mul, 2.0});
  gm.graph.output({add});
  XNNPACKQuantizer q;
  q.transform_for_annotation(gm);
  CHECK(gm.graph.find("_tensor_constant_0")->op == OpKind::get_attr);
  CHECK(gm.get_tensor("_tensor_constant_0").item() == 0.5f);
  CHECK(gm.get_tensor("_tensor_constant_1").item() == 2.0f);
  CHECK(mul->args()[1].node()->name == "_tensor_constant_0");
  CHECK(add->args()[1].node()->name == "_tensor_constant_1");
  manual_seed(0);
  const Tensor in = randn({3, 4});
  const Tensor out = gm.forward({in})[0];
  for (int64_t i = 0; i < in.numel(); ++i) CHECK(out.data<float>()[i] == in.data<float>()[i] * 0.5f + 2.0f);
}

TEST_CASE("convert: DuplicateDQPass skips unannotated users, dtype codes", "[convert]") {
  LambdaQuantizer q([](GraphModule& gm) { annotate_output_qspec(find(gm, "x"), act_spec()); });
  GraphModule p = prepare_pt2e(two_user_graph(), q);
  manual_seed(3);
  p.forward({randn({2, 4})});
  GraphModule c = convert_pt2e(p);
  // x's output is quantized once; relu and add are unannotated, so they keep sharing one dq.
  const auto qdq = qdq_nodes(c);
  REQUIRE(qdq.size() == 2);
  CHECK(qdq[1]->users().size() == 2);
  CHECK(dtype_from_code(dtype_code(DType::Int8)) == DType::Int8);
  CHECK_THROWS_AS(dtype_from_code(42), ValueError);
  // use_reference_representation is built (pt2e/reference_representation.h; tests/engine/lower/).
  CHECK_NOTHROW(convert_pt2e(p, /*use_reference_representation=*/true));
}
