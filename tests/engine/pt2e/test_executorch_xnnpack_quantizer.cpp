// test_executorch_xnnpack_quantizer.cpp — ExecuTorch's XNNPACKQuantizer: annotations on zoo graphs
// (cat / max_pool2d shared where the torchao copy leaves them fp32), the conv-relu skip, dynamic and
// QAT dispatch, the four priority stages, the filter function, scalar-to-attribute transform, and
// observer sharing after prepare_pt2e.
#include <catch2/catch.hpp>

#include <set>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/report.h"
#include "pt2e/observer_module.h"
#include "annotation_checks.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"

using namespace pt;
using pt::test::input_spec;
using pt::test::is_shared;
using pt::test::is_spec;

namespace {

GraphModule exported(const std::string& name) {
  manual_seed(0);
  Model m = get_model(name);
  return export_module(m, example_inputs(m, 4));
}

// What the quantizer sees inside prepare_pt2e: batch norms folded, then its own transform.
GraphModule annotated(const std::string& name, Quantizer& q) {
  GraphModule gm = exported(name);
  fold_bn(gm);
  q.transform_for_annotation(gm);
  q.annotate(gm);
  return gm;
}

const QuantizationAnnotation& ann(const GraphModule& gm, const std::string& node) {
  const Node* n = gm.graph.find(node);
  REQUIRE(n != nullptr);
  const QuantizationAnnotation* a = get_annotation(n);
  REQUIRE(a != nullptr);
  return *a;
}

std::set<std::string> unannotated_names(const GraphModule& gm) {
  std::set<std::string> out;
  for (const Node* n : unannotated_ops(gm)) out.insert(n->name);
  return out;
}

QuantizationConfig per_channel() { return get_symmetric_quantization_config({.is_per_channel = true}); }

executorch::XNNPACKQuantizer et_global(const QuantizationConfig& cfg) {
  executorch::XNNPACKQuantizer q;
  q.set_global(cfg);
  return q;
}

}  // namespace

TEST_CASE("ExecuTorch XNNPACKQuantizer annotates cat and max_pool2d of CatPoolNet with shared qparams",
          "[executorch]") {
  const QuantizationConfig cfg = per_channel();
  auto et = et_global(cfg);
  GraphModule gm = annotated("cat_pool", et);
  Node* cat = gm.graph.find("cat");
  Node* relu = gm.graph.find("relu");
  // relu is the first input with an annotated output: it owns the qparams, relu_1 and the output share.
  CHECK(is_spec(input_spec(gm, "cat", "relu"), cfg.input_activation));
  CHECK(is_shared(input_spec(gm, "cat", "relu_1"), EdgeOrNode::edge(relu, cat)));
  CHECK(is_shared(ann(gm, "cat").output_qspec, EdgeOrNode::edge(relu, cat)));
  CHECK(ann(gm, "cat")._annotated);
  // max_pool2d is reached by propagation: Shared(cat) in and out.
  CHECK(is_shared(input_spec(gm, "max_pool2d", "cat"), EdgeOrNode::output(cat)));
  CHECK(is_shared(ann(gm, "max_pool2d").output_qspec, EdgeOrNode::output(cat)));
  CHECK(unannotated_names(gm).empty());

  // The torchao testing copy finds cat through source_fn_stack, which these graphs lack (seed M01-2).
  XNNPACKQuantizer torchao_copy;
  torchao_copy.set_global(cfg);
  GraphModule old = annotated("cat_pool", torchao_copy);
  CHECK(unannotated_names(old) == std::set<std::string>{"cat", "max_pool2d"});
}

TEST_CASE("ExecuTorch XNNPACKQuantizer: after prepare_pt2e cat's inputs and output share one observer",
          "[executorch]") {
  auto et = et_global(per_channel());
  GraphModule prepared = prepare_pt2e(exported("cat_pool"), et);
  const Node* cat = prepared.graph.find("cat");
  REQUIRE(cat != nullptr);
  const auto& list = std::get<std::vector<Node*>>(cat->args()[0].v);
  REQUIRE(list.size() == 2);
  ObserverBase* in0 = get_observer(prepared, list[0]);
  ObserverBase* in1 = get_observer(prepared, list[1]);
  REQUIRE(in0 != nullptr);
  REQUIRE(in1 != nullptr);
  CHECK(in0 == in1);
  REQUIRE(cat->users().size() == 1);
  CHECK(get_observer(prepared, cat->users()[0]) == in0);
  const Node* pool = prepared.graph.find("max_pool2d");
  CHECK(get_observer(prepared, pool->args()[0].node()) == in0);
  REQUIRE(pool->users().size() == 1);
  CHECK(get_observer(prepared, pool->users()[0]) == in0);

  // The torchao copy gives the two branches different observers.
  XNNPACKQuantizer torchao_copy;
  torchao_copy.set_global(per_channel());
  GraphModule old = prepare_pt2e(exported("cat_pool"), torchao_copy);
  const auto& old_list = std::get<std::vector<Node*>>(old.graph.find("cat")->args()[0].v);
  CHECK(get_observer(old, old_list[0]) != get_observer(old, old_list[1]));
}

TEST_CASE("ExecuTorch conv annotator leaves a conv with a single relu user to conv_relu", "[executorch]") {
  const QuantizationConfig cfg = per_channel();
  auto et = et_global(cfg);
  GraphModule gm = annotated("conv_relu", et);
  CHECK(is_spec(input_spec(gm, "conv2d", "x"), cfg.input_activation));
  CHECK(is_spec(input_spec(gm, "conv2d", "conv_weight"), cfg.weight));
  CHECK_FALSE(ann(gm, "conv2d").output_qspec.has_value());
  CHECK(is_spec(ann(gm, "relu").output_qspec, cfg.output_activation));

  // CatPoolNet's `out` conv has two users (mean, add): the conv annotator takes it, output included.
  GraphModule cp = annotated("cat_pool", et);
  CHECK(is_spec(ann(cp, "conv2d_2").output_qspec, cfg.output_activation));
  CHECK(is_shared(ann(cp, "mean").output_qspec, EdgeOrNode::output(cp.graph.find("conv2d_2"))));
  CHECK(is_spec(ann(cp, "add").output_qspec, cfg.output_activation));
}

TEST_CASE("ExecuTorch dynamic config runs only linear / conv / conv_transpose", "[executorch]") {
  const QuantizationConfig dyn = get_symmetric_quantization_config({.is_per_channel = true, .is_dynamic = true});
  auto et = et_global(dyn);
  // conv -> relu: the conv annotator skips it and conv_relu is not a dynamic pattern.
  CHECK(unannotated_names(annotated("conv_relu", et)) == std::set<std::string>{"conv2d", "relu"});
  // residual: conv2 (user add) is quantized dynamically, without an output spec; add stays fp32.
  GraphModule res = annotated("residual", et);
  CHECK(is_spec(input_spec(res, "conv2d_1", "relu"), dyn.input_activation));
  CHECK_FALSE(ann(res, "conv2d_1").output_qspec.has_value());
  CHECK(unannotated_names(res) == std::set<std::string>{"conv2d", "relu", "add", "relu_1"});
  // mlp: both linears; relu has no output spec to propagate from.
  GraphModule mlp = annotated("mlp", et);
  CHECK(is_spec(input_spec(mlp, "linear", "x"), dyn.input_activation));
  CHECK(is_spec(input_spec(mlp, "linear_1", "relu"), dyn.input_activation));
  CHECK(unannotated_names(mlp) == std::set<std::string>{"relu"});
}

TEST_CASE("ExecuTorch dynamic conv skips depthwise and non-2-D weights", "[executorch]") {
  auto build = [](const Shape& w_shape, const char* target) {
    GraphModule gm;
    Node* w = gm.graph.get_attr("conv.weight");
    w->meta.val = TensorMeta{w_shape};
    Node* x = gm.graph.placeholder("x");
    x->meta.val = TensorMeta{{1, 8, 8, 8}};
    Node* c = gm.graph.call_function(target, {x, w});
    c->meta.val = TensorMeta{{1, 8, 6, 6}};
    gm.graph.output({c});
    return gm;
  };
  auto et = et_global(get_symmetric_quantization_config({.is_dynamic = true}));
  GraphModule regular = build({8, 8, 3, 3}, "aten.conv2d.default");
  et.annotate(regular);
  CHECK(get_annotation(regular.graph.find("conv2d")) != nullptr);
  GraphModule depthwise = build({8, 1, 3, 3}, "aten.conv2d.default");
  et.annotate(depthwise);
  CHECK(get_annotation(depthwise.graph.find("conv2d")) == nullptr);
  GraphModule conv1d = build({8, 8, 3}, "aten.conv1d.default");
  et.annotate(conv1d);
  CHECK(get_annotation(conv1d.graph.find("conv1d")) == nullptr);
  // A static config annotates all three.
  auto st = et_global(get_symmetric_quantization_config());
  GraphModule dw_static = build({8, 1, 3, 3}, "aten.conv2d.default");
  st.annotate(dw_static);
  CHECK(get_annotation(dw_static.graph.find("conv2d")) != nullptr);
}

TEST_CASE("ExecuTorch QAT config matches conv -> batch_norm -> relu before folding", "[executorch]") {
  const QuantizationConfig qat = get_symmetric_quantization_config({.is_per_channel = true, .is_qat = true});
  auto et = et_global(qat);
  GraphModule gm = exported("stem");  // prepare_qat_pt2e keeps the batch norm
  et.annotate(gm);
  CHECK(is_spec(input_spec(gm, "conv2d", "x"), qat.input_activation));
  CHECK_FALSE(ann(gm, "conv2d").output_qspec.has_value());
  CHECK(get_annotation(gm.graph.find("batch_norm")) == nullptr);
  CHECK(is_spec(ann(gm, "relu").output_qspec, qat.output_activation));
  // The same pattern under a static PTQ config is not matched (QAT-only patterns): conv + bn stay.
  auto ptq = et_global(per_channel());
  GraphModule unfolded = exported("stem");
  ptq.annotate(unfolded);
  CHECK(unannotated_names(unfolded).count("batch_norm") == 1);
}

TEST_CASE("ExecuTorch priorities module_name then module_type then operator_type then global", "[executorch]") {
  auto cfg_with_act_min = [](int64_t qmin) { return get_symmetric_quantization_config({.act_qmin = qmin}); };
  const QuantizationConfig by_name = cfg_with_act_min(-120), by_type = cfg_with_act_min(-110),
                           global = cfg_with_act_min(-128);
  executorch::XNNPACKQuantizer q;
  q.set_global(global).set_module_type("torch.nn.modules.linear.Linear", by_type).set_module_name("fc1", by_name);
  GraphModule mlp = annotated("mlp", q);
  // linear_relu needs relu (outside any module) to pass the module filters, so the linear annotator
  // (which filters the linear node only) takes each linear in its own stage.
  CHECK(is_spec(input_spec(mlp, "linear", "x"), by_name.input_activation));
  CHECK(is_spec(ann(mlp, "linear").output_qspec, by_name.output_activation));
  CHECK(is_spec(input_spec(mlp, "linear_1", "relu"), by_type.input_activation));
  CHECK(is_shared(ann(mlp, "relu").output_qspec, EdgeOrNode::output(mlp.graph.find("linear"))));

  const QuantizationConfig by_op = cfg_with_act_min(-100);
  executorch::XNNPACKQuantizer op_q;
  op_q.set_global(global).set_operator_type("aten.add.Tensor", by_op);
  GraphModule cp = annotated("cat_pool", op_q);
  CHECK(is_spec(input_spec(cp, "add", "mean"), by_op.input_activation));
  CHECK(is_spec(input_spec(cp, "conv2d", "x"), global.input_activation));
  // The pattern sets hold overloads: the packet name selects no pattern, the global config applies.
  executorch::XNNPACKQuantizer packet_q;
  packet_q.set_global(global).set_operator_type("aten.add", by_op);
  CHECK(is_spec(input_spec(annotated("cat_pool", packet_q), "add", "mean"), global.input_activation));
  CHECK_THROWS_AS(q.set_module_name("fc2", std::nullopt), ValueError);
}

TEST_CASE("ExecuTorch set_filter_function is AND-ed with every stage but cat ignores filters", "[executorch]") {
  auto q = et_global(per_channel());
  q.set_filter_function([](const Node* n) { return n->name != "conv2d_1"; });
  GraphModule gm = annotated("cat_pool", q);
  const std::set<std::string> left = unannotated_names(gm);
  CHECK(left.count("conv2d_1") == 1);
  CHECK(left.count("relu_1") == 1);
  CHECK(left.count("conv2d") == 0);
  CHECK(ann(gm, "cat")._annotated);  // ExecuTorch's cat annotator takes no filter
  // relu_1 has no annotated source, so relu (the first annotated input) still owns the qparams.
  CHECK(is_spec(input_spec(gm, "cat", "relu"), per_channel().input_activation));
}

TEST_CASE("ExecuTorch transform_for_annotation turns add / mul scalars into observed buffers", "[executorch]") {
  GraphModule gm;
  Node* x = gm.graph.placeholder("x");
  x->meta.val = TensorMeta{{2, 3}};
  Node* add = gm.graph.call_function("aten.add.Tensor", {x, 2.5});
  add->meta.val = TensorMeta{{2, 3}};
  Node* mul = gm.graph.call_function("aten.mul.Tensor", {add, int64_t{3}});
  mul->meta.val = TensorMeta{{2, 3}};
  gm.graph.output({mul});
  auto q = et_global(get_symmetric_quantization_config());
  q.transform_for_annotation(gm);
  gm.graph.lint();
  Node* c0 = add->args()[1].node();
  Node* c1 = mul->args()[1].node();
  REQUIRE(c0 != nullptr);
  REQUIRE(c1 != nullptr);
  CHECK(c0->op == OpKind::get_attr);
  CHECK(c0->target == "_tensor_constant_0");
  CHECK(c1->target == "_tensor_constant_1");
  CHECK(gm.get_tensor("_tensor_constant_0").data<float>()[0] == 2.5f);
  CHECK(gm.get_tensor("_tensor_constant_1").data<float>()[0] == 3.0f);
  const Tensor in = Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  CHECK(gm.forward({in})[0].data<float>()[5] == (6 + 2.5f) * 3);
  q.annotate(gm);
  CHECK(ann(gm, "add").input_qspec(c0) != nullptr);  // the constant is now an observed input
}

TEST_CASE("ExecuTorch conv_transpose weights are per output channel on axis 1 and grouped ones are skipped",
          "[executorch]") {
  auto build = [](int64_t groups) {
    GraphModule gm;
    Node* w = gm.graph.get_attr("up.weight");
    w->meta.val = TensorMeta{{8, 4 / groups, 2, 2}};  // [C_in, C_out / groups, kh, kw]
    Node* x = gm.graph.placeholder("x");
    x->meta.val = TensorMeta{{1, 8, 4, 4}};
    Node* up = gm.graph.call_function("aten.conv_transpose2d.input", {x, w});
    up->meta.val = TensorMeta{{1, 4, 8, 8}};
    Node* relu = gm.graph.call_function("aten.relu.default", {up});
    relu->meta.val = TensorMeta{{1, 4, 8, 8}};
    gm.graph.output({relu});
    return gm;
  };
  const QuantizationConfig cfg = per_channel();
  auto q = et_global(cfg);
  GraphModule gm = build(1);
  q.annotate(gm);
  const OptionalQSpec& w = input_spec(gm, "conv_transpose2d", "up_weight");
  REQUIRE(w);
  CHECK(std::get<QuantizationSpec>(*w).ch_axis == 1);
  CHECK(std::get<QuantizationSpec>(*w).qscheme == QScheme::per_channel_symmetric);
  CHECK(is_spec(ann(gm, "relu").output_qspec, cfg.output_activation));  // conv_transpose_relu
  GraphModule grouped = build(2);
  q.annotate(grouped);
  CHECK(get_annotation(grouped.graph.find("conv_transpose2d")) == nullptr);
}
