// test_x86_inductor_quantizer.cpp — X86InductorQuantizer: the default config, inputs-only annotation
// with the quantized-output flag on conv_relu / residual / cat_pool / tiny, patterns found by source type
// as on a torch 2.14 non-strict export (the zoo's nn.ReLU modules join their patterns, an F.relu does not),
// propagation over int8-in-int8-out ops, priorities, None configs blocking, setter warnings, and prepare_pt2e.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/report.h"
#include "pt2e/observer_module.h"
#include "annotation_checks.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"

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

GraphModule annotated(const std::string& name, Quantizer& q) {
  GraphModule gm = exported(name);
  fold_bn(gm);  // as prepare_pt2e does before annotating
  q.transform_for_annotation(gm);
  q.annotate(gm);
  return gm;
}

const X86InductorQuantizationAnnotation& ann(const GraphModule& gm, const std::string& node) {
  const Node* n = gm.graph.find(node);
  REQUIRE(n != nullptr);
  const auto* a = dynamic_cast<const X86InductorQuantizationAnnotation*>(n->meta.quantization_annotation.get());
  REQUIRE(a != nullptr);
  return *a;
}

// The annotation's input keys, by node name, in insertion order.
std::vector<std::string> input_names(const GraphModule& gm, const std::string& node) {
  std::vector<std::string> out;
  for (const auto& [n, spec] : ann(gm, node).input_qspec_map) out.push_back(n->name);
  return out;
}

bool flagged(const GraphModule& gm, const std::string& node) { return ann(gm, node)._is_output_of_quantized_pattern; }

std::set<std::string> unannotated_names(const GraphModule& gm) {
  std::set<std::string> out;
  for (const Node* n : unannotated_ops(gm)) out.insert(n->name);
  return out;
}

X86InductorQuantizer x86_global(const QuantizationConfig& cfg = get_default_x86_inductor_quantization_config()) {
  X86InductorQuantizer q;
  q.set_global(cfg);
  return q;
}

EdgeOrNode edge(const GraphModule& gm, const std::string& a, const std::string& b) {
  return EdgeOrNode::edge(gm.graph.find(a), gm.graph.find(b));
}

}  // namespace

TEST_CASE("X86 default config has uint8 activations and int8 per-channel weights and reduce_range", "[x86]") {
  const QuantizationConfig c = get_default_x86_inductor_quantization_config();
  REQUIRE(c.input_activation);
  CHECK(c.input_activation->dtype == DType::UInt8);
  CHECK(c.input_activation->quant_min == 0);
  CHECK(c.input_activation->quant_max == 255);
  CHECK(c.input_activation->qscheme == QScheme::per_tensor_affine);
  CHECK(c.input_activation->observer_or_fake_quant_ctr.name == "HistogramObserver");
  CHECK(c.input_activation->observer_or_fake_quant_ctr.kwargs.eps == 0x1p-12f);
  CHECK(c.output_activation == c.input_activation);
  REQUIRE(c.weight);
  CHECK(c.weight->dtype == DType::Int8);
  CHECK(c.weight->quant_min == -128);
  CHECK(c.weight->quant_max == 127);
  CHECK(c.weight->qscheme == QScheme::per_channel_symmetric);
  CHECK(c.weight->ch_axis == 0);
  CHECK(c.weight->observer_or_fake_quant_ctr.name == "PerChannelMinMaxObserver");
  CHECK_FALSE(c.bias);
  CHECK(get_default_x86_inductor_quantization_config(false, false, true).input_activation->quant_max == 127);
  const QuantizationConfig qat = get_default_x86_inductor_quantization_config(true);
  CHECK(qat.is_qat);
  CHECK(qat.input_activation->observer_or_fake_quant_ctr.name == "FusedMovingAvgObsFakeQuantize");
  CHECK(qat.weight->observer_or_fake_quant_ctr.kwargs.observer == "MovingAveragePerChannelMinMaxObserver");
  const QuantizationConfig dyn = get_default_x86_inductor_quantization_config(false, true);
  CHECK(dyn.input_activation->is_dynamic);
  CHECK(dyn.input_activation->observer_or_fake_quant_ctr.name == "PlaceholderObserver");
  const QuantizationConfig qat_dyn = get_default_x86_inductor_quantization_config(true, true);
  CHECK(qat_dyn.input_activation->observer_or_fake_quant_ctr.name == "FakeQuantize");
  CHECK(qat_dyn.input_activation->observer_or_fake_quant_ctr.kwargs.averaging_constant == 1.0);
}

TEST_CASE("X86 conv_relu annotates inputs only with relu flagged as the quantized output", "[x86]") {
  const QuantizationConfig c = get_default_x86_inductor_quantization_config();
  auto q = x86_global(c);
  GraphModule gm = annotated("conv_relu", q);
  CHECK(input_names(gm, "conv2d") == std::vector<std::string>{"x", "conv_weight", "conv_bias"});
  CHECK(is_spec(input_spec(gm, "conv2d", "x"), c.input_activation));
  CHECK(is_spec(input_spec(gm, "conv2d", "conv_weight"), c.weight));
  CHECK(is_spec(input_spec(gm, "conv2d", "conv_bias"), std::nullopt));
  CHECK_FALSE(ann(gm, "conv2d").output_qspec);
  CHECK_FALSE(flagged(gm, "conv2d"));
  CHECK(ann(gm, "relu").input_qspec_map.empty());
  CHECK_FALSE(ann(gm, "relu").output_qspec);
  CHECK(flagged(gm, "relu"));
  GraphModule prepared = prepare_pt2e(exported("conv_relu"), q);
  CHECK(observer_nodes(prepared).size() == 2);  // x and the weight; no output observer
}

// torchao x86_inductor_quantizer.py _annotate_conv2d_unary / _annotate_conv2d_binary_unary find [Conv2d, ReLU]
// and [Conv2d, operator.add, ReLU] with find_sequential_partitions (torchao pt2e/graph_utils.py), which calls
// torch's get_source_partitions (torch/fx/passes/utils/source_matcher_utils.py). On a torch 2.14 non-strict
// export there is no source_fn_stack: a relu is placed by its innermost nn_module_stack class, so the zoo's
// relus (nn.ReLU modules) are in ReLU partitions and a relu called as F.relu (no module frame of its own) is not.
TEST_CASE("X86 finds patterns by source type as get_source_partitions does on a torch 2.14 non-strict export", "[x86]") {
  const QuantizationConfig c = get_default_x86_inductor_quantization_config();
  auto q = x86_global(c);
  // What export_module records for the zoo's relus, and what an F.relu in forward leaves: no frame of its own.
  const GraphModule zoo = exported("conv_relu");
  const std::vector<ModuleFrame>& frames = zoo.graph.find("relu")->meta.nn_module_stack;
  REQUIRE(frames.size() == 1);
  CHECK(frames[0].fqn == "relu");
  CHECK(frames[0].type == "torch.nn.modules.activation.ReLU");
  auto as_f_relu = [](GraphModule& g, const char* node) { g.graph.find(node)->meta.nn_module_stack.clear(); };

  GraphModule functional = exported("conv_relu");
  as_f_relu(functional, "relu");
  fold_bn(functional);
  q.annotate(functional);
  CHECK(flagged(functional, "conv2d"));  // a lone conv, flagged itself
  CHECK(functional.graph.find("relu")->meta.quantization_annotation == nullptr);

  // conv -> add -> F.relu: the conv + add pattern; the add is flagged, the relu left alone.
  GraphModule residual = exported("residual");
  as_f_relu(residual, "relu_1");
  fold_bn(residual);
  q.annotate(residual);
  CHECK(flagged(residual, "add"));
  CHECK(input_names(residual, "add") == std::vector<std::string>{"x"});
  CHECK(residual.graph.find("relu_1")->meta.quantization_annotation == nullptr);
  CHECK(flagged(residual, "relu"));  // the nn.ReLU module's relu still fuses with conv1

  // cat_pool with F.relu in both branches: the convs are lone convs, so cat and max_pool2d read no quantized
  // output and stay fp32.
  GraphModule cat_pool = exported("cat_pool");
  for (const char* r : {"relu", "relu_1"}) as_f_relu(cat_pool, r);
  fold_bn(cat_pool);
  q.annotate(cat_pool);
  CHECK(flagged(cat_pool, "conv2d"));
  CHECK(flagged(cat_pool, "conv2d_1"));
  CHECK(unannotated_names(cat_pool) == std::set<std::string>{"relu", "relu_1", "cat", "max_pool2d", "mean", "add"});

  // A Conv2d's class is read from the innermost frame only: a conv2d node outside any Conv2d module (F.conv2d)
  // is in no Conv2d partition and stays unannotated.
  GraphModule bare = exported("conv_relu");
  bare.graph.find("conv2d")->meta.nn_module_stack.clear();
  q.annotate(bare);
  CHECK(bare.graph.find("conv2d")->meta.quantization_annotation == nullptr);
}

TEST_CASE("X86 residual: conv2d + add + relu observes only the add's extra input", "[x86]") {
  const QuantizationConfig c = get_default_x86_inductor_quantization_config();
  auto q = x86_global(c);
  GraphModule gm = annotated("residual", q);
  // Inputs: activation, weight and the conv's bias node (the one fold_bn made when conv had none).
  auto bias_of = [&](const char* conv) { return gm.graph.find(conv)->args()[2].node()->name; };
  CHECK(input_names(gm, "conv2d") == std::vector<std::string>{"x", "conv1_weight", bias_of("conv2d")});
  CHECK(flagged(gm, "relu"));
  CHECK(input_names(gm, "conv2d_1") == std::vector<std::string>{"relu", "conv2_weight", bias_of("conv2d_1")});
  CHECK_FALSE(flagged(gm, "conv2d_1"));
  CHECK(input_names(gm, "add") == std::vector<std::string>{"x"});
  CHECK(is_spec(input_spec(gm, "add", "x"), c.input_activation));
  CHECK_FALSE(flagged(gm, "add"));
  CHECK(flagged(gm, "relu_1"));
  CHECK_FALSE(ann(gm, "relu_1").output_qspec);
  CHECK(unannotated_names(gm).empty());

  GraphModule prepared = prepare_pt2e(exported("residual"), q);
  CHECK(observer_nodes(prepared).size() == 4);  // x (shared by conv1 and add), two weights, relu
  const Node* conv = prepared.graph.find("conv2d");
  const Node* add = prepared.graph.find("add");
  ObserverBase* x_obs = get_observer(prepared, conv->args()[0].node());
  REQUIRE(x_obs != nullptr);
  CHECK(x_obs->dtype() == DType::UInt8);
  CHECK(get_observer(prepared, add->args()[1].node()) == x_obs);
  CHECK(get_observer(prepared, add->args()[0].node()) == nullptr);  // conv2's output stays float
}

TEST_CASE("X86 cat_pool propagates cat and max_pool2d from quantized relus while mean and add stay fp32", "[x86]") {
  const QuantizationConfig c = get_default_x86_inductor_quantization_config();
  auto q = x86_global(c);
  GraphModule gm = annotated("cat_pool", q);
  CHECK(flagged(gm, "relu"));
  CHECK(flagged(gm, "relu_1"));
  // The out conv has two users (mean, add): a conv2d on its own, flagged itself.
  CHECK(input_names(gm, "conv2d_2") == std::vector<std::string>{"max_pool2d", "out_weight", "out_bias"});
  CHECK(flagged(gm, "conv2d_2"));
  CHECK(is_spec(input_spec(gm, "cat", "relu"), c.input_activation));
  CHECK(is_shared(input_spec(gm, "cat", "relu_1"), edge(gm, "relu", "cat")));
  CHECK(is_shared(ann(gm, "cat").output_qspec, edge(gm, "relu", "cat")));
  CHECK(is_spec(input_spec(gm, "max_pool2d", "cat"), c.input_activation));
  CHECK(is_shared(ann(gm, "max_pool2d").output_qspec, edge(gm, "cat", "max_pool2d")));
  CHECK(unannotated_names(gm) == std::set<std::string>{"mean", "add"});
}

TEST_CASE("X86 tiny annotates the binary+unary block and pools and adaptive pool and flatten and the linear head", "[x86]") {
  const QuantizationConfig c = get_default_x86_inductor_quantization_config();
  auto q = x86_global(c);
  GraphModule gm = annotated("tiny", q);
  CHECK(unannotated_names(gm).empty());
  for (const char* relu : {"relu", "relu_1", "relu_2", "relu_3"}) CHECK(flagged(gm, relu));
  CHECK(input_names(gm, "add") == std::vector<std::string>{"max_pool2d"});
  CHECK(input_names(gm, "max_pool2d") == std::vector<std::string>{"relu"});
  CHECK(is_shared(ann(gm, "max_pool2d").output_qspec, edge(gm, "relu", "max_pool2d")));
  CHECK(is_shared(ann(gm, "max_pool2d_1").output_qspec, edge(gm, "relu_2", "max_pool2d_1")));
  CHECK(input_names(gm, "adaptive_avg_pool2d") == std::vector<std::string>{"relu_3"});
  CHECK(input_names(gm, "flatten") == std::vector<std::string>{"adaptive_avg_pool2d"});
  CHECK(is_shared(ann(gm, "flatten").output_qspec, edge(gm, "adaptive_avg_pool2d", "flatten")));
  CHECK(input_names(gm, "linear") == std::vector<std::string>{"flatten", "fc_weight", "fc_bias"});
  CHECK(flagged(gm, "linear"));
  CHECK_FALSE(ann(gm, "linear").output_qspec);
}

TEST_CASE("X86 priorities module_name then operator type then global and None blocks", "[x86]") {
  const QuantizationConfig c = get_default_x86_inductor_quantization_config();
  const QuantizationConfig reduced = get_default_x86_inductor_quantization_config(false, false, true);
  X86InductorQuantizer q;
  q.set_global(c).set_module_type_qconfig("torch.nn.Linear", reduced).set_module_name_qconfig("conv4", std::nullopt);
  GraphModule gm = annotated("tiny", q);
  CHECK(is_spec(input_spec(gm, "linear", "flatten"), reduced.input_activation));
  CHECK(is_spec(input_spec(gm, "conv2d", "x"), c.input_activation));
  // conv4 (conv2d_3) is "do not quantize": annotated without specs; its relu is no quantized output,
  // so the adaptive pool and flatten after it are not annotated either.
  CHECK(ann(gm, "conv2d_3")._annotated);
  CHECK(ann(gm, "conv2d_3").input_qspec_map.empty());
  CHECK(unannotated_names(gm) == std::set<std::string>{"relu_3", "adaptive_avg_pool2d", "flatten"});

  X86InductorQuantizer no_cat;
  no_cat.set_global(c).set_function_type_qconfig("torch.cat", std::nullopt);
  GraphModule cp = annotated("cat_pool", no_cat);
  CHECK(ann(cp, "cat").input_qspec_map.empty());
  CHECK_FALSE(ann(cp, "cat")._is_output_of_quantized_pattern);
  CHECK(unannotated_names(cp).count("max_pool2d") == 1);
  CHECK(std::any_of(no_cat.warnings().begin(), no_cat.warnings().end(),
                    [](const std::string& w) { return w.find("maxpool2d is not quantized") != std::string::npos; }));
}

TEST_CASE("X86 setters skip mixed configs and unknown types with a warning", "[x86]") {
  X86InductorQuantizer q;
  q.set_global(get_default_x86_inductor_quantization_config());
  q.set_module_name_qconfig("conv", get_default_x86_inductor_quantization_config(false, true));
  q.set_module_type_qconfig("torch.nn.ReLU", get_default_x86_inductor_quantization_config());
  q.set_function_type_qconfig("F.conv2d", get_default_x86_inductor_quantization_config(true));
  const std::vector<std::string>& w = q.warnings();
  REQUIRE(w.size() == 5);
  CHECK(w[0] == "Mixed dynamic and static quantization config is not supported.");
  CHECK(w[1] == "Skip the quantization config for conv.");
  CHECK(w[2] == "Module: Unable to customize quantization config for torch.nn.ReLU by X86InductorQuantizer.");
  CHECK(w[3] == "Mixed QAT and Non-QAT quantization config is not supported.");
  CHECK(w[4] == "Skip the quantization config for F.conv2d.");
  // Nothing but the global config took effect: conv is annotated statically.
  GraphModule gm = annotated("conv_relu", q);
  const OptionalQSpec& x = input_spec(gm, "conv2d", "x");
  REQUIRE(x);
  CHECK_FALSE(std::get<QuantizationSpec>(*x).is_dynamic);
}

TEST_CASE("X86 dynamic config annotates linear + relu and linear inputs", "[x86]") {
  const QuantizationConfig dyn = get_default_x86_inductor_quantization_config(false, true);
  auto q = x86_global(dyn);
  GraphModule gm = annotated("mlp", q);
  CHECK(is_spec(input_spec(gm, "linear", "x"), dyn.input_activation));
  CHECK_FALSE(flagged(gm, "linear"));
  CHECK(flagged(gm, "relu"));
  CHECK(is_spec(input_spec(gm, "linear_1", "relu"), dyn.input_activation));
  CHECK(flagged(gm, "linear_1"));
}

TEST_CASE("X86 annotations survive GraphModule::clone with their flag", "[x86]") {
  auto q = x86_global();
  GraphModule gm = annotated("conv_relu", q);
  GraphModule copy = gm.clone();
  CHECK(flagged(copy, "relu"));
  CHECK(input_names(copy, "conv2d") == std::vector<std::string>{"x", "conv_weight", "conv_bias"});
  CHECK(ann(copy, "conv2d").input_qspec_map[0].first == copy.graph.find("x"));
}

TEST_CASE("X86 QAT config annotates conv + bn + add + relu and conv + bn + relu before folding", "[x86]") {
  const QuantizationConfig qat = get_default_x86_inductor_quantization_config(true);
  auto q = x86_global(qat);
  GraphModule gm = exported("residual");  // prepare_qat_pt2e keeps the batch norms
  q.annotate(gm);
  CHECK(input_names(gm, "conv2d") == std::vector<std::string>{"x", "conv1_weight"});  // bias=False, not folded
  CHECK(ann(gm, "batch_norm")._annotated);
  CHECK(is_spec(ann(gm, "relu").output_qspec, qat.output_activation));
  CHECK(flagged(gm, "relu"));
  CHECK(input_names(gm, "add") == std::vector<std::string>{"x"});
  CHECK_FALSE(ann(gm, "add").output_qspec);
  CHECK(is_spec(ann(gm, "relu_1").output_qspec, qat.output_activation));
  CHECK(flagged(gm, "relu_1"));
  CHECK(unannotated_names(gm).empty());
  // A static PTQ config does not run the QAT patterns: on the unfolded graph the convs feed batch norms,
  // so no conv pattern but the plain conv2d one matches.
  auto ptq = x86_global();
  GraphModule unfolded = exported("residual");
  ptq.annotate(unfolded);
  CHECK(flagged(unfolded, "conv2d"));
  CHECK(unannotated_names(unfolded).count("batch_norm") == 1);
}
