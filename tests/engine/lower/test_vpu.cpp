// test_vpu.cpp — the fictional VPU (pt2e/quantizers/vpu_quantizer.h, lower/vpu.h): its rules on every
// zoo model (power-of-two scales, int32 derived bias, shared add / cat scales, the Q3.12 output),
// validate() rejecting what the VPU cannot run by node and target, the integer-only simulation equal to
// the fake-quant graph on every output element of every model it accepts, typed errors naming the node,
// and observers made of callbacks (quant/js_observer.h) reaching prepare / convert. Prints the table of
// bit-exact elements per model (docs/status.md's integer section).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/quantized_decomposed.h"
#include "graph/report.h"
#include "graph/targets.h"
#include "lower_fixtures.h"
#include "kernels/kernels.h"
#include "lower/vpu.h"
#include "ops/ops.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/vpu_quantizer.h"
#include "quant/js_observer.h"
#include "quant/power_of_two_observer.h"

using namespace pt;

namespace {

using lower_test::batches;  // lower_fixtures.h

GraphModule exported(const std::string& name) {
  manual_seed(0);
  Model m = get_model(name);
  return export_module(m, example_inputs(m, 4));
}

GraphModule vpu_converted(const std::string& name, std::vector<Tensor>& data,
                          const QuantizationConfig& config = get_vpu_quantization_config()) {
  GraphModule gm = exported(name);
  data = batches(get_model(name));
  VPUQuantizer q;
  q.set_global(config);
  GraphModule prepared = prepare_pt2e(gm, q);
  for (size_t i = 0; i + 1 < data.size(); ++i) prepared.forward({data[i]});
  return convert_pt2e(prepared);
}

bool power_of_two(double s) {
  int e = 0;
  return s > 0 && std::frexp(s, &e) == 0.5;
}

Tensor output_of(GraphModule& gm, const Tensor& x) { return gm.forward({x}).at(0); }

// The node the graph's output reads (its output list's first entry).
const Node* output_producer(const Graph& g) {
  const Node* out = g.find_output();
  if (const Node* n = arg_node(out, 0)) return n;
  return std::get<std::vector<Node*>>(out->args()[0].v).at(0);
}

const std::vector<std::string> kAccepted = {"conv_relu", "stem", "residual", "tiny", "mlp"};

}  // namespace

TEST_CASE("the VPU's rules on the zoo: power-of-two scales, int32 derived bias, shared add scales, Q3.12 output", "[vpu]") {
  for (const std::string& name : kAccepted) {
    INFO(name);
    std::vector<Tensor> data;
    GraphModule converted = vpu_converted(name, data);
    int q16 = 0, bias32 = 0;
    for (const Node* n : converted.graph.nodes()) {
      if (node_kind(*n) != NodeKind::quantize && node_kind(*n) != NodeKind::dequantize) continue;
      const auto a = qdq_args(*n);
      REQUIRE(a);
      REQUIRE(std::holds_alternative<double>(a->scale.v));  // per tensor everywhere
      CHECK(power_of_two(std::get<double>(a->scale.v)));
      CHECK(std::get<int64_t>(a->zero_point.v) == 0);
      q16 += a->dtype == DType::Int16 && node_kind(*n) == NodeKind::quantize;
      bias32 += a->dtype == DType::Int32;
    }
    CHECK(q16 == 1);  // the output's quantize, Q3.12
    const Node* out_dq = output_producer(converted.graph);
    REQUIRE(out_dq);
    const auto oa = qdq_args(*out_dq);
    CHECK(oa->dtype == DType::Int16);
    CHECK(std::get<double>(oa->scale.v) == 0x1p-12);
    if (name != "mlp" && name != "conv_relu") CHECK(bias32 > 0);  // folded BN biases (stem, residual, tiny)
  }
  // residual: the add's two inputs read codes of one scale.
  std::vector<Tensor> data;
  GraphModule converted = vpu_converted("residual", data);
  const Node* add = converted.graph.find("add");
  REQUIRE(add);
  const auto a = qdq_args(*arg_node(add, 0)), b = qdq_args(*arg_node(add, 1));
  CHECK(std::get<double>(a->scale.v) == std::get<double>(b->scale.v));
}

TEST_CASE("VPUQuantizer.validate rejects a zoo model it cannot run, naming the node and its target", "[vpu]") {
  const std::vector<std::pair<std::string, std::string>> rejected = {
      {"linear_sigmoid", "node sigmoid (aten.sigmoid.default)"},
      {"cat_pool", "node add (aten.add.Tensor)"},       // y + y.mean(...) broadcasts
      {"conv_relu_add", "node relu (aten.relu.default)"}};  // relu with a sibling user: not fused
  for (const auto& [name, node] : rejected) {
    INFO(name);
    GraphModule gm = exported(name);
    VPUQuantizer q;
    q.set_global(get_vpu_quantization_config());
    CHECK_THROWS_AS(prepare_pt2e(gm, q), NotImplementedError);
    CHECK_THROWS_WITH(prepare_pt2e(gm, q), Catch::Contains(node) && Catch::Contains("cannot run on the VPU"));
  }
}

TEST_CASE("the VPU's integer-only simulation equals the fake-quant graph bit for bit on every element", "[vpu]") {
  Table table{{"model", "delegated nodes", "float nodes (boundary)", "output elements", "bit-exact", "int16 codes"}, {}};
  for (const std::string& name : kAccepted) {
    INFO(name);
    std::vector<Tensor> data;
    GraphModule converted = vpu_converted(name, data);
    Lowered sim = simulate_vpu(converted);
    // Integer only: every node but the input's quantize and the output's dequantize is an integer op.
    CHECK(sim.report.num_non_delegated_nodes == 2);
    for (const Node* n : sim.gm.graph.nodes())
      if (node_kind(*n) == NodeKind::op) FAIL("float op left: " << n->name);
    const Tensor want = output_of(converted, data.back()), got = output_of(sim.gm, data.back());
    REQUIRE(want.shape() == got.shape());
    size_t exact = 0;
    const auto w = want.span<float>(), g = got.span<float>();
    for (size_t i = 0; i < w.size(); ++i) {
      const bool same = std::memcmp(&w[i], &g[i], sizeof(float)) == 0;
      exact += same;
      if (!same) FAIL_CHECK(name << " element " << i << ": fake quant " << w[i] << ", simulation " << g[i]);
    }
    CHECK(exact == w.size());
    CHECK(w.size() > 0);
    // The output op's codes are int16 (Q3.12), read under the boundary dequantize.
    const Node* out_dq = output_producer(sim.gm.graph);
    const Node* last = arg_node(out_dq, 0);
    REQUIRE(last);
    CHECK(node_kind(*last) == NodeKind::delegate);
    DType codes = DType::Float32;
    run_graph(sim.gm, {data.back()}, [&](const Node& n, const Value& v) {
      if (&n == last) codes = std::get<Tensor>(v.v).dtype();
    });
    CHECK(codes == DType::Int16);
    table.rows.push_back({name, std::to_string(sim.report.num_delegated_nodes), std::to_string(sim.report.num_non_delegated_nodes),
                          std::to_string(w.size()), std::to_string(exact), "yes"});
  }
  std::cout << table.to_markdown() << std::flush;
}

TEST_CASE("simulate_vpu's bad input: typed errors naming the node, the converted graph unchanged", "[vpu]") {
  std::vector<Tensor> data;
  SECTION("not converted") {
    GraphModule gm = exported("conv_relu");
    VPUQuantizer q;
    q.set_global(get_vpu_quantization_config());
    GraphModule prepared = prepare_pt2e(gm, q);
    CHECK_THROWS_AS(simulate_vpu(prepared), ValueError);
    CHECK_THROWS_AS(simulate_vpu(gm), ValueError);
  }
  SECTION("a scale that is no power of two reaching the shift path") {
    GraphModule converted = vpu_converted("tiny", data);
    Node* conv = converted.graph.find("conv2d");
    REQUIRE(conv);
    Node* q = conv->users().at(0);
    while (node_kind(*q) != NodeKind::quantize) q = q->users().at(0);
    QDQArgs a = *qdq_args(*q);
    a.scale = std::get<double>(a.scale.v) * 0.75;
    converted.graph.set_args(q, qdq_arg_list(a));
    const size_t before = converted.graph.nodes().size();
    CHECK_THROWS_AS(simulate_vpu(converted), ValueError);
    CHECK_THROWS_WITH(simulate_vpu(converted), Catch::Contains("node conv2d") && Catch::Contains("not a power of two"));
    CHECK(converted.graph.nodes().size() == before);
  }
  SECTION("mismatched qparams: a max_pool2d whose output scale differs from its input's") {
    GraphModule converted = vpu_converted("tiny", data);
    lower_test::double_output_scale(converted, "max_pool2d");
    CHECK_THROWS_AS(simulate_vpu(converted), ValueError);
    CHECK_THROWS_WITH(simulate_vpu(converted), Catch::Contains("node max_pool2d") && Catch::Contains("share qparams"));
  }
  SECTION("a node that stays float") {
    GraphModule gm = exported("linear_sigmoid");
    VPUQuantizer q;
    q.set_global(get_vpu_quantization_config());
    // Skip validate (a JS quantizer could omit it): annotate, then prepare with a quantizer that accepts.
    struct NoValidate : VPUQuantizer {
      void validate(const GraphModule&) const override {}
    } lax;
    lax.set_global(get_vpu_quantization_config());
    GraphModule prepared = prepare_pt2e(gm, lax);
    for (const Tensor& x : batches(get_model("linear_sigmoid"))) prepared.forward({x});
    GraphModule converted = convert_pt2e(prepared);
    CHECK_THROWS_AS(simulate_vpu(converted), NotImplementedError);
    CHECK_THROWS_WITH(simulate_vpu(converted), Catch::Contains("node sigmoid") && Catch::Contains("stays float"));
  }
}

TEST_CASE("PowerOfTwoMinMaxObserver: the smallest power of two that clips no observed value", "[vpu]") {
  manual_seed(0);
  for (float spread : {0.01f, 1.0f, 3.7f, 100.0f}) {
    INFO(spread);
    Tensor x = randn({1000});
    for (float& v : x.span<float>()) v *= spread;
    ObserverArgs args;
    PowerOfTwoMinMaxObserver obs(args);
    obs.forward(x);
    const QParams qp = obs.calculate_qparams();
    const float s = qp.scale.data<float>()[0];
    CHECK(power_of_two(s));
    CHECK(qp.zero_point.data<int32_t>()[0] == 0);
    float amax = 0;
    for (float v : x.span<float>()) amax = std::max(amax, std::abs(v));
    CHECK(amax / s <= 127.0f);          // nothing clips
    CHECK(amax / (s / 2) > 127.0f);     // half the scale would clip
  }
  ObserverArgs affine;
  affine.qscheme = QScheme::per_tensor_affine;
  CHECK_THROWS_AS(PowerOfTwoMinMaxObserver(affine), ValueError);
  ObserverArgs u8;
  u8.dtype = DType::UInt8;
  CHECK_THROWS_AS(PowerOfTwoMinMaxObserver(u8), ValueError);
}

namespace {
// An observer class made of callbacks, as the JS bindings make one: the power-of-two rule over its own
// running max |x|, registered by name.
struct CallbackPow2 {
  float amax = 0;
  int broken = 0;  // 0 fine, 1 two scales, 2 inf scale, 3 throws
};
std::shared_ptr<CallbackPow2> g_state;

std::unique_ptr<ObserverBase> make_callback_pow2(const ObserverArgs& args) {
  auto st = g_state;
  JsObserver::Callbacks cb;
  cb.forward = [st](const Tensor& x) {
    for (float v : x.span<float>()) st->amax = std::max(st->amax, std::abs(v));
  };
  cb.calculate_qparams = [st]() {
    if (st->broken == 3) throw RuntimeError("boom");
    const int n = st->broken == 1 ? 2 : 1;
    float s = std::exp2(std::ceil(std::log2(std::max(st->amax / 127.0f, 0x1p-12f))));
    if (st->broken == 2) s = INFINITY;
    return QParams{Tensor::full({n}, s), Tensor::zeros({n}, DType::Int32)};
  };
  return std::make_unique<JsObserver>("CallbackPow2", args, cb);
}
}  // namespace

TEST_CASE("an observer made of callbacks plugs into a spec; bad results are typed errors naming it", "[vpu]") {
  register_observer({"CallbackPow2", make_callback_pow2, observer_class("MinMaxObserver").kwargs});
  QuantizationConfig c = get_vpu_quantization_config();
  for (auto* spec : {&c.input_activation, &c.output_activation, &c.weight}) spec->value().observer_or_fake_quant_ctr.name = "CallbackPow2";
  g_state = std::make_shared<CallbackPow2>();
  std::vector<Tensor> data;
  GraphModule converted = vpu_converted("mlp", data, c);
  Lowered sim = simulate_vpu(converted);
  const Tensor want = output_of(converted, data.back()), got = output_of(sim.gm, data.back());
  CHECK(std::memcmp(want.bytes(), got.bytes(), want.nbytes()) == 0);

  for (int broken : {1, 2, 3}) {
    INFO(broken);
    g_state = std::make_shared<CallbackPow2>();
    GraphModule gm = exported("mlp");
    VPUQuantizer q;
    q.set_global(c);
    GraphModule prepared = prepare_pt2e(gm, q);
    prepared.forward({example_inputs(get_model("mlp"), 4)[0]});
    g_state->broken = broken;
    const size_t before = prepared.graph.nodes().size();
    if (broken == 3) {
      CHECK_THROWS_AS(convert_pt2e(prepared), RuntimeError);
      CHECK_THROWS_WITH(convert_pt2e(prepared), Catch::Contains("CallbackPow2.calculate_qparams(): boom"));
    } else {
      CHECK_THROWS_AS(convert_pt2e(prepared), ValueError);
      CHECK_THROWS_WITH(convert_pt2e(prepared), Catch::Contains("CallbackPow2.calculate_qparams() returned") &&
                                                    Catch::Contains(broken == 1 ? "2 scales" : "finite and > 0"));
    }
    CHECK(prepared.graph.nodes().size() == before);  // the prepared graph is left as it was
  }
  g_state.reset();
}

TEST_CASE("shift_even is quantize's rounding: acc / 2^s half to even, a left shift for s < 0, int16 codes", "[vpu]") {
  kernels::Requantization r;
  r.kind = kernels::RequantKind::shift_even;
  r.qmin = -32768, r.qmax = 32767, r.out_bytes = 2;
  uint64_t seed = 0x5eed;
  const auto next = [&] { return seed = seed * 6364136223846793005ull + 1442695040888963407ull; };
  for (int i = 0; i < 20000; ++i) {
    r.shift = static_cast<int32_t>(next() >> 59) - 8;  // −8 … 23
    int32_t acc = static_cast<int32_t>(next() >> 40) - (1 << 23);
    if (i % 3 == 0 && r.shift > 0) acc = (acc & ~((1 << r.shift) - 1)) | (1 << (r.shift - 1));  // a tie
    const double want = std::clamp(std::nearbyint(std::ldexp(static_cast<double>(acc), -r.shift)), -32768.0, 32767.0);
    INFO("acc " << acc << " shift " << r.shift);
    REQUIRE(r.apply(acc) == static_cast<int32_t>(want));
    int16_t out[2] = {0, 0};
    kernels::i32_requantize(&acc, 1, 0, r, reinterpret_cast<uint8_t*>(out), 1);
    REQUIRE(out[0] == static_cast<int16_t>(want));
  }
}
