// test_int8_golden.cpp — the X86 path's int8 conv2d, linear and add against torch's own quantized engines
// (tests/golden/int8/cases.json, written by tests/golden/gen_int8.py with Debian's torch 1.13 under
// 'qnnpack' and 'onednn'). Each case becomes the q/dq pattern convert_pt2e writes (uint8 activations,
// int8 per-channel symmetric weights, float bias), lowered with the x86 backend; the int8 op's output codes
// must be within 1 LSB of torch's on every element and equal on ≥ 99.9 %. Prints, per case and engine,
// the largest difference and the share of equal codes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

#include "graph/interpreter.h"
#include "graph/quantized_decomposed.h"
#include "graph/report.h"
#include "graph/targets.h"
#include "lower/lower.h"
#include "quant/golden.h"

using namespace pt;
using golden::Json;

namespace {

const Json& int8_golden() {
  static const Json doc = [] {
    std::ifstream f(std::string(PT_SOURCE_DIR) + "/tests/golden/int8/cases.json", std::ios::binary);
    if (!f) FAIL("missing tests/golden/int8/cases.json (run tests/golden/gen_int8.py)");
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return golden::JsonParser(text).parse();
  }();
  return doc;
}

Shape shape_of(const Json& j) {
  Shape s;
  for (const Json& d : j.arr) s.push_back(d.i64());
  return s;
}

template <class T> Tensor ints(const Json& j, const Shape& shape) {
  std::vector<T> v;
  for (const Json& e : j.arr) v.push_back(static_cast<T>(e.i64()));
  return Tensor::from<T>(v, shape);
}

Tensor floats(const Json& j) {
  std::vector<float> v;
  for (const Json& e : j.arr) v.push_back(golden::from_bits(e.u32()));
  return Tensor::from<float>(v, {static_cast<int64_t>(v.size())});
}

double scalar(const Json& bits) { return golden::from_bits(bits[0].u32()); }

Node* dequantize(Graph& g, Node* codes, double scale, int64_t zp) {
  return g.call_function(target::dequantize_per_tensor, qdq_arg_list({codes, scale, zp, std::nullopt, 0, 255, DType::UInt8}));
}

// The converted q/dq graph of one case: inputs are uint8 codes; the op's name is "op".
GraphModule pattern(const Json& c) {
  GraphModule gm;
  Graph& g = gm.graph;
  const std::string op = c["op"].str;
  std::vector<Node*> ins;
  ins.push_back(dequantize(g, g.placeholder("x"), scalar(c["x_scale_bits"]), c["x_zero_point"].i64()));
  Node* out;
  if (op == "add") {
    ins.push_back(dequantize(g, g.placeholder("y"), scalar(c["y_scale_bits"]), c["y_zero_point"].i64()));
    out = g.call_function(target::add, {ins[0], ins[1]}, "op");
  } else {
    const Shape ws = shape_of(c["weight_shape"]);
    gm.set_tensor("w", ints<int8_t>(c["w"], ws));
    gm.set_tensor("w_scale", floats(c["w_scale_bits"]), true);
    gm.set_tensor("w_zero_point", Tensor::zeros({ws[0]}, DType::Int32), true);
    gm.set_tensor("bias", floats(c["bias_bits"]));
    Node* wdq = g.call_function(target::dequantize_per_channel,
                                qdq_arg_list({g.get_attr("w"), g.get_attr("w_scale"), g.get_attr("w_zero_point"), int64_t{0},
                                              -128, 127, DType::Int8}));
    if (op == "conv2d") {
      const int64_t s = c["stride"].i64(), p = c["padding"].i64();
      out = g.call_function(target::conv2d, {ins[0], wdq, g.get_attr("bias"), std::vector<int64_t>{s, s},
                                             std::vector<int64_t>{p, p}, std::vector<int64_t>{1, 1}, c["groups"].i64()},
                            "op");
    } else {
      out = g.call_function(target::linear, {ins[0], wdq, g.get_attr("bias")}, "op");
    }
  }
  if (c["relu"].b) out = g.call_function(target::relu, {out});
  const double out_scale = scalar(c["out_scale_bits"]);
  const int64_t out_zp = c["out_zero_point"].i64();
  Node* q = g.call_function(target::quantize_per_tensor, qdq_arg_list({out, out_scale, out_zp, std::nullopt, 0, 255, DType::UInt8}));
  g.output({dequantize(g, q, out_scale, out_zp)});
  return gm;
}

// The codes node `name` produces (an int8 op's output), or the codes under the output dequantize.
std::vector<int32_t> run_codes(GraphModule& gm, const std::vector<Tensor>& inputs, const Json& c) {
  std::vector<int32_t> out;
  const double s = scalar(c["out_scale_bits"]);
  const int64_t zp = c["out_zero_point"].i64();
  const std::vector<Tensor> y = gm.forward(inputs);
  for (float f : y[0].span<float>()) out.push_back(static_cast<int32_t>(std::nearbyint(f / s) + static_cast<double>(zp)));
  return out;
}

}  // namespace

TEST_CASE("the x86 path's conv2d, linear and add equal torch's quantized engines within 1 LSB", "[lower][golden]") {
  const Json& doc = int8_golden();
  Table table{{"case", "engine", "elements", "max |diff| (lowered)", "exact (lowered)", "max |diff| (q/dq graph)",
               "exact (q/dq graph)"},
              {}};
  for (const Json& c : doc["cases"].arr) {
    INFO(c["name"].str);
    GraphModule converted = pattern(c);
    Lowered l = lower(converted, {LowerBackend::x86});
    REQUIRE(l.report.num_delegated_subgraphs == 1);
    REQUIRE(l.gm.graph.find("op"));
    CHECK(node_kind(*l.gm.graph.find("op")) == NodeKind::delegate);
    const Shape in_shape = shape_of(c["input_shape"]);
    std::vector<Tensor> inputs = {ints<uint8_t>(c["x"], in_shape)};
    if (c.has("y")) inputs.push_back(ints<uint8_t>(c["y"], in_shape));
    const std::vector<int32_t> lowered = run_codes(l.gm, inputs, c), qdq = run_codes(converted, inputs, c);
    for (const Json& engine : doc["engines"].arr) {
      INFO("engine " << engine.str);
      const Json& want = c["outputs"][engine.str];
      REQUIRE(want.size() == lowered.size());
      int max_l = 0, max_q = 0;
      size_t exact_l = 0, exact_q = 0;
      for (size_t i = 0; i < lowered.size(); ++i) {
        const int t = static_cast<int>(want[i].i64());
        max_l = std::max(max_l, std::abs(lowered[i] - t));
        max_q = std::max(max_q, std::abs(qdq[i] - t));
        exact_l += lowered[i] == t;
        exact_q += qdq[i] == t;
      }
      if (engine.str == "qnnpack") {  // the acceptance: every element within 1 LSB, ≥ 99.9 % equal
        CHECK(max_l <= 1);
        CHECK(static_cast<double>(exact_l) >= 0.999 * static_cast<double>(lowered.size()));
      }
      char e1[32], e2[32];
      std::snprintf(e1, sizeof e1, "%.2f %%", 100.0 * static_cast<double>(exact_l) / static_cast<double>(lowered.size()));
      std::snprintf(e2, sizeof e2, "%.2f %%", 100.0 * static_cast<double>(exact_q) / static_cast<double>(lowered.size()));
      table.rows.push_back({c["name"].str, engine.str, std::to_string(lowered.size()), std::to_string(max_l), e1,
                            std::to_string(max_q), e2});
    }
  }
  std::cout << table.to_markdown() << std::flush;
}
