// test_graph_books.cpp — graph editing that keeps its own books: erasing a node drops what other
// nodes' annotations say about it (so none holds a dangling Node*, and convert_pt2e needs no re-matching
// by name), and node.meta["custom"] rides through prepare_pt2e / convert_pt2e / clone where torchao
// carries a node's provenance.
#include <catch2/catch.hpp>

#include <map>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/report.h"
#include "graph/targets.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

using namespace pt;

namespace {

QuantizationSpec act_spec() {
  ObserverArgs kwargs;
  kwargs.eps = 0x1p-12f;
  return QuantizationSpec{DType::Int8, {"MinMaxObserver", kwargs}, -128, 127, QScheme::per_tensor_affine,
                          std::nullopt, false};
}

OptionalQSpec shared(EdgeOrNode e) { return QuantizationSpecBase(SharedQuantizationSpec{e}); }

bool has_key(const QuantizationAnnotation& a, const Node* n) { return a.input_qspec(n) != nullptr; }

// x -> relu -> add(relu, x) -> output, and a dead get_attr `b` that annotations name.
struct Annotated {
  GraphModule gm;
  Node *x, *b, *relu, *add;
  Annotated() {
    x = gm.graph.placeholder("x");
    gm.set_tensor("b", Tensor::scalar(1.f));
    b = gm.graph.get_attr("b");
    relu = gm.graph.call_function(target::relu, {x});
    add = gm.graph.call_function(target::add, {relu, x});
    gm.graph.output({add});
    manual_seed(0);
    propagate_shapes(gm, {randn({2, 4})});
    annotate_input_qspec_map(relu, x, act_spec());
    annotate_output_qspec(x, act_spec());
    annotate_input_qspec_map(add, relu, act_spec());
    annotate_input_qspec_map(add, b, act_spec());                               // a key that is no argument
    annotate_input_qspec_map(add, x, shared(EdgeOrNode::output(b)));            // a spec naming b
    annotate_output_qspec(add, shared(EdgeOrNode::edge(b, add)));               // an edge from b
    DerivedQuantizationSpec d;
    d.derived_from = {EdgeOrNode::output(x), EdgeOrNode::output(b)};
    d.derive_qparams_fn = [](const std::vector<ObserverBase*>&) { return QParams{}; };
    annotate_output_qspec(relu, QuantizationSpecBase(d));                      // derived from b
  }
};

}  // namespace

TEST_CASE("erase_node drops the annotation entries and specs that name the erased node", "[graph][books]") {
  Annotated g;
  const NodeAnnotation* untouched = g.x->meta.quantization_annotation.get();
  REQUIRE(g.gm.graph.find("b") == g.b);
  CHECK(get_annotation(g.add)->refers_to(g.b));
  CHECK(get_annotation(g.relu)->refers_to(g.b));
  g.gm.graph.erase_node(g.b);
  CHECK(g.gm.graph.find("b") == nullptr);
  for (const Node* n : g.gm.graph.nodes())
    if (const auto& a = n->meta.quantization_annotation) {
      INFO(n->name);
      CHECK_FALSE(a->refers_to(g.b));
    }
  const QuantizationAnnotation& add = *get_annotation(g.add);
  CHECK(add.input_qspec_map.size() == 1);  // relu's entry stays; b's key and x's Shared(b) entry are gone
  CHECK(has_key(add, g.relu));
  CHECK_FALSE(has_key(add, g.x));
  CHECK_FALSE(add.output_qspec.has_value());  // Shared((b, add)) names a node that is gone
  CHECK(add._annotated == false);
  const QuantizationAnnotation& relu = *get_annotation(g.relu);
  CHECK(has_key(relu, g.x));
  CHECK_FALSE(relu.output_qspec.has_value());  // derived from b
  CHECK(g.x->meta.quantization_annotation.get() == untouched);  // an annotation that never named b is kept
  // The graph prepares: every spec left names nodes of the graph.
  g.gm.graph.lint();
  prepare(g.gm, /*is_qat=*/false);
  CHECK(observer_nodes(g.gm).size() == 2);  // x's output observer (shared by relu's input), add's input from relu
}

TEST_CASE("erasing a node no annotation names leaves every annotation object as it was", "[graph][books]") {
  Annotated g;
  Node* dead = g.gm.graph.call_function(target::sqrt, {g.x});
  std::map<std::string, const NodeAnnotation*> before, after;
  for (const Node* n : g.gm.graph.nodes()) before[n->name] = n->meta.quantization_annotation.get();
  g.gm.graph.erase_node(dead);
  before.erase("sqrt");
  for (const Node* n : g.gm.graph.nodes()) after[n->name] = n->meta.quantization_annotation.get();
  CHECK(before == after);
}

TEST_CASE("convert_pt2e: the folded weights' annotation entries are gone, every key is a node of the graph",
          "[convert][books]") {
  manual_seed(0);
  const Model m = get_model("conv_relu");
  GraphModule gm = export_module(m, example_inputs(m, 2));
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true}));
  GraphModule prepared = prepare_pt2e(gm, q);
  prepared.forward(example_inputs(m, 2));
  const QuantizationAnnotation* before = get_annotation(prepared.graph.find("conv2d"));
  REQUIRE(before);
  CHECK(has_key(*before, prepared.graph.find("conv_weight")));
  GraphModule c = convert_pt2e(prepared);
  CHECK(c.graph.find("conv_weight") == nullptr);  // folded into _frozen_param0
  const QuantizationAnnotation* conv = get_annotation(c.graph.find("conv2d"));
  REQUIRE(conv);
  CHECK(conv->input_qspec_map.size() == before->input_qspec_map.size() - 1);
  for (const auto& [n, spec] : conv->input_qspec_map) CHECK(c.graph.contains(n));
  for (const Node* n : c.graph.nodes())
    if (const QuantizationAnnotation* a = get_annotation(n))
      for (const auto& [in, spec] : a->input_qspec_map) CHECK(c.graph.contains(in));
}

TEST_CASE("meta.custom set after export rides through prepare, convert and clone as torchao carries it",
          "[prepare][convert][books]") {
  manual_seed(0);
  const Model m = get_model("linear_sigmoid");
  GraphModule gm = export_module(m, example_inputs(m, 2));
  Node* linear = gm.graph.find("linear");
  REQUIRE(linear);
  const CustomMeta custom = {{"numeric_debug_handle", int64_t{7}}, {"tag", std::string("fc")}};
  linear->meta.custom = custom;
  CHECK(meta_keys(*linear) == std::vector<std::string>{"custom", "nn_module_stack", "val"});
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config());
  GraphModule prepared = prepare_pt2e(gm, q);
  const Node* pl = prepared.graph.find("linear");
  CHECK(pl->meta.custom == custom);
  // The output observer carries the node's (prepare.py _maybe_insert_output_observer_for_node); input
  // observers carry nothing.
  REQUIRE(pl->users().size() == 1);
  const Node* out_obs = pl->users()[0];
  CHECK(node_kind(*out_obs) == NodeKind::observer);
  CHECK(out_obs->meta.custom == custom);
  for (const Node* o : observer_nodes(prepared))
    if (o != out_obs) CHECK(o->meta.custom.empty());
  GraphModule copy = prepared.clone();
  CHECK(copy.graph.find("linear")->meta.custom == custom);
  CHECK(copy.graph.find(out_obs->name)->meta.custom == custom);
  prepared.forward(example_inputs(m, 2));
  GraphModule c = convert_pt2e(prepared);
  const Node* cl = c.graph.find("linear");
  CHECK(cl->meta.custom == custom);
  // The observer became q -> dq; both carry its custom (convert.py add_quantize_dequantize_node_info).
  REQUIRE(cl->users().size() == 1);
  const Node* qn = cl->users()[0];
  REQUIRE(node_kind(*qn) == NodeKind::quantize);
  REQUIRE(qn->users().size() == 1);
  const Node* dq = qn->users()[0];
  CHECK(node_kind(*dq) == NodeKind::dequantize);
  CHECK(qn->meta.custom == custom);
  CHECK(dq->meta.custom == custom);
  int others = 0;
  for (const Node* n : c.graph.nodes())
    if (n != cl && n != qn && n != dq) others += n->meta.custom.empty() ? 0 : 1;
  CHECK(others == 0);
  CHECK(c.clone().graph.find(dq->name)->meta.custom == custom);
  CHECK(gm.graph.find("linear")->meta.custom == custom);  // prepare / convert work on copies
}
