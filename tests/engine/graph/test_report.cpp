// test_report.cpp — report tables, text listing and view data on exported zoo graphs, with stand-in
// annotations / observer modules where the PT2E room will later supply real ones.
#include <catch2/catch.hpp>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/report.h"

using namespace pt;

namespace {
struct LabelAnnotation : NodeAnnotation {
  std::vector<std::pair<std::string, std::string>> inputs;
  std::string output = "NoneType";
  bool done = true;
  std::vector<std::pair<std::string, std::string>> input_spec_labels() const override { return inputs; }
  std::string output_spec_label() const override { return output; }
  bool annotated() const override { return done; }
};

struct FixedObserver : SubModule {
  std::string type;
  explicit FixedObserver(std::string t) : type(std::move(t)) {}
  std::string type_name() const override { return type; }
  Tensor forward(const Tensor& x) override { return x; }
  std::string describe() const override { return "scale=0.03299 zp=-5"; }
  std::shared_ptr<SubModule> clone() const override { return std::make_shared<FixedObserver>(*this); }
};

GraphModule residual() {
  manual_seed(0);
  Model m = get_model("residual");
  return export_module(m, example_inputs(m, 4));
}
}  // namespace

TEST_CASE("short_target and op keys", "[report]") {
  CHECK(short_target("aten.conv2d.default") == "conv2d");
  CHECK(short_target("aten.add.Tensor") == "add");
  CHECK(short_target("quantized_decomposed.dequantize_per_channel.default") == "dequantize_per_channel");
  CHECK(short_target("getitem") == "getitem");
  CHECK(short_target("operator.getitem") == "getitem");
}

TEST_CASE("graph_to_string lists nodes as torch.fx prints them", "[report]") {
  GraphModule gm = residual();
  const std::string s = graph_to_string(gm.graph);
  CHECK(s.rfind("graph():\n", 0) == 0);
  CHECK_THAT(s, Catch::Contains("    %conv1_weight : [num_users=1] = get_attr[target=conv1.weight]\n"));
  CHECK_THAT(s, Catch::Contains("    %x : [num_users=2] = placeholder[target=x]\n"));
  CHECK_THAT(s, Catch::Contains("    %conv2d : [num_users=1] = call_function[target=torch.ops.aten.conv2d.default]"
                                "(args = (%x, %conv1_weight, None, [1, 1], [1, 1]), kwargs = {})\n"));
  CHECK_THAT(s, Catch::Contains("(args = (%conv2d, %bn1_weight, %bn1_bias, %bn1_running_mean, %bn1_running_var, "
                                "False, 0.1, 1e-05, True), kwargs = {})"));
  CHECK_THAT(s, Catch::Contains("    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default]"
                                "(args = (%batch_norm,), kwargs = {})\n"));
  CHECK_THAT(s, Catch::EndsWith("    return (relu_1,)\n"));
}

TEST_CASE("graph_view gives nodes, edges, layers, labels and per-node values", "[report]") {
  GraphModule gm = residual();
  fold_bn(gm);
  GraphView v = graph_view(gm, {{"conv2d", 41.5}});
  REQUIRE(v.nodes.size() == gm.graph.size());
  auto node = [&](const std::string& n) {
    for (const auto& vn : v.nodes)
      if (vn.name == n) return vn;
    FAIL("no view node " << n);
    return ViewNode{};
  };
  CHECK(node("x").layer == 0);
  CHECK(node("conv2d").layer == 1);
  CHECK(node("relu").layer == 2);
  CHECK(node("conv2d_1").layer == 3);
  CHECK(node("add").layer == 4);
  CHECK(node("relu_1").layer == 5);
  CHECK(node("output").layer == 6);
  CHECK(node("conv2d").label == "conv2d");
  CHECK(node("conv1_weight").label == "conv1.weight");
  CHECK(node("conv2d").shape == Shape{4, 8, 16, 16});
  CHECK(node("conv2d").dtype == "float32");
  CHECK(node("conv2d").has_value);
  CHECK(node("conv2d").value == 41.5);
  CHECK_FALSE(node("relu").has_value);
  int into_add = 0;
  for (const auto& e : v.edges)
    if (e.to == "add") {
      ++into_add;
      CHECK(e.label == "[4, 8, 16, 16]");
      CHECK((e.from == "conv2d_1" ? e.arg_index == 0 : (e.from == "x" && e.arg_index == 1)));
    }
  CHECK(into_add == 2);
}

TEST_CASE("annotation and observer tables read the annotation / observer data model", "[report]") {
  manual_seed(0);
  GraphModule gm = export_module(get_model("cat_pool"), example_inputs(4));
  Graph& g = gm.graph;
  // Annotate like the seed's XNNPACK run does (cat and max_pool2d left alone).
  auto mark = [&](const char* name, std::vector<std::pair<std::string, std::string>> in, const char* out) {
    auto a = std::make_shared<LabelAnnotation>();
    a->inputs = std::move(in);
    a->output = out;
    g.find(name)->meta.quantization_annotation = a;
  };
  mark("a_weight", {}, "NoneType");
  mark("conv2d", {{"x", "Spec"}, {"a_weight", "Spec"}, {"a_bias", "NoneType"}}, "NoneType");
  for (const char* n : {"relu", "conv2d_1", "relu_1", "conv2d_2", "mean", "add"}) mark(n, {}, "Spec");
  CHECK(meta_keys(*g.find("cat")) == std::vector<std::string>{"nn_module_stack", "val"});  // no source_fn_stack
  CHECK(meta_keys(*g.find("conv2d")) ==
        std::vector<std::string>{"nn_module_stack", "quantization_annotation", "val"});
  CHECK(meta_keys(*g.find("x")) == std::vector<std::string>{"val"});
  Table t = annotation_table(gm);
  REQUIRE(t.rows.size() == 8);
  CHECK(t.headers == std::vector<std::string>{"node", "target", "input_qspec_map", "output_qspec"});
  CHECK(t.rows[0] == std::vector<std::string>{"a_weight", "a.weight", "-", "NoneType"});
  CHECK(t.rows[1] == std::vector<std::string>{"conv2d", "conv2d", "x:Spec, a_weight:Spec, a_bias:NoneType", "NoneType"});
  std::vector<std::string> left;
  for (Node* n : unannotated_ops(gm)) left.push_back(n->name);
  CHECK(left == std::vector<std::string>{"cat", "max_pool2d"});
  CHECK_THAT(t.to_markdown(), Catch::StartsWith("| node | target | input_qspec_map | output_qspec |\n|---|---|---|---|\n"));

  // Observers and q/dq nodes.
  gm.add_module("activation_post_process_0", std::make_shared<FixedObserver>("HistogramObserver"));
  Node* x = g.find("x");
  Node* o = g.insert_after(x, OpKind::call_module, "activation_post_process_0", {x}, "activation_post_process_0");
  g.replace_all_uses_with(x, o, [&](Node* u) { return u != o; });
  Table p = observer_placement_table(gm);
  REQUIRE(p.rows.size() == 1);
  CHECK(p.rows[0] == std::vector<std::string>{"activation_post_process_0", "HistogramObserver", "x", "conv2d, conv2d_1",
                                              "scale=0.03299 zp=-5"});
  GraphView v = graph_view(gm);
  bool green = false;
  for (const auto& n : v.nodes)
    if (n.name == "activation_post_process_0") green = n.is_observer && n.label == "HistogramObserver";
  CHECK(green);
  for (const auto& n : v.nodes)
    if (n.name == "conv2d") CHECK(n.annotations == std::vector<std::string>{"in x: Spec", "in a_weight: Spec",
                                                                            "in a_bias: NoneType", "out: NoneType"});
  Node* relu = g.find("relu");
  Node* q = g.insert_after(relu, OpKind::call_function, "quantized_decomposed.quantize_per_tensor.default", {relu}, "");
  g.insert_after(q, OpKind::call_function, "quantized_decomposed.dequantize_per_tensor.default", {q}, "");
  g.lint();
  CHECK(qdq_nodes(gm).size() == 2);
  CHECK(qdq_nodes(gm)[0]->name == "quantize_per_tensor");
  CHECK(diff_ops_table(diff_ops(gm, gm), "prepare", "convert").rows.size() == count_ops(gm).size());
}
