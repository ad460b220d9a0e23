// test_qat_fusion.cpp — prepare_qat_pt2e's _fuse_conv_bn_qat and convert_pt2e's _fold_conv_bn_qat
// (pt2e/qat_utils.h; docs/algorithms.md), checked for structure (what torchao's
// test_quantize_pt2e_qat.py _verify_symmetric_xnnpack_qat_graph_helper checks), numerics against the
// unfused train-mode graph, and against torch 1.13's nn.intrinsic.qat.ConvBn2d (tests/golden/gen_qat.py).
//
// Tolerances: our conv2d sums in double and rounds once, torch sums in float in its own order, and the
// fused form computes conv(x, w*sf)/sf instead of conv(x, w) — a few float roundings apart, so outputs
// are compared with a relative tolerance of 1e-5 (of the largest |value|). Weight scales are compared bit
// for bit: w*sf, absmax and the fake-quant qparams are elementwise float ops in the same order as torch.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <set>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "ops/golden.h"
#include "pt2e/convert.h"
#include "pt2e/observer_module.h"
#include "pt2e/prepare.h"
#include "pt2e/qat_utils.h"
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "quant/fake_quantize.h"
#include "quant/quantize.h"

using namespace pt;
using golden::bit_equal;
using golden::max_rel_diff;

namespace {

golden::Golden qat_golden(const std::string& name) { return golden::Golden(name, "qat"); }

XNNPACKQuantizer qat_quantizer(bool per_channel = true) {
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = per_channel, .is_qat = true}));
  return q;
}

XNNPACKQuantizer ptq_quantizer() {
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true}));
  return q;
}

GraphModule exported(const std::string& name, int64_t batch = 4) {
  manual_seed(0);
  Model m = get_model(name);
  return export_module(m, example_inputs(m, batch));
}

// The Stem model with the golden state (non-trivial BN), exported on the golden input.
GraphModule golden_stem(const golden::Golden& g) {
  Model m = get_model("stem");
  std::vector<NamedTensor> state;
  for (auto& [k, v] : g.with_prefix("state.")) state.push_back({k, v, k.find("running") != std::string::npos});
  m.load_state_dict(state);
  return export_module(m, {g.tensor("x")});
}

std::vector<Node*> with_target(const GraphModule& gm, const std::string& target) {
  std::vector<Node*> out;
  for (Node* n : gm.graph.nodes())
    if (n->target == target) out.push_back(n);
  return out;
}

size_t count_target(const GraphModule& gm, const std::string& target) { return with_target(gm, target).size(); }

// Distinct observer / fake-quant instances and call_module nodes.
std::pair<size_t, size_t> observer_counts(const GraphModule& gm) {
  std::set<const ObserverBase*> inst;
  size_t nodes = 0;
  for (Node* n : gm.graph.nodes())
    if (const ObserverBase* o = get_observer(gm, n)) {
      inst.insert(o);
      ++nodes;
    }
  return {inst.size(), nodes};
}

FakeQuantize* fq_of(const GraphModule& gm, const Node* n) { return dynamic_cast<FakeQuantize*>(get_observer(gm, n)); }

void set_fake_quant(GraphModule& gm, bool fake_quant, bool observer) {
  for (Node* n : gm.graph.nodes())
    if (FakeQuantize* fq = fq_of(gm, n)) {
      fq->enable_fake_quant(fake_quant);
      fq->enable_observer(observer);
    }
}

const Node* arg(const Node* n, size_t i) { return n->args()[i].node(); }

bool is_fq_node(const GraphModule& gm, const Node* n) {
  return n && n->op == OpKind::call_module && n->target.rfind("activation_post_process_", 0) == 0 && fq_of(gm, n);
}

// torchao _verify_symmetric_xnnpack_qat_graph_helper on one fused conv-bn: returns the conv node.
const Node* check_fused_conv_bn(const GraphModule& gm, const Node* bn, bool has_bias) {
  INFO("batch norm " << bn->name);
  REQUIRE(bn->target == "aten.batch_norm.default");
  CHECK(bn->args()[5].str() == "True");
  const Node* div = arg(bn, 0);
  if (has_bias) {
    REQUIRE(div->target == "aten.add.Tensor");
    CHECK(arg(div, 1)->target == "aten.reshape.default");
    div = arg(div, 0);
  }
  REQUIRE(div->target == "aten.div.Tensor");
  const Node* conv = arg(div, 0);
  CHECK(conv->target == "aten.conv2d.default");
  CHECK(arg(div, 1)->target == "aten.reshape.default");
  CHECK(arg(div, 1)->args()[1].str() == "[1, -1, 1, 1]");
  // conv(fq(input), fq(weight * scale_factor.reshape), zero_bias | None)
  CHECK(is_fq_node(gm, arg(conv, 0)));
  const Node* w_fq = arg(conv, 1);
  REQUIRE(is_fq_node(gm, w_fq));
  const FakeQuantize* wfq = fq_of(gm, w_fq);
  CHECK(std::string(wfq->type_name()) == "FusedMovingAvgObsFakeQuantize");
  CHECK(std::string(wfq->activation_post_process().type_name()) == "MovingAveragePerChannelMinMaxObserver");
  CHECK(wfq->quant_min() == -127);
  CHECK(wfq->quant_max() == 127);
  const Node* mul = arg(w_fq, 0);
  REQUIRE(mul->target == "aten.mul.Tensor");
  CHECK(arg(mul, 0)->op == OpKind::get_attr);
  const Node* sf_r = arg(mul, 1);
  REQUIRE(sf_r->target == "aten.reshape.default");
  CHECK(sf_r->args()[1].str() == "[-1, 1, 1, 1]");
  if (has_bias) CHECK(arg(conv, 2)->target == "aten.zeros_like.default");
  else CHECK((conv->args().size() < 3 || conv->args()[2].is_none()));
  // scale_factor = bn_weight / sqrt(bn_running_var + 1e-5)
  const Node* sf = arg(sf_r, 0);
  REQUIRE(sf->target == "aten.div.Tensor");
  CHECK(arg(sf, 0) == arg(bn, 1));
  const Node* sqrt = arg(sf, 1);
  REQUIRE(sqrt->target == "aten.sqrt.default");
  const Node* add = arg(sqrt, 0);
  REQUIRE(add->target == "aten.add.Tensor");
  CHECK(arg(add, 0) == arg(bn, 4));
  CHECK(arg(add, 0)->target.find("running_var") != std::string::npos);
  CHECK(add->args()[1].str() == "1e-05");
  return conv;
}

double sqnr_db(const Tensor& ref, const Tensor& y) { return static_cast<double>(sqnr(ref, y)); }

}  // namespace

TEST_CASE("prepare_qat_pt2e fuses conv-bn on stem: torchao's fused QAT graph, 3 fake quants", "[pt2e][qat]") {
  GraphModule gm = exported("stem");
  auto q = qat_quantizer();
  GraphModule prepared = prepare_qat_pt2e(gm, q);
  prepared.graph.lint();
  // output -> fq -> relu -> batch_norm (torchao: output fake quant is FusedMovingAvgObsFakeQuantize(-128..127)).
  const auto& outs = std::get<std::vector<Node*>>(prepared.graph.find_output()->args()[0].v);
  REQUIRE(outs.size() == 1);
  REQUIRE(is_fq_node(prepared, outs[0]));
  const FakeQuantize* ofq = fq_of(prepared, outs[0]);
  CHECK(std::string(ofq->activation_post_process().type_name()) == "MovingAverageMinMaxObserver");
  CHECK(ofq->quant_min() == -128);
  CHECK(ofq->quant_max() == 127);
  const Node* relu = arg(outs[0], 0);
  REQUIRE(relu->target == "aten.relu.default");
  const Node* conv = check_fused_conv_bn(prepared, arg(relu, 0), false);
  CHECK(arg(arg(conv, 0), 0)->op == OpKind::placeholder);
  // Same observers as the PTQ graph (whose BN is folded): input, weight, relu output.
  CHECK(observer_counts(prepared) == std::make_pair(size_t{3}, size_t{3}));
  auto ptq = ptq_quantizer();
  CHECK(observer_counts(prepare_pt2e(gm, ptq)).first == 3);
  CHECK(count_target(prepared, "aten.batch_norm.default") == 1);
  CHECK(count_target(prepared, "aten.conv2d.default") == 1);
  // The new conv carries the old conv's module stack, the weight edge is keyed by the scaled weight.
  CHECK(conv->meta.nn_module_stack.at(0).fqn == "conv");
  const QuantizationAnnotation* a = get_annotation(conv);
  REQUIRE(a);
  REQUIRE(a->input_qspec_map.size() == 2);
  CHECK(a->input_qspec_map[1].first->target == "aten.mul.Tensor");
  // Every new node has a shape.
  for (const Node* n : prepared.graph.nodes())
    if (n->op == OpKind::call_function) CHECK(n->meta.val.has_value());
  // The exported graph is left alone.
  CHECK(count_target(gm, "aten.mul.Tensor") == 0);
}

TEST_CASE("prepare_qat_pt2e on residual and tiny: every conv-bn fused, observer counts as PTQ", "[pt2e][qat]") {
  for (const char* name : {"residual", "tiny"}) {
    INFO(name);
    GraphModule gm = exported(name);
    auto q = qat_quantizer();
    GraphModule prepared = prepare_qat_pt2e(gm, q);
    const size_t n_bn = count_target(gm, "aten.batch_norm.default");
    REQUIRE(n_bn > 0);
    CHECK(count_target(prepared, "aten.batch_norm.default") == n_bn);
    CHECK(count_target(prepared, "aten.sqrt.default") == n_bn);
    CHECK(count_target(prepared, "aten.mul.Tensor") == n_bn);
    for (const Node* bn : with_target(prepared, "aten.batch_norm.default")) check_fused_conv_bn(prepared, bn, false);
    auto ptq = ptq_quantizer();
    const auto qat_counts = observer_counts(prepared);
    const auto ptq_counts = observer_counts(prepare_pt2e(gm, ptq));
    std::printf("%s: QAT prepared %zu fake quants on %zu nodes, PTQ prepared %zu observers on %zu nodes\n", name,
                qat_counts.first, qat_counts.second, ptq_counts.first, ptq_counts.second);
    CHECK(qat_counts == ptq_counts);
  }
}

TEST_CASE("fused conv-bn with fake quant off equals the unfused train-mode graph (with and without bias)",
          "[pt2e][qat]") {
  // stem (conv without bias) and a hand-built conv-with-bias -> bn graph.
  GraphModule stem = exported("stem", 8);
  GraphModule biased;
  {
    manual_seed(3);
    biased.set_tensor("conv.weight", randn({6, 3, 3, 3}));
    biased.set_tensor("conv.bias", randn({6}));
    biased.set_tensor("bn.weight", rand({6}));
    biased.set_tensor("bn.bias", randn({6}));
    biased.set_tensor("bn.running_mean", randn({6}), true);
    Tensor rv = rand({6});
    for (float& v : rv.span<float>()) v += 0.5f;
    biased.set_tensor("bn.running_var", rv, true);
    Graph& g = biased.graph;
    Node* w = g.get_attr("conv.weight");
    Node* b = g.get_attr("conv.bias");
    Node* bw = g.get_attr("bn.weight");
    Node* bb = g.get_attr("bn.bias");
    Node* rm = g.get_attr("bn.running_mean");
    Node* rvn = g.get_attr("bn.running_var");
    Node* x = g.placeholder("x");
    Node* conv = g.call_function("aten.conv2d.default", {x, w, b, std::vector<int64_t>{2, 2}, std::vector<int64_t>{1, 1}});
    conv->meta.nn_module_stack = {{"conv", "torch.nn.modules.conv.Conv2d"}};
    Node* bn = g.call_function("aten.batch_norm.default", {conv, bw, bb, rm, rvn, false, 0.1, 1e-5, true});
    g.output({g.call_function("aten.relu.default", {bn})});
    propagate_shapes(biased, {randn({2, 3, 8, 8})});
  }
  for (GraphModule* gm : {&stem, &biased}) {
    const bool has_bias = gm == &biased;
    INFO((has_bias ? "conv with bias" : "stem"));
    auto q = qat_quantizer();
    GraphModule prepared = prepare_qat_pt2e(*gm, q);
    const Node* conv = check_fused_conv_bn(prepared, with_target(prepared, "aten.batch_norm.default").at(0), has_bias);
    if (has_bias) {  // literal args copied over; the bias fake quant (XNNPACK: none) and its key
      CHECK(conv->args()[3].str() == "[2, 2]");
      CHECK(conv->args()[4].str() == "[1, 1]");
    }
    set_fake_quant(prepared, false, false);
    GraphModule unfused = gm->clone();
    move_exported_model_to_train(unfused);
    manual_seed(5);
    const Tensor x = randn(has_bias ? Shape{2, 3, 8, 8} : Shape{8, 3, 16, 16});
    const Tensor a = prepared.forward({x})[0], b = unfused.forward({x})[0];
    const double d = max_rel_diff(a, b);
    std::printf("fused vs unfused train forward (%s): max rel diff %.3g\n", has_bias ? "bias" : "stem", d);
    CHECK(d < 1e-5);
    // Both updated the BN running stats the same way.
    CHECK(max_rel_diff(prepared.get_tensor("bn.running_mean"), unfused.get_tensor("bn.running_mean")) < 1e-5);
    CHECK(max_rel_diff(prepared.get_tensor("bn.running_var"), unfused.get_tensor("bn.running_var")) < 1e-5);
    CHECK_FALSE(bit_equal(prepared.get_tensor("bn.running_var"), gm->get_tensor("bn.running_var")));
  }
}

TEST_CASE("fused conv-bn forward equals torch nn.intrinsic.qat.ConvBn2d (weight fake-quantized)", "[pt2e][qat][golden]") {
  const auto gs = qat_golden("stem");
  const auto gc = qat_golden("convbn");
  GraphModule gm = golden_stem(gs);
  auto q = qat_quantizer();
  GraphModule prepared = prepare_qat_pt2e(gm, q);
  Node* bn = with_target(prepared, "aten.batch_norm.default").at(0);
  const Node* conv = check_fused_conv_bn(prepared, bn, false);
  // ConvBn2d fake-quantizes only the weight: switch the input fake quant off.
  FakeQuantize* in_fq = fq_of(prepared, arg(conv, 0));
  in_fq->disable_fake_quant();
  const Node* w_fq_node = arg(conv, 1);
  Tensor bn_out, w_scaled;
  run_graph(prepared, {gs.tensor("x")}, [&](const Node& n, const Value& v) {
    if (&n == bn) bn_out = std::get<Tensor>(v.v);
    if (&n == arg(w_fq_node, 0)) w_scaled = std::get<Tensor>(v.v);
  });
  CHECK(bit_equal(w_scaled, gc.tensor("scaled_weight")));
  const double d = max_rel_diff(bn_out, gc.tensor("out"));
  std::printf("fused conv-bn vs torch ConvBn2d: max rel diff %.3g\n", d);
  CHECK(d < 1e-5);
  CHECK(max_rel_diff(prepared.get_tensor("bn.running_mean"), gc.tensor("rm")) < 1e-5);
  CHECK(max_rel_diff(prepared.get_tensor("bn.running_var"), gc.tensor("rv")) < 1e-5);

  const FakeQuantize* wfq = fq_of(prepared, w_fq_node);
  // The scale the forward used (fused op, ChooseQuantizationParams) is torch's, bit for bit ...
  CHECK(bit_equal(wfq->scale(), gc.tensor("weight_scale")));
  // ... and the one convert will bake in is absmax(w * sf) / 127 per channel (observer formula).
  const Tensor sw = gc.tensor("scaled_weight");
  const int64_t C = sw.size(0), per = sw.numel() / C;
  Tensor want = Tensor::empty({C});
  for (int64_t c = 0; c < C; ++c) {
    float mn = 0, mx = 0;
    for (int64_t i = 0; i < per; ++i) {
      mn = std::min(mn, sw.data<float>()[c * per + i]);
      mx = std::max(mx, sw.data<float>()[c * per + i]);
    }
    want.data<float>()[c] = std::max(std::max(-mn, mx) / (static_cast<float>(127 - -127) / 2), 0x1p-12f);
  }
  CHECK(bit_equal(wfq->calculate_qparams().scale, want));
}

namespace {

struct QatRun {
  GraphModule prepared, converted;
  Tensor x_eval;
};

// QAT "training" without gradients, from a "pretrained" float model: the exported graph first runs 30
// batches in train mode so its BN running stats fit the data (a random-init model keeps mean 0 / var 1,
// and then BN-scaled weights move far during calibration while the weight fake quant's moving-average
// range (c = 0.01) lags behind — as in torch). Then prepare_qat_pt2e, 6 calibration batches in train
// mode (fake quants and BN stats update), move to eval, convert.
QatRun qat_run(const std::string& name, bool per_channel = true, GraphModule* pretrained = nullptr) {
  GraphModule gm = exported(name);
  manual_seed(9);
  Model m = get_model(name);
  move_exported_model_to_train(gm);
  for (int i = 0; i < 30; ++i) gm.forward(example_inputs(m, 8));
  move_exported_model_to_eval(gm);
  auto q = qat_quantizer(per_channel);
  GraphModule prepared = prepare_qat_pt2e(gm, q);
  for (int i = 0; i < 6; ++i) prepared.forward(example_inputs(m, 8));
  move_exported_model_to_eval(prepared);
  GraphModule converted = convert_pt2e(prepared);
  if (pretrained) *pretrained = std::move(gm);
  return {std::move(prepared), std::move(converted), example_inputs(m, 8)[0]};
}

}  // namespace

TEST_CASE("convert_pt2e folds QAT conv-bn: no batch_norm, int8 weight -> dequantize_per_channel -> conv", "[pt2e][qat]") {
  for (const char* name : {"stem", "residual", "tiny"}) {
    INFO(name);
    QatRun r = qat_run(name);
    const GraphModule& c = r.converted;
    c.graph.lint();
    CHECK(count_target(c, "aten.batch_norm.default") == 0);
    for (const char* gone : {"aten.mul.Tensor", "aten.div.Tensor", "aten.sqrt.default", "aten.reshape.default",
                             "aten.zeros_like.default"})
      CHECK(count_target(c, gone) == 0);
    const auto convs = with_target(c, "aten.conv2d.default");
    REQUIRE(!convs.empty());
    for (const Node* conv : convs) {
      const Node* wdq = arg(conv, 1);
      REQUIRE(wdq->target == "quantized_decomposed.dequantize_per_channel.default");
      const Node* wq = arg(wdq, 0);
      REQUIRE(wq->op == OpKind::get_attr);
      CHECK(c.get_tensor(wq->target).dtype() == DType::Int8);
      REQUIRE(conv->args().size() > 2);
      const Node* bias = arg(conv, 2);
      REQUIRE(bias);
      CHECK(bias->op == OpKind::get_attr);  // the folded bias (<weight>_bias for bias-less convs)
      CHECK(arg(conv, 0)->target == "quantized_decomposed.dequantize_per_tensor.default");
    }
    // Same structure as the converted PTQ graph.
    GraphModule gm = exported(name);
    auto ptq = ptq_quantizer();
    GraphModule ptq_prepared = prepare_pt2e(gm, ptq);
    ptq_prepared.forward({r.x_eval});
    GraphModule ptq_conv = convert_pt2e(ptq_prepared);
    std::multiset<std::string> a, b;
    for (const Node* n : c.graph.nodes()) a.insert(n->target.rfind("_frozen_param", 0) == 0 ? "frozen" : (n->op == OpKind::get_attr ? "attr" : n->target));
    for (const Node* n : ptq_conv.graph.nodes()) b.insert(n->target.rfind("_frozen_param", 0) == 0 ? "frozen" : (n->op == OpKind::get_attr ? "attr" : n->target));
    CHECK(a == b);

    // Converted output close to the prepared graph in eval mode (observers frozen).
    GraphModule pe = r.prepared.clone();
    set_fake_quant(pe, true, false);
    const Tensor ref = pe.forward({r.x_eval})[0];
    const Tensor y = r.converted.forward({r.x_eval})[0];
    const double s = sqnr_db(ref, y);
    std::printf("%s: converted vs prepared-eval SQNR %.2f dB\n", name, s);
    CHECK(s > 25);
  }
}

TEST_CASE("_fold_conv_bn_qat keeps the weight qparams of the BN-scaled weight; per-tensor weights too", "[pt2e][qat]") {
  for (bool per_channel : {true, false}) {
    INFO("per_channel " << per_channel);
    QatRun r = qat_run("stem", per_channel);
    const Node* fq = arg(with_target(r.prepared, "aten.conv2d.default").at(0), 1);
    const QParams qp = get_observer(r.prepared, fq)->calculate_qparams();
    const Node* conv = with_target(r.converted, "aten.conv2d.default").at(0);
    const Node* dq = arg(conv, 1);
    if (per_channel) {
      REQUIRE(dq->target == "quantized_decomposed.dequantize_per_channel.default");
      CHECK(bit_equal(r.converted.get_tensor(arg(dq, 1)->target), qp.scale));
    } else {
      REQUIRE(dq->target == "quantized_decomposed.dequantize_per_tensor.default");
      CHECK(std::get<double>(dq->args()[1].v) == static_cast<double>(qp.scale.data<float>()[0]));
    }
    // The int8 weight is the folded weight quantized with those qparams: as they were computed on the
    // BN-scaled weight (absmax / 127), every channel (per tensor: the whole weight) reaches |q| = 127.
    const Tensor w_int8 = r.converted.get_tensor(arg(dq, 0)->target);
    REQUIRE(w_int8.dtype() == DType::Int8);
    const int64_t C = w_int8.size(0), per = w_int8.numel() / C;
    int overall = 0;
    for (int64_t c = 0; c < C; ++c) {
      int m = 0;
      for (int64_t i = 0; i < per; ++i) m = std::max(m, std::abs(static_cast<int>(w_int8.data<int8_t>()[c * per + i])));
      if (per_channel) CHECK(m == 127);
      overall = std::max(overall, m);
    }
    CHECK(overall == 127);
  }
}

TEST_CASE("QAT SQNR of a converted tiny model", "[pt2e][qat][sqnr]") {
  GraphModule pretrained;
  QatRun r = qat_run("tiny", true, &pretrained);
  // Float reference with the same BN statistics: the prepared graph, fake quant off, eval.
  GraphModule float_ref = r.prepared.clone();
  set_fake_quant(float_ref, false, false);
  const Tensor y = r.converted.forward({r.x_eval})[0];
  const double s = sqnr_db(float_ref.forward({r.x_eval})[0], y);
  // And against the float model QAT started from (its BN stats moved a little during calibration).
  const double s_pre = sqnr_db(pretrained.forward({r.x_eval})[0], y);
  std::printf("tiny QAT (XNNPACK per-channel): converted vs float (same BN stats) SQNR %.2f dB; "
              "vs the pretrained float model %.2f dB\n", s, s_pre);
  CHECK(std::isfinite(s));
  CHECK(s > 20);
  CHECK(s < 80);
  CHECK(std::isfinite(s_pre));
}

TEST_CASE("_fuse_conv_bn_qat leaves graphs without conv-bn alone; _fold_conv_bn_qat without pattern is a no-op",
          "[pt2e][qat]") {
  GraphModule gm = exported("conv_relu");
  GraphModule copy = gm.clone();
  CHECK(_fuse_conv_bn_qat(copy) == 0);
  CHECK(copy.graph.size() == gm.graph.size());
  CHECK(_fold_conv_bn_qat(copy) == 0);
  // A conv whose output has another user besides the BN is not fused (torchao's matcher needs a
  // self-contained pattern).
  GraphModule stem = exported("stem");
  Node* conv = with_target(stem, "aten.conv2d.default").at(0);
  Node* out = stem.graph.find_output();
  std::vector<Node*> outs = std::get<std::vector<Node*>>(out->args()[0].v);
  outs.push_back(conv);
  stem.graph.set_args(out, {Arg(outs)});
  CHECK(_fuse_conv_bn_qat(stem) == 0);
}

TEST_CASE("QAT conv-bn with the X86 and ExecuTorch quantizers: fused, then folded away by convert", "[pt2e][qat]") {
  for (int which = 0; which < 2; ++which) {
    for (const char* name : {"residual", "tiny"}) {
      INFO((which ? "ExecuTorch XNNPACKQuantizer " : "X86InductorQuantizer ") << name);
      std::unique_ptr<Quantizer> q;
      if (which == 0) {
        auto x86 = std::make_unique<X86InductorQuantizer>();
        x86->set_global(get_default_x86_inductor_quantization_config(true));
        q = std::move(x86);
      } else {
        auto et = std::make_unique<executorch::XNNPACKQuantizer>();
        et->set_global(executorch::get_symmetric_quantization_config({.is_per_channel = true, .is_qat = true}));
        q = std::move(et);
      }
      GraphModule gm = exported(name);
      GraphModule prepared = prepare_qat_pt2e(gm, *q);
      const size_t n_bn = count_target(gm, "aten.batch_norm.default");
      CHECK(count_target(prepared, "aten.sqrt.default") == n_bn);
      // Every weight fake quant observes a BN-scaled weight (mul), not the raw parameter.
      for (const Node* conv : with_target(prepared, "aten.conv2d.default")) {
        const Node* w = arg(conv, 1);
        REQUIRE(get_observer(prepared, w));
        CHECK(arg(w, 0)->target == "aten.mul.Tensor");
      }
      manual_seed(2);
      Model m = get_model(name);
      for (int i = 0; i < 3; ++i) prepared.forward(example_inputs(m, 4));
      move_exported_model_to_eval(prepared);
      GraphModule converted = convert_pt2e(prepared);
      CHECK(count_target(converted, "aten.batch_norm.default") == 0);
      CHECK(count_target(converted, "aten.mul.Tensor") == 0);
      const Tensor y = converted.forward(example_inputs(m, 4))[0];
      bool finite = true;
      for (float v : y.span<float>()) finite = finite && std::isfinite(v);
      CHECK(finite);
    }
  }
}
