// test_vocabulary.cpp — the graph vocabulary (graph/targets.h: node kinds, groups), the
// quantized_decomposed ops' argument layout and accessor (graph/quantized_decomposed.h), the ops being in
// the interpreter's table from start-up (this test binary never runs convert_pt2e), and constant
// evaluation through that table.
#include <catch2/catch.hpp>

#include "graph/interpreter.h"
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"
#include "ops/ops.h"
#include "quant/quantize.h"

using namespace pt;

namespace {
struct Identity : SubModule {
  std::string type_name() const override { return "PlaceholderObserver"; }
  Tensor forward(const Tensor& x) override { return x; }
  std::string describe() const override { return "-"; }
  std::shared_ptr<SubModule> clone() const override { return std::make_shared<Identity>(*this); }
};

Tensor values(std::vector<float> v, Shape shape) { return Tensor::from<float>(v, std::move(shape)); }
}  // namespace

TEST_CASE("the quantized_decomposed ops are in the interpreter's table from start-up", "[graph][qdq]") {
  for (TargetGroup g : {TargetGroup(group::quantize), TargetGroup(group::dequantize), TargetGroup(group::choose_qparams)})
    for (const char* t : g) {
      INFO(t);
      CHECK(find_op(t) != nullptr);
    }
  // x -> q -> dq per tensor, and per channel, run as a graph without convert_pt2e having run.
  GraphModule gm;
  Node* x = gm.graph.placeholder("x");
  gm.set_tensor("s", values({0.1f, 0.5f}, {2}));
  gm.set_tensor("z", Tensor::from<int32_t>({0, 3}, {2}));
  Node* s = gm.graph.get_attr("s");
  Node* z = gm.graph.get_attr("z");
  QDQArgs t{x, 0.25, int64_t{2}, std::nullopt, -128, 127, DType::Int8};
  Node* q = gm.graph.call_function(target::quantize_per_tensor, qdq_arg_list(t));
  t.input = q;
  Node* dq = gm.graph.call_function(target::dequantize_per_tensor, qdq_arg_list(t));
  QDQArgs c{x, s, z, int64_t{1}, -128, 127, DType::Int8};
  Node* qc = gm.graph.call_function(target::quantize_per_channel, qdq_arg_list(c));
  c.input = qc;
  Node* dqc = gm.graph.call_function(target::dequantize_per_channel, qdq_arg_list(c));
  gm.graph.output({dq, dqc});
  const Tensor in = values({0.3f, -1.0f, 40.0f, 0.05f}, {2, 2});
  const std::vector<Tensor> out = gm.forward({in});
  const Tensor want = dequantize_per_tensor(quantize_per_tensor(in, 0.25, 2, -128, 127, DType::Int8), 0.25, 2, -128,
                                            127, DType::Int8);
  const Tensor want_c =
      dequantize_per_channel(quantize_per_channel(in, gm.get_tensor("s"), gm.get_tensor("z"), 1, -128, 127, DType::Int8),
                             gm.get_tensor("s"), gm.get_tensor("z"), 1, -128, 127, DType::Int8);
  for (int64_t i = 0; i < 4; ++i) {
    CHECK(out[0].data<float>()[i] == want.data<float>()[i]);
    CHECK(out[1].data<float>()[i] == want_c.data<float>()[i]);
  }
  CHECK(out[0].data<float>()[2] == Approx((127 - 2) * 0.25));  // clamped to quant_max
}

TEST_CASE("qdq_args reads back what qdq_arg_list wrote, and nothing else", "[graph][qdq]") {
  GraphModule gm;
  Node* x = gm.graph.placeholder("x");
  Node* s = gm.graph.get_attr("s");
  Node* z = gm.graph.get_attr("z");
  SECTION("per tensor, literals") {
    Node* q = gm.graph.call_function(target::quantize_per_tensor,
                                     qdq_arg_list({x, 0.02, int64_t{-3}, std::nullopt, 0, 255, DType::UInt8}));
    CHECK(q->args().size() == 6);
    const auto a = qdq_args(*q);
    REQUIRE(a);
    CHECK(a->input == x);
    CHECK(std::get<double>(a->scale.v) == 0.02);
    CHECK(std::get<int64_t>(a->zero_point.v) == -3);
    CHECK_FALSE(a->axis);
    CHECK(a->quant_min == 0);
    CHECK(a->quant_max == 255);
    CHECK(a->dtype == DType::UInt8);
  }
  SECTION("per channel, attributes and an axis; .tensor overload, nodes") {
    Node* dq = gm.graph.call_function(target::dequantize_per_channel,
                                      qdq_arg_list({x, s, z, int64_t{0}, -127, 127, DType::Int8}));
    CHECK(dq->args().size() == 7);
    const auto a = qdq_args(*dq);
    REQUIRE(a);
    CHECK(a->scale.node() == s);
    CHECK(a->zero_point.node() == z);
    CHECK(a->axis == 0);
    CHECK(a->quant_min == -127);
    Node* qt = gm.graph.call_function(target::quantize_per_tensor_tensor,
                                      qdq_arg_list({x, s, z, std::nullopt, -128, 127, DType::Int8}));
    const auto b = qdq_args(*qt);
    REQUIRE(b);
    CHECK(b->scale.node() == s);
    CHECK_FALSE(b->axis);
  }
  SECTION("not a q / dq node, or not laid out as one") {
    CHECK_FALSE(qdq_args(*gm.graph.call_function(target::relu, {x})));
    CHECK_FALSE(qdq_args(*gm.graph.call_function(target::quantize_per_tensor, {x, 0.1, 0, -128, 127, 2.5})));
    CHECK_FALSE(qdq_args(*gm.graph.call_function(target::quantize_per_tensor, {x, 0.1, 0, -128, 127, 99})));
    CHECK_FALSE(qdq_args(*gm.graph.call_function(target::dequantize_per_channel, {x, s, z, -128, 127, 1})));
  }
  CHECK(dtype_from_code(dtype_code(DType::UInt8)) == DType::UInt8);
  CHECK_THROWS_AS(dtype_from_code(-1), ValueError);
}

TEST_CASE("node_kind: one kind per node, computed once from op and target", "[graph][kinds]") {
  GraphModule gm;
  gm.add_module("activation_post_process_0", std::make_shared<Identity>());
  Node* x = gm.graph.placeholder("x");
  Node* w = gm.graph.get_attr("w");
  Node* obs = gm.graph.call_module("activation_post_process_0", {x});
  Node* choose = gm.graph.call_function(target::choose_qparams_symmetric,
                                        choose_qparams_arg_list({obs, -128, 127, 1e-5, DType::Int8}));
  Node* scale = gm.graph.call_function(target::getitem, {choose, 0});
  Node* zp = gm.graph.call_function(target::getitem, {choose, 1});
  Node* q = gm.graph.call_function(target::quantize_per_tensor_tensor,
                                   qdq_arg_list({obs, scale, zp, std::nullopt, -128, 127, DType::Int8}));
  Node* dq = gm.graph.call_function(target::dequantize_per_tensor_tensor,
                                    qdq_arg_list({q, scale, zp, std::nullopt, -128, 127, DType::Int8}));
  Node* conv = gm.graph.call_function(target::conv2d, {dq, w});
  Node* out = gm.graph.output({conv});
  const std::vector<std::pair<Node*, const char*>> want = {
      {x, "placeholder"}, {w, "get_attr"},   {obs, "observer"}, {choose, "choose_qparams"}, {scale, "op"},
      {q, "quantize"},    {dq, "dequantize"}, {conv, "op"},      {out, "output"}};
  for (const auto& [n, name] : want) {
    INFO(n->name);
    CHECK(std::string(node_kind_name(node_kind(*n))) == name);
  }
  CHECK(is_call(conv, group::conv));
  CHECK_FALSE(is_call(conv, group::conv_transpose));
  CHECK_FALSE(is_call(nullptr, group::conv));
  CHECK(arg_node(conv, 0) == dq);
  CHECK(arg_node(conv, 2) == nullptr);
  CHECK(only_user(dq, conv));
}

TEST_CASE("evaluate_constants runs a constant subgraph through the op table", "[graph][fold]") {
  GraphModule gm;
  gm.set_tensor("w", values({0.5f, -1.0f, 2.0f}, {3}));
  Node* x = gm.graph.placeholder("x");
  Node* w = gm.graph.get_attr("w");
  Node* w2 = gm.graph.call_function(target::mul, {w, 2.0});
  Node* q = gm.graph.call_function(target::quantize_per_tensor,
                                   qdq_arg_list({w2, 0.5, int64_t{0}, std::nullopt, -128, 127, DType::Int8}));
  Node* y = gm.graph.call_function(target::add, {x, w2});
  gm.graph.output({y, q});
  const std::vector<Value> v = evaluate_constants(gm, {q, w2});
  REQUIRE(v.size() == 2);
  const Tensor& qt = std::get<Tensor>(v[0].v);
  CHECK(qt.dtype() == DType::Int8);
  CHECK(qt.data<int8_t>()[0] == 2);
  CHECK(qt.data<int8_t>()[1] == -4);
  CHECK(qt.data<int8_t>()[2] == 8);
  CHECK(std::get<Tensor>(v[1].v).data<float>()[2] == 4.0f);
  CHECK_THROWS_WITH(evaluate_constants(gm, {y}), Catch::Contains("node x") && Catch::Contains("not a constant"));
  Node* bad = gm.graph.call_function("test_ns.no_such_op.default", {w});
  CHECK_THROWS_AS(evaluate_constants(gm, {bad}), NotImplementedError);
  CHECK_THROWS_WITH(evaluate_constants(gm, {bad}), Catch::Contains("node no_such_op"));
}
