// test_fidelity_prepare_convert.cpp — issue #13's prepare / convert rows, each against the torchao v0.18.0
// function it follows: the observer built from a spec (prepare.py _create_obs_or_fq_from_qspec passes
// every field, None included), DerivedObserverOrFakeQuantize's kwargs (pt2e/__init__.py), the QAT
// FixedQParamsFakeQuantize, the dynamic branch's eps (convert.py
// _replace_observer_with_quantize_dequantize_node_decomposed), and BN folding (utils.py _fuse_conv_bn_).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/quantized_decomposed.h"
#include "graph/report.h"
#include "graph/targets.h"
#include "pt2e/convert.h"
#include "pt2e/observer_module.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizer_utils.h"
#include "pt2e/quantizers/js_quantizer.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "quant/fake_quantize.h"

using namespace pt;

namespace {

// x -> linear(w, b) -> sigmoid -> output, weights from the default generator.
GraphModule linear_sigmoid() {
  manual_seed(0);
  GraphModule gm;
  gm.set_tensor("fc.weight", randn({4, 8}));
  gm.set_tensor("fc.bias", randn({4}));
  Node* x = gm.graph.placeholder("x");
  Node* w = gm.graph.get_attr("fc.weight");
  Node* b = gm.graph.get_attr("fc.bias");
  Node* l = gm.graph.call_function(target::linear, {x, w, b});
  gm.graph.output({gm.graph.call_function(target::sigmoid, {l})});
  propagate_shapes(gm, {randn({2, 8})});
  return gm;
}

Node* node(const GraphModule& gm, const char* name) {
  Node* n = gm.graph.find(name);
  REQUIRE(n != nullptr);
  return n;
}

QuantizationSpec spec(const char* cls, ObserverArgs with_args, std::optional<int64_t> qmin, std::optional<int64_t> qmax,
                      std::optional<QScheme> qscheme, std::optional<int64_t> ch_axis = std::nullopt) {
  return QuantizationSpec{DType::Int8, {cls, with_args}, qmin, qmax, qscheme, ch_axis, false};
}

// Annotates one input edge of linear (0 = x, 1 = weight) with `s` and prepares.
GraphModule prepare_edge(int input, const QuantizationSpec& s) {
  JsQuantizer q([&](GraphModule& gm) {
    Node* l = node(gm, "linear");
    annotate_input_qspec_map(l, arg_node(l, input), s);
  });
  return prepare_pt2e(linear_sigmoid(), q);
}

const ObserverBase& only_observer(const GraphModule& p) {
  REQUIRE(observer_nodes(p).size() == 1);
  return *get_observer(p, observer_nodes(p)[0]);
}

}  // namespace

TEST_CASE("prepare passes a spec's None fields to the observer (torchao prepare.py _create_obs_or_fq_from_qspec)",
          "[prepare][fidelity]") {
  SECTION("quant_min=None overrides .with_args(quant_min=...)") {
    ObserverArgs bound;
    bound.quant_min = -10;
    bound.quant_max = 10;
    const GraphModule p = prepare_edge(0, spec("MinMaxObserver", bound, std::nullopt, std::nullopt, QScheme::per_tensor_affine));
    const ObserverBase& o = only_observer(p);  // p keeps the observer alive
    CHECK(o.config().quant_range() == QRange{-128, 127});  // main kept -10..10
    CHECK_FALSE(o.config().has_customized_qrange);
  }
  SECTION("qscheme=None reaches the class, which refuses it") {
    for (const char* cls : {"MinMaxObserver", "HistogramObserver", "MovingAverageMinMaxObserver"}) {
      INFO(cls);
      CHECK_THROWS_AS(prepare_edge(0, spec(cls, {}, -128, 127, std::nullopt)), NotImplementedError);  // main: prepared
    }
  }
  SECTION("a PerChannel class gets ch_axis=None: prepared, then calibration fails") {
    GraphModule p = prepare_edge(1, spec("PerChannelMinMaxObserver", {}, -127, 127, QScheme::per_channel_symmetric));
    CHECK(only_observer(p).config().is_none("ch_axis"));
    CHECK_THROWS_AS(p.forward({randn({2, 8})}), TypeError);  // main: ch_axis 0, calibrated
  }
  SECTION("a FakeQuantize keeps its observer's ch_axis (its class name has no PerChannel)") {
    ObserverArgs bound;
    bound.observer = "MovingAveragePerChannelMinMaxObserver";
    QuantizationSpec s = spec("FakeQuantize", bound, -127, 127, QScheme::per_channel_symmetric, 1);
    JsQuantizer q([&](GraphModule& gm) {
      Node* l = node(gm, "linear");
      annotate_input_qspec_map(l, arg_node(l, 1), s);
    });
    CHECK(only_observer(prepare_qat_pt2e(linear_sigmoid(), q)).ch_axis() == 0);
  }
}

TEST_CASE("DerivedObserverOrFakeQuantize keeps a None range and is never dynamic (torchao pt2e/__init__.py)",
          "[prepare][convert][fidelity]") {
  auto bias_quantizer = [](std::optional<int64_t> qmin, std::optional<int64_t> qmax, bool is_dynamic) {
    return JsQuantizer([=](GraphModule& gm) {
      Node* l = node(gm, "linear");
      Node *x = arg_node(l, 0), *w = arg_node(l, 1), *b = arg_node(l, 2);
      annotate_input_qspec_map(l, x, spec("MinMaxObserver", {}, -128, 127, QScheme::per_tensor_affine));
      annotate_input_qspec_map(l, w, spec("MinMaxObserver", {}, -127, 127, QScheme::per_tensor_symmetric));
      DerivedQuantizationSpec d;
      d.derived_from = {EdgeOrNode::edge(x, l), EdgeOrNode::edge(w, l)};
      d.derive_qparams_fn = [](const std::vector<ObserverBase*>& obs) {
        const QParams a = obs[0]->calculate_qparams(), b = obs[1]->calculate_qparams();
        return QParams{Tensor::full({1}, a.scale.data<float>()[0] * b.scale.data<float>()[0]),
                       Tensor::zeros({1}, DType::Int32)};
      };
      d.dtype = DType::Int32;
      d.quant_min = qmin;
      d.quant_max = qmax;
      d.qscheme = QScheme::per_tensor_symmetric;
      d.is_dynamic = is_dynamic;
      annotate_input_qspec_map(l, b, d);
    });
  };
  // Without a range: main clamped the int32 bias to 0..255; torchao keeps None and convert fails.
  JsQuantizer open = bias_quantizer(std::nullopt, std::nullopt, false);
  GraphModule p = prepare_pt2e(linear_sigmoid(), open);
  p.forward({randn({2, 8})});
  const Node* bias_obs = nullptr;
  for (const Node* n : observer_nodes(p))
    if (std::string(get_observer(p, n)->type_name()) == "DerivedObserverOrFakeQuantize") bias_obs = n;
  REQUIRE(bias_obs != nullptr);
  CHECK_FALSE(get_observer(p, bias_obs)->config().quant_range().has_value());
  CHECK_THROWS_WITH(convert_pt2e(p), Catch::Contains("quant_min / quant_max None"));
  // With a range and is_dynamic=True in the spec: the observer is static (prepare.py does not pass
  // is_dynamic), so convert writes a per-tensor int32 q / dq with the derived scale.
  JsQuantizer full = bias_quantizer(-(int64_t{1} << 31), (int64_t{1} << 31) - 1, true);
  GraphModule p2 = prepare_pt2e(linear_sigmoid(), full);
  for (const Node* n : observer_nodes(p2)) CHECK_FALSE(get_observer(p2, n)->is_dynamic());  // main: the bias one was
  p2.forward({randn({2, 8})});
  GraphModule c = convert_pt2e(p2, false, /*fold_quantize=*/false);
  int int32_q = 0;
  for (const Node* n : c.graph.nodes())
    if (node_kind(*n) == NodeKind::quantize && qdq_args(*n)->dtype == DType::Int32) ++int32_q;
  CHECK(int32_q == 1);
}

TEST_CASE("prepare_qat_pt2e wraps a FixedQParamsQuantizationSpec in FixedQParamsFakeQuantize (torchao prepare.py)",
          "[prepare][qat][fidelity]") {
  auto sigmoid_quantizer = [](std::optional<int64_t> qmin, std::optional<int64_t> qmax) {
    return JsQuantizer([=](GraphModule& gm) {
      FixedQParamsQuantizationSpec f{DType::UInt8, 1.0 / 256, 0, qmin, qmax, QScheme::per_tensor_affine, false};
      annotate_output_qspec(node(gm, "sigmoid"), f);
    });
  };
  JsQuantizer q = sigmoid_quantizer(0, 255);
  GraphModule p = prepare_qat_pt2e(linear_sigmoid(), q);  // main: NotImplementedError
  const ObserverBase& fq = only_observer(p);
  CHECK(std::string(fq.type_name()) == "FixedQParamsFakeQuantize");
  const Tensor y = p.forward({randn({2, 8})})[0];
  for (int64_t i = 0; i < y.numel(); ++i) {  // on the 1/256 grid
    const float k = y.data<float>()[i] * 256.0f;
    CHECK(k == std::nearbyint(k));
  }
  GraphModule c = convert_pt2e(p);
  CHECK(qdq_nodes(c).size() == 2);
  // Without quant_min / quant_max the spec's None reaches FixedQParamsObserver (main: 0..255): under
  // QAT the fake quant's forward fails, under PTQ convert does.
  JsQuantizer open = sigmoid_quantizer(std::nullopt, std::nullopt);
  GraphModule qat = prepare_qat_pt2e(linear_sigmoid(), open);
  CHECK_THROWS_AS(qat.forward({randn({2, 8})}), TypeError);
  GraphModule ptq = prepare_pt2e(linear_sigmoid(), open);
  ptq.forward({randn({2, 8})});
  CHECK_THROWS_AS(convert_pt2e(ptq), RuntimeError);
}

TEST_CASE("convert's dynamic branch takes eps from the observer, float32 eps for a fake quantize (torchao convert.py)",
          "[convert][qat][fidelity]") {
  auto eps_of_choose_qparams = [](bool is_qat) {
    XNNPACKQuantizer q;
    q.set_global(get_symmetric_quantization_config({.is_qat = is_qat, .is_dynamic = true}));
    GraphModule p = is_qat ? prepare_qat_pt2e(linear_sigmoid(), q) : prepare_pt2e(linear_sigmoid(), q);
    p.forward({randn({2, 8})});
    GraphModule c = convert_pt2e(p);
    for (const Node* n : c.graph.nodes())
      if (node_kind(*n) == NodeKind::choose_qparams) return std::get<double>(n->args()[3].v);
    FAIL("no choose_qparams node");
    return 0.0;
  };
  CHECK(eps_of_choose_qparams(false) == 0x1p-12);                          // PlaceholderObserver's eps attribute
  CHECK(eps_of_choose_qparams(true) == static_cast<double>(kFloat32Eps));  // FakeQuantize has none; main: 2^-12
}

TEST_CASE("prepare_pt2e folds every batch norm after a conv or linear, as torchao utils.py _fuse_conv_bn_ / "
          "_fuse_linear_bn_", "[prepare][fold][fidelity]") {
  auto count = [](const GraphModule& gm, const char* t) {
    int k = 0;
    for (const Node* n : gm.graph.nodes()) k += is_call(n, t);
    return k;
  };
  SECTION("a model exported in train mode (\"forgot .eval()\") is folded and fused all the same") {
    manual_seed(0);
    Model m = get_model("stem");
    GraphModule eval_gm = export_module(m, example_inputs(m, 2));
    GraphModule train_gm = eval_gm.clone();
    REQUIRE(move_exported_model_to_train(train_gm) == 1);  // batch_norm(training=True)
    XNNPACKQuantizer q;
    q.set_global(get_symmetric_quantization_config({.is_per_channel = true}));
    GraphModule pe = prepare_pt2e(eval_gm, q), pt = prepare_pt2e(train_gm, q);
    CHECK(count(pt, target::batch_norm) == 0);  // main kept it (and annotated no conv + relu)
    CHECK(observer_placement_table(pt).rows == observer_placement_table(pe).rows);
    CHECK(pt.get_tensor("conv.weight").data<float>()[0] == pe.get_tensor("conv.weight").data<float>()[0]);
  }
  SECTION("conv1d, conv_transpose2d and a linear of unknown input shape are folded; a weight shared by two "
          "batch norms is scaled once") {
    manual_seed(0);
    GraphModule gm;
    gm.set_tensor("w1", randn({4, 2, 3}));
    gm.set_tensor("wt", randn({3, 4, 2, 2}));
    gm.set_tensor("wl", randn({4, 4}));
    for (const char* p : {"m", "v"}) gm.set_tensor(p, rand({4}), true);
    Node* x1 = gm.graph.placeholder("x1");
    Node* x2 = gm.graph.placeholder("x2");
    Node* x3 = gm.graph.placeholder("x3");
    auto bn = [&](Node* in) {
      return gm.graph.call_function(target::batch_norm, {in, nullptr, nullptr, gm.graph.get_attr("m"),
                                                         gm.graph.get_attr("v"), true, 0.1, 1e-5, true});
    };
    Node* w1 = gm.graph.get_attr("w1");
    Node* c1 = bn(gm.graph.call_function(target::conv1d, {x1, w1}));
    Node* c1b = bn(gm.graph.call_function(target::conv1d, {x1, w1}));  // the same weight node again
    Node* ct = bn(gm.graph.call_function(target::conv_transpose2d, {x2, gm.graph.get_attr("wt")}));
    Node* lin = bn(gm.graph.call_function(target::linear, {x3, gm.graph.get_attr("wl")}));  // x3 has no meta.val
    gm.graph.output({c1, c1b, ct, lin});
    const Tensor w1_before = gm.get_tensor("w1").clone();
    CHECK(fold_bn(gm) == 4);  // main: 0 (training flag, conv1d, conv_transpose, linear without a known shape)
    CHECK(count(gm, target::batch_norm) == 0);
    // Scaled by the first fold only (the second is torchao's fake_fuse); that fold's zeros bias replaced
    // the "w1_bias" the first one wrote, under the same name.
    const float r0 = 1.0f / std::sqrt(gm.get_tensor("v").data<float>()[0] + 1e-5f);
    CHECK(gm.get_tensor("w1").data<float>()[0] == w1_before.data<float>()[0] * r0);
    const Tensor& b = gm.get_tensor("w1_bias");
    for (int64_t c = 0; c < b.numel(); ++c) CHECK(b.data<float>()[c] == 0.0f);
  }
}

TEST_CASE("a cloned prepared model keeps one observer per sharing group, and derived observers follow the copies "
          "(torch.fx _insert_obs_or_fq + copy.deepcopy)", "[prepare][clone][fidelity]") {
  // a, b -> cat: (a, cat) has a spec, (b, cat) shares it: two observer nodes, one instance.
  GraphModule gm;
  Node* a = gm.graph.placeholder("a");
  Node* b = gm.graph.placeholder("b");
  gm.graph.output({gm.graph.call_function(target::cat, {std::vector<Node*>{a, b}, 0})});
  propagate_shapes(gm, {randn({2, 3}), randn({2, 3})});
  JsQuantizer q([](GraphModule& g) {
    Node* cat = node(g, "cat");
    annotate_input_qspec_map(cat, node(g, "a"), spec("MinMaxObserver", {}, -128, 127, QScheme::per_tensor_affine));
    annotate_input_qspec_map(cat, node(g, "b"), SharedQuantizationSpec{EdgeOrNode::edge(node(g, "a"), cat)});
  });
  GraphModule p = prepare_pt2e(gm, q);
  auto shared_pairs = [](const GraphModule& g) {
    const std::vector<Node*> obs = observer_nodes(g);
    int pairs = 0;
    for (size_t i = 0; i < obs.size(); ++i)
      for (size_t j = i + 1; j < obs.size(); ++j) pairs += get_observer(g, obs[i]) == get_observer(g, obs[j]);
    return pairs;
  };
  REQUIRE(observer_nodes(p).size() == 2);
  CHECK(shared_pairs(p) == 1);
  GraphModule c = p.clone();
  CHECK(shared_pairs(c) == 1);  // main: 0 (each node had its own wrapper, cloned apart)
  c.forward({Tensor::full({2, 3}, -1.0f), Tensor::full({2, 3}, 3.0f)});
  const auto& seen = dynamic_cast<const UniformQuantizationObserverBase&>(*get_observer(c, observer_nodes(c)[1]));
  CHECK((seen.min_val().item() == -1.0f && seen.max_val().item() == 3.0f));  // one instance saw a and b
  CHECK(get_observer(c, observer_nodes(c)[0]) != get_observer(p, observer_nodes(p)[0]));  // a copy, not the original

  // A derived bias observer of a clone derives from the clone's observers, not the original's.
  JsQuantizer bias([](GraphModule& g) {
    Node* l = node(g, "linear");
    Node *x = arg_node(l, 0), *w = arg_node(l, 1);
    annotate_input_qspec_map(l, x, spec("MinMaxObserver", {}, -128, 127, QScheme::per_tensor_affine));
    annotate_input_qspec_map(l, w, spec("MinMaxObserver", {}, -127, 127, QScheme::per_tensor_symmetric));
    DerivedQuantizationSpec d;
    d.derived_from = {EdgeOrNode::edge(x, l), EdgeOrNode::edge(w, l)};
    d.derive_qparams_fn = [](const std::vector<ObserverBase*>& obs) {
      return QParams{obs[0]->calculate_qparams().scale.clone(), Tensor::zeros({1}, DType::Int32)};
    };
    d.quant_min = -1000;
    d.quant_max = 1000;
    annotate_input_qspec_map(l, arg_node(l, 2), d);
  });
  GraphModule lp = prepare_pt2e(linear_sigmoid(), bias);
  GraphModule lc = lp.clone();
  lc.forward({Tensor::full({2, 8}, 5.0f)});  // only the clone is calibrated
  const Node* derived = observer_nodes(lc).back();
  REQUIRE(std::string(get_observer(lc, derived)->type_name()) == "DerivedObserverOrFakeQuantize");
  const float x_scale = get_observer(lc, observer_nodes(lc)[0])->calculate_qparams().scale.data<float>()[0];
  CHECK(get_observer(lc, derived)->calculate_qparams().scale.data<float>()[0] == x_scale);  // main: the original's 1.0
  CHECK(x_scale != 1.0f);
}

TEST_CASE("convert names its nodes as torch.fx does (Graph.create_node's name from the op overload; torchao "
          "constant_fold.py replace_node_with_constant keeps the quantize node's name)", "[convert][names][fidelity]") {
  auto fx_named = [](const Node* n) {  // "<op>_<overload>" or that with torch.fx's "_<k>" suffix
    const std::string hint = Graph::fx_name_hint(n->target);
    if (n->name == hint) return true;
    if (n->name.rfind(hint + "_", 0) != 0) return false;
    const std::string k = n->name.substr(hint.size() + 1);
    return !k.empty() && std::all_of(k.begin(), k.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  for (bool dynamic : {false, true}) {
    XNNPACKQuantizer q;
    q.set_global(get_symmetric_quantization_config({.is_per_channel = true, .is_dynamic = dynamic}));
    GraphModule p = prepare_pt2e(linear_sigmoid(), q);
    p.forward({randn({2, 8})});
    GraphModule c = convert_pt2e(p);
    int checked = 0;
    for (const Node* n : c.graph.nodes()) {
      const NodeKind k = node_kind(*n);
      if (k != NodeKind::quantize && k != NodeKind::dequantize && k != NodeKind::choose_qparams &&
          !(dynamic && n->op == OpKind::call_function && n->target == target::getitem))
        continue;
      CHECK(fx_named(n));  // main: quantize_per_tensor, dequantize_per_channel, choose_qparams, getitem
      ++checked;
    }
    CHECK(checked >= (dynamic ? 6 : 3));
    if (dynamic) {
      CHECK(c.graph.find("choose_qparams_tensor") != nullptr);
      CHECK(c.graph.find("getitem_1") != nullptr);
    }
    // The folded weight: a get_attr of _frozen_param0 that kept its quantize node's name.
    const Node* w = c.graph.find("quantize_per_channel_default");
    REQUIRE(w != nullptr);  // main: the get_attr was named _frozen_param0
    CHECK(w->op == OpKind::get_attr);
    CHECK(w->target == "_frozen_param0");
  }
}

TEST_CASE("the module-type filter names a class, never a bare last name (torchao testing/pt2e/_xnnpack_quantizer.py "
          "_get_module_type_filter)", "[quantizer][filter][fidelity]") {
  GraphModule gm = linear_sigmoid();
  Node* l = node(gm, "linear");
  l->meta.nn_module_stack = {{"fc", "torch.nn.modules.linear.Linear"}};
  CHECK(get_module_type_filter("torch.nn.modules.linear.Linear")(l));
  CHECK(get_module_type_filter("torch.nn.Linear")(l));  // torch's alias names the same class object
  CHECK_FALSE(get_module_type_filter("Linear")(l));      // main: matched by its last name
  CHECK_FALSE(get_module_type_filter("torch.nn.Conv2d")(l));
  CHECK_FALSE(get_module_type_filter("torch.nn.modules.Linear")(l));
  l->meta.nn_module_stack = {{"fc", "my_models.Linear"}};  // a user's class of the same last name
  CHECK_FALSE(get_module_type_filter("torch.nn.Linear")(l));
  CHECK(get_module_type_filter("my_models.Linear")(l));
}

TEST_CASE("the QAT conv + bn annotator drops dead code before matching (torchao testing/pt2e/"
          "_xnnpack_quantizer_utils.py and ExecuTorch xnnpack_quantizer_utils.py _do_annotate_conv_bn)",
          "[quantizer][qat][fidelity]") {
  manual_seed(0);
  GraphModule gm;
  gm.set_tensor("w", randn({4, 3, 3, 3}));
  for (const char* p : {"m", "v"}) gm.set_tensor(p, rand({4}), true);
  Node* x = gm.graph.placeholder("x");
  Node* conv = gm.graph.call_function(target::conv2d, {x, gm.graph.get_attr("w")});
  gm.graph.call_function(target::relu, {conv});  // dead: nothing uses it
  Node* bn = gm.graph.call_function(target::batch_norm, {conv, nullptr, nullptr, gm.graph.get_attr("m"),
                                                         gm.graph.get_attr("v"), true, 0.1, 1e-5, true});
  gm.graph.output({bn});
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true, .is_qat = true}));
  q.annotate(gm);
  CHECK(gm.graph.find("relu") == nullptr);  // main: the dead relu stayed ...
  const QuantizationAnnotation* on_conv = get_annotation(conv);
  REQUIRE(on_conv != nullptr);
  CHECK_FALSE(on_conv->output_qspec.has_value());  // ... conv + bn did not match, and conv's output was labelled
  REQUIRE(get_annotation(bn) != nullptr);
  CHECK(get_annotation(bn)->output_qspec.has_value());
}
