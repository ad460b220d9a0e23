// test_graph_ir.cpp — the IR's naming, mutation API, validation, interpreter hooks and passes on
// hand-built graphs, and the typed errors bad graphs get (each naming the node).
#include <catch2/catch.hpp>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/passes.h"
#include "graph/report.h"
#include "ops/golden.h"
#include "ops/ops.h"

using namespace pt;
using golden::max_rel_diff;

namespace {
// A stand-in observer: records min / max of what flows through, returns its input unchanged.
struct RecordingObserver : SubModule {
  int calls = 0;
  float min_val = 1e30f, max_val = -1e30f;
  std::string type_name() const override { return "MinMaxObserver"; }
  Tensor forward(const Tensor& x) override {
    ++calls;
    for (float v : std::span<const float>(x.data<float>(), static_cast<size_t>(x.numel()))) {
      min_val = std::min(min_val, v);
      max_val = std::max(max_val, v);
    }
    return x;
  }
  std::string describe() const override { return "calls=" + std::to_string(calls); }
  std::shared_ptr<SubModule> clone() const override { return std::make_shared<RecordingObserver>(*this); }
};

// x -> conv2d(w, b) -> relu -> relu -> output, with a [4, 3, 3, 3] weight.
GraphModule small_graph() {
  GraphModule gm;
  manual_seed(3);
  gm.set_tensor("conv.weight", randn({4, 3, 3, 3}));
  gm.set_tensor("conv.bias", randn({4}));
  Graph& g = gm.graph;
  Node* w = g.get_attr("conv.weight");
  Node* b = g.get_attr("conv.bias");
  Node* x = g.placeholder("x");
  Node* c = g.call_function("aten.conv2d.default", {x, w, b, std::vector<int64_t>{1, 1}, std::vector<int64_t>{1, 1}});
  Node* r = g.call_function("aten.relu.default", {c});
  Node* r2 = g.call_function("aten.relu.default", {r});
  g.output({r2});
  return gm;
}
}  // namespace

TEST_CASE("nodes are named as torch.export names them and users stay in sync", "[graph]") {
  GraphModule gm = small_graph();
  Graph& g = gm.graph;
  g.lint();
  CHECK(g.find("conv_weight")->op == OpKind::get_attr);
  CHECK(g.find("conv2d") != nullptr);
  CHECK(g.find("relu") != nullptr);
  CHECK(g.find("relu_1") != nullptr);
  CHECK(g.unique_name("relu_1") == "relu_2");
  Node* relu = g.find("relu");
  REQUIRE(g.find("conv2d")->users().size() == 1);
  CHECK(g.find("conv2d")->users()[0] == relu);
  CHECK(g.find("relu_1")->all_input_nodes() == std::vector<Node*>{relu});
  CHECK(g.find_output()->args()[0].str() == "[%relu_1]");
}

TEST_CASE("insert an observer the way prepare_pt2e will: insert_after + replace_all_uses_with", "[graph]") {
  GraphModule gm = small_graph();
  Graph& g = gm.graph;
  Tensor x = randn({2, 3, 6, 6});
  Tensor before = gm.forward({x})[0];

  auto obs = std::make_shared<RecordingObserver>();
  gm.add_module("activation_post_process_0", obs);
  Node* in = g.find("x");
  Node* o = g.insert_after(in, OpKind::call_module, "activation_post_process_0", {in}, "activation_post_process_0");
  auto changed = g.replace_all_uses_with(in, o, [&](Node* u) { return u != o; });
  g.lint();
  CHECK(changed.size() == 1);
  CHECK(in->users() == std::vector<Node*>{o});
  CHECK(g.index_of(o) == g.index_of(in) + 1);

  std::vector<std::string> seen;
  Tensor after = run_graph(gm, {x}, [&](const Node& n, const Value&) { seen.push_back(n.name); })[0];
  CHECK(golden::bit_equal(before, after));
  CHECK(obs->calls == 1);
  CHECK(obs->min_val == *std::min_element(x.data<float>(), x.data<float>() + x.numel()));
  CHECK(seen.back() == "output");
  CHECK(observer_nodes(gm) == std::vector<Node*>{o});
  CHECK(diff_ops(small_graph(), gm)[0].op == "<module:MinMaxObserver>");
  CHECK(diff_ops(small_graph(), gm)[0].delta == 1);

  // insert_before + erase + DCE
  Node* r = g.find("relu");
  Node* extra = g.insert_before(r, OpKind::call_function, "aten.relu.default", {g.find("conv2d")}, "");
  CHECK(extra->name == "relu_2");
  CHECK(g.index_of(extra) == g.index_of(r) - 1);
  CHECK(g.eliminate_dead_code() == 1);
  CHECK(g.find("relu_2") == nullptr);
  CHECK_THROWS_AS(g.erase_node(g.find("conv2d")), RuntimeError);
  CHECK_THROWS_WITH(g.erase_node(g.find("conv2d")), Catch::Contains("conv2d") && Catch::Contains("users"));

  // clone: same names, independent graph and submodules
  GraphModule copy = gm.clone();
  copy.graph.lint();
  CHECK(copy.graph.find("activation_post_process_0") != nullptr);
  copy.forward({x});
  CHECK(obs->calls == 1);  // the copy ran its own observer, not the original
  CHECK(copy.get_module("activation_post_process_0")->describe() == "calls=2");
  CHECK(copy.graph.size() == gm.graph.size());
}

namespace {
// An annotation that points at a node, to check that clone() remaps it.
struct NodeRefAnnotation : NodeAnnotation {
  Node* input = nullptr;
  std::vector<std::pair<std::string, std::string>> input_spec_labels() const override { return {{input->name, "Spec"}}; }
  std::string output_spec_label() const override { return "NoneType"; }
  bool annotated() const override { return true; }
  std::shared_ptr<const NodeAnnotation> with_nodes_remapped(const std::function<Node*(const Node*)>& map) const override {
    auto copy = std::make_shared<NodeRefAnnotation>(*this);
    copy->input = map(input);
    return copy;
  }
};
}  // namespace

TEST_CASE("clone remaps annotations and keeps a submodule shared by two names as one object", "[graph]") {
  GraphModule gm = small_graph();
  auto obs = std::make_shared<RecordingObserver>();
  gm.add_module("activation_post_process_0", obs);
  gm.add_module("activation_post_process_1", obs);
  auto ann = std::make_shared<NodeRefAnnotation>();
  ann->input = gm.graph.find("x");
  gm.graph.find("conv2d")->meta.quantization_annotation = ann;
  GraphModule copy = gm.clone();
  CHECK(copy.get_module("activation_post_process_0") == copy.get_module("activation_post_process_1"));
  CHECK(copy.get_module("activation_post_process_0") != obs.get());
  auto* c = dynamic_cast<const NodeRefAnnotation*>(copy.graph.find("conv2d")->meta.quantization_annotation.get());
  REQUIRE(c != nullptr);
  CHECK(c->input == copy.graph.find("x"));
  CHECK(ann->input == gm.graph.find("x"));
}

TEST_CASE("other rooms add call_function targets with register_op", "[graph]") {
  const std::string target = "test_ns.scale_by.default";  // (self, factor)
  CHECK(find_op(target) == nullptr);
  auto targets = registered_targets();
  CHECK(std::find(targets.begin(), targets.end(), "aten.conv2d.default") != targets.end());
  register_op(target, [](const OpArgs& a) { return Value(ops::mul(a.tensor(0), Tensor::scalar(float(a.number(1))))); });
  targets = registered_targets();
  CHECK(std::find(targets.begin(), targets.end(), target) != targets.end());
  GraphModule gm;
  Node* x = gm.graph.placeholder("x");
  gm.graph.output({gm.graph.call_function(target, {x, 3.0})});
  CHECK(gm.graph.find("scale_by") != nullptr);
  Tensor y = gm.forward({Tensor::from<float>({1.f, -2.f}, {2})})[0];
  CHECK(y.data<float>()[1] == -6.f);
  CHECK_THROWS_AS(register_op("x", nullptr), ValueError);
}

TEST_CASE("bad graphs get typed errors naming the node", "[graph][errors]") {
  SECTION("a cycle") {
    GraphModule gm = small_graph();
    Graph& g = gm.graph;
    g.set_args(g.find("relu"), {g.find("relu_1")});  // relu <- relu_1 <- relu
    CHECK_THROWS_AS(g.lint(), RuntimeError);
    CHECK_THROWS_WITH(g.lint(), Catch::Contains("node relu ") && Catch::Contains("cycle"));
    CHECK_THROWS_WITH(gm.forward({randn({1, 3, 4, 4})}), Catch::Contains("node relu "));
  }
  SECTION("a use before definition that is not a cycle") {
    GraphModule gm = small_graph();
    Graph& g = gm.graph;
    Node* late = g.call_function("aten.relu.default", {g.find("x")}, "late");
    g.set_args(g.find("relu"), {late});
    CHECK_THROWS_WITH(g.lint(), Catch::Contains("node relu ") && Catch::Contains("not topological"));
  }
  SECTION("a dangling argument") {
    GraphModule other = small_graph();
    GraphModule gm = small_graph();
    CHECK_THROWS_AS(gm.graph.call_function("aten.relu.default", {other.graph.find("relu")}, "r"), RuntimeError);
    CHECK_THROWS_WITH(gm.graph.set_args(gm.graph.find("relu"), {other.graph.find("conv2d")}),
                      Catch::Contains("node relu") && Catch::Contains("dangling"));
    gm.graph.lint();  // unchanged by the failed calls
  }
  SECTION("a shape mismatch inside an op") {
    GraphModule gm = small_graph();
    CHECK_THROWS_AS(gm.forward({randn({1, 5, 8, 8})}), RuntimeError);
    CHECK_THROWS_WITH(gm.forward({randn({1, 5, 8, 8})}),
                      Catch::StartsWith("node conv2d (aten.conv2d.default): conv2d: expected input with 3 channels"));
  }
  SECTION("an unknown target") {
    GraphModule gm = small_graph();
    Node* r = gm.graph.find("relu");
    Node* gelu = gm.graph.insert_after(r, OpKind::call_function, "aten.gelu.default", {r}, "gelu");
    gm.graph.set_args(gm.graph.find("relu_1"), {gelu});
    gm.graph.lint();  // a well-formed graph ...
    CHECK_THROWS_AS(gm.forward({randn({1, 3, 4, 4})}), NotImplementedError);
    CHECK_THROWS_WITH(gm.forward({randn({1, 3, 4, 4})}), Catch::StartsWith("node gelu (aten.gelu.default)"));
  }
  SECTION("wrong argument kinds, inputs, missing parameters and modules") {
    GraphModule gm = small_graph();
    CHECK_THROWS_AS(gm.forward({}), ValueError);
    gm.graph.set_args(gm.graph.find("relu"), {Arg(int64_t{3})});
    CHECK_THROWS_AS(gm.forward({randn({1, 3, 4, 4})}), TypeError);
    CHECK_THROWS_WITH(gm.forward({randn({1, 3, 4, 4})}), Catch::StartsWith("node relu "));
    GraphModule gm2 = small_graph();
    Node* x = gm2.graph.find("x");
    gm2.graph.insert_after(x, OpKind::call_module, "activation_post_process_7", {x}, "activation_post_process_7");
    CHECK_THROWS_WITH(gm2.forward({randn({1, 3, 4, 4})}), Catch::Contains("activation_post_process_7"));
    GraphModule gm3;
    gm3.graph.output({gm3.graph.get_attr("missing.weight")});
    CHECK_THROWS_WITH(gm3.forward({}), Catch::StartsWith("node missing_weight "));
    CHECK_THROWS_AS(gm3.graph.output({}), RuntimeError);  // a second output
  }
}

TEST_CASE("fold_bn folds the _native_batch_norm_legit_no_training + getitem form and linear + BN", "[graph][fold]") {
  manual_seed(11);
  GraphModule gm;
  gm.set_tensor("fc.weight", randn({5, 6}));
  gm.set_tensor("bn.weight", ops::add(rand({5}), Tensor::scalar(0.5f)));
  gm.set_tensor("bn.bias", randn({5}));
  gm.set_tensor("bn.running_mean", randn({5}), true);
  gm.set_tensor("bn.running_var", ops::add(rand({5}), Tensor::scalar(0.5f)), true);
  Graph& g = gm.graph;
  Node* w = g.get_attr("fc.weight");
  Node* gamma = g.get_attr("bn.weight");
  Node* beta = g.get_attr("bn.bias");
  Node* mean = g.get_attr("bn.running_mean");
  Node* var = g.get_attr("bn.running_var");
  Node* x = g.placeholder("x");
  Node* lin = g.call_function("aten.linear.default", {x, w, nullptr});
  Node* bn = g.call_function("aten._native_batch_norm_legit_no_training.default", {lin, gamma, beta, mean, var, 0.1, 1e-3});
  Node* item = g.call_function("getitem", {bn, int64_t{0}});
  g.output({g.call_function("aten.relu.default", {item})});
  Tensor in = randn({3, 6});
  propagate_shapes(gm, {in});
  CHECK(!bn->meta.val);  // a tuple output
  REQUIRE(item->meta.val);
  Tensor want = gm.forward({in})[0];

  CHECK(fold_bn(gm) == 1);
  g.lint();
  CHECK(count_ops(gm) == std::map<std::string, int64_t>{{"linear", 1}, {"relu", 1}});
  Node* bias = g.find("fc_weight_bias");
  REQUIRE(bias != nullptr);
  CHECK(bias->target == "fc.weight_bias");
  CHECK(lin->args()[2].node() == bias);
  CHECK(g.index_of(bias) < g.index_of(lin));
  CHECK(g.find("relu")->args()[0].node() == lin);
  CHECK(max_rel_diff(gm.forward({in})[0], want) <= 1e-5);

  // Not folded: linear on a 3-D input (torchao _fuse_linear_bn_ skips linear + BN unless the input may be
  // 2-D). A training-mode BN is folded like an inference one (test_fidelity_prepare_convert.cpp).
  GraphModule keep;
  keep.set_tensor("w", randn({4, 4}));
  for (const char* n : {"m", "v"}) keep.set_tensor(n, rand({4}), true);
  Node* k_in = keep.graph.placeholder("x");
  Node* k_lin = keep.graph.call_function("aten.linear.default", {k_in, keep.graph.get_attr("w")});
  Node* k_bn = keep.graph.call_function(
      "aten.batch_norm.default",
      {k_lin, nullptr, nullptr, keep.graph.get_attr("m"), keep.graph.get_attr("v"), false, 0.1, 1e-5, true});
  keep.graph.output({k_bn});
  propagate_shapes(keep, {randn({2, 4, 4})});
  CHECK(fold_bn(keep) == 0);
  CHECK(count_ops(keep).at("batch_norm") == 1);
}
