// test_lower.cpp — lowering (engine/lower/lower.h): every zoo model on the XNNPACK path (ExecuTorch's
// XNNPACKQuantizer, per-channel) and the X86 path (X86InductorQuantizer, with and without reduce_range),
// in both requantizations; the lowered graph's int8 output against its q/dq graph's, code by code on a
// held-out batch (≥ 99.9 % within 1 LSB, the rest printed); the partition report; typed errors naming
// the node. Prints the lowered-zoo table.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/quantized_decomposed.h"
#include "graph/report.h"
#include "graph/targets.h"
#include "lower_fixtures.h"
#include "lower/integer_picture.h"
#include "lower/lower.h"
#include "ops/ops.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"

using namespace pt;

namespace {

struct Path {
  std::string name;
  LowerBackend backend;
  std::function<std::shared_ptr<Quantizer>()> make;
};

std::vector<Path> paths() {
  auto x86 = [](bool reduce_range) {
    return [=] {
      auto q = std::make_shared<X86InductorQuantizer>();
      q->set_global(get_default_x86_inductor_quantization_config(false, false, reduce_range));
      return std::shared_ptr<Quantizer>(q);
    };
  };
  return {{"xnnpack", LowerBackend::xnnpack,
           [] {
             auto q = std::make_shared<executorch::XNNPACKQuantizer>();
             q->set_global(executorch::get_symmetric_quantization_config({.is_per_channel = true}));
             return std::shared_ptr<Quantizer>(q);
           }},
          {"x86", LowerBackend::x86, x86(false)},
          {"x86 reduce_range", LowerBackend::x86, x86(true)}};
}

using lower_test::batches;  // lower_fixtures.h

GraphModule converted_model(const std::string& name, const Path& path, std::vector<Tensor>& data) {
  manual_seed(0);
  Model m = get_model(name);
  GraphModule gm = export_module(m, example_inputs(m, 4));
  data = batches(m);
  GraphModule prepared = prepare_pt2e(gm, *path.make());
  for (size_t i = 0; i + 1 < data.size(); ++i) prepared.forward({data[i]});
  return convert_pt2e(prepared);
}

// The model's int8 output: the dequantize the graph output reads last (following first arguments back).
const Node* last_dequantize(const GraphModule& gm) {
  const Node* n = arg_node(gm.graph.find_output(), 0);
  if (!n) n = std::get<std::vector<Node*>>(gm.graph.find_output()->args()[0].v).at(0);
  while (n && node_kind(*n) != NodeKind::dequantize) n = arg_node(n, 0);
  return n;
}

// The codes under dequantize node `name` when `gm` runs on x.
std::vector<int32_t> codes_at(GraphModule& gm, const std::string& name, const Tensor& x) {
  std::vector<int32_t> out;
  const Node* dq = gm.graph.find(name);
  REQUIRE(dq);
  const auto a = qdq_args(*dq);
  const double scale = std::get<double>(a->scale.v);
  const int64_t zp = std::get<int64_t>(a->zero_point.v);
  run_graph(gm, {x}, [&](const Node& n, const Value& v) {
    if (&n != dq) return;
    for (float f : std::get<Tensor>(v.v).span<float>())
      out.push_back(static_cast<int32_t>(std::nearbyint(f / scale) + static_cast<double>(zp)));
  });
  return out;
}

struct Agreement {
  size_t n = 0, exact = 0, within1 = 0;
  int max_diff = 0;
};
Agreement compare(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  Agreement r;
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const int d = std::abs(a[i] - b[i]);
    ++r.n;
    r.exact += d == 0;
    r.within1 += d <= 1;
    r.max_diff = std::max(r.max_diff, d);
  }
  return r;
}

std::string pct(size_t k, size_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", n ? 100.0 * static_cast<double>(k) / static_cast<double>(n) : 100.0);
  return buf;
}

}  // namespace

TEST_CASE("every lowered zoo model's int8 output equals its q/dq graph's within 1 LSB", "[lower]") {
  Table table{{"model", "path", "requantization", "delegated / float nodes", "subgraphs", "elements", "within 1 LSB",
               "exact", "max |diff|"},
              {}};
  for (const std::string& name : model_names()) {
    for (const Path& path : paths()) {
      for (const auto kind : {kernels::RequantKind::fp32, kernels::RequantKind::fixed_point}) {
        const char* rq = kind == kernels::RequantKind::fp32 ? "fp32" : "fixed_point";
        INFO(name << " / " << path.name << " / " << rq);
        std::vector<Tensor> data;
        GraphModule converted = converted_model(name, path, data);
        Lowered l = lower(converted, {path.backend, kind});
        const Node* dq = last_dequantize(converted);
        REQUIRE(dq);
        const Agreement a = compare(codes_at(converted, dq->name, data.back()), codes_at(l.gm, dq->name, data.back()));
        CHECK(a.n > 0);
        CHECK(static_cast<double>(a.within1) >= 0.999 * static_cast<double>(a.n));
        // X86InductorQuantizer quantizes conv / linear inputs only: a model whose last conv or linear feeds
        // the output (conv_relu, stem, linear_sigmoid; conv_relu_add, whose conv feeds a float relu and add)
        // has no int8 -> int8 pattern to lower (its op would need a float output, not built).
        const bool float_output = name == "conv_relu" || name == "stem" || name == "linear_sigmoid" || name == "conv_relu_add";
        if (path.backend == LowerBackend::xnnpack || !float_output)
          CHECK(l.report.num_delegated_nodes > 0);
        table.rows.push_back({name, path.name, rq,
                              std::to_string(l.report.num_delegated_nodes) + " / " +
                                  std::to_string(l.report.num_non_delegated_nodes),
                              std::to_string(l.report.num_delegated_subgraphs), std::to_string(a.n),
                              pct(a.within1, a.n), pct(a.exact, a.n), std::to_string(a.max_diff)});
      }
    }
  }
  std::cout << table.to_markdown() << std::flush;
}

TEST_CASE("lowering tiny for XNNPACK: every conv, the add, pools, flatten and linear become int8 ops", "[lower]") {
  std::vector<Tensor> data;
  GraphModule converted = converted_model("tiny", paths()[0], data);
  Lowered l = lower(converted, {});
  std::map<std::string, int> targets;
  for (const Node* n : l.gm.graph.nodes())
    if (node_kind(*n) == NodeKind::delegate) ++targets[n->target];
  CHECK(targets[target::int8_conv2d] == 4);
  CHECK(targets[target::int8_add] == 1);
  CHECK(targets[target::int8_max_pool2d] == 2);
  CHECK(targets[target::int8_linear] == 1);
  // What stays float: the input quantize and the output dequantize, around one delegated subgraph.
  CHECK(l.report.num_delegated_subgraphs == 1);
  CHECK(l.report.num_non_delegated_nodes == 2);
  for (const PartitionNode& p : l.report.nodes) {
    INFO(p.name);
    CHECK(p.delegated == p.reason.empty());
    if (p.name == "conv2d") CHECK(p.lowered_as == "conv2d");
  }
  // The converted graph is left as it was.
  for (const Node* n : converted.graph.nodes()) CHECK(node_kind(*n) != NodeKind::delegate);
}

TEST_CASE("lowering rejects what it cannot run with typed errors naming the node, leaving the input unchanged", "[lower]") {
  std::vector<Tensor> data;
  const Path xnn = paths()[0];
  SECTION("not converted: observers left, or no quantize / dequantize at all") {
    manual_seed(0);
    Model m = get_model("conv_relu");
    GraphModule gm = export_module(m, example_inputs(m, 2));
    GraphModule prepared = prepare_pt2e(gm, *xnn.make());
    CHECK_THROWS_WITH(lower(prepared), Catch::Contains("is an observer (activation_post_process_") && Catch::Contains("convert_pt2e"));
    CHECK_THROWS_AS(lower(prepared), ValueError);
    CHECK_THROWS_AS(lower(gm), ValueError);
  }
  SECTION("activations of the other backend's dtype") {
    GraphModule converted = converted_model("conv_relu", xnn, data);
    CHECK_THROWS_AS(lower(converted, {LowerBackend::x86}), ValueError);
    CHECK_THROWS_WITH(lower(converted, {LowerBackend::x86}), Catch::Contains("node conv2d") && Catch::Contains("uint8"));
  }
  SECTION("max_pool2d whose output qparams differ from its input's") {
    GraphModule converted = converted_model("tiny", xnn, data);
    lower_test::double_output_scale(converted, "max_pool2d");
    CHECK_THROWS_AS(lower(converted), ValueError);
    CHECK_THROWS_WITH(lower(converted), Catch::Contains("node max_pool2d") && Catch::Contains("share qparams"));
  }
  SECTION("a conv shape the kernel does not run: dilation 2") {
    GraphModule converted = converted_model("conv_relu", xnn, data);
    Node* conv = converted.graph.find("conv2d");
    std::vector<Arg> args = conv->args();
    while (args.size() < 7) args.push_back(args.size() == 6 ? Arg(int64_t{1}) : Arg(std::vector<int64_t>{args.size() == 5 ? 1 : 0, args.size() == 5 ? 1 : 0}));
    args[3] = std::vector<int64_t>{1, 1};
    args[4] = std::vector<int64_t>{1, 1};
    args[5] = std::vector<int64_t>{2, 2};
    converted.graph.set_args(conv, args);
    CHECK_THROWS_AS(lower(converted), NotImplementedError);
    CHECK_THROWS_WITH(lower(converted), Catch::Contains("node conv2d") && Catch::Contains("dilation"));
  }
  SECTION("a pool the kernel does not run: max_pool2d padding over half its window") {
    GraphModule converted = converted_model("tiny", xnn, data);
    Node* pool = converted.graph.find("max_pool2d");
    REQUIRE(pool);
    std::vector<Arg> args = pool->args();
    const auto* k = std::get_if<std::vector<int64_t>>(&args.at(1).v);
    REQUIRE(k);
    const std::vector<int64_t> kernel = *k;
    if (args.size() < 3) args.push_back(kernel);
    if (args.size() < 4) args.push_back(std::vector<int64_t>{0, 0});
    args[3] = std::vector<int64_t>{kernel[0] / 2 + 1, 0};
    converted.graph.set_args(pool, args);
    CHECK_THROWS_AS(lower(converted), NotImplementedError);
    CHECK_THROWS_WITH(lower(converted), Catch::Contains("node max_pool2d") && Catch::Contains("padding"));
  }
  SECTION("unknown backend name, a shift requantization of a multiplier that is no power of two") {
    CHECK_THROWS_AS(backend_from_name("vpu"), ValueError);
    GraphModule converted = converted_model("conv_relu", xnn, data);
    CHECK_THROWS_AS(lower(converted, {LowerBackend::xnnpack, kernels::RequantKind::shift}), ValueError);
    CHECK_THROWS_WITH(lower(converted, {LowerBackend::xnnpack, kernels::RequantKind::shift}), Catch::Contains("node conv2d"));
  }
}

TEST_CASE("the integer picture of a lowered conv2d and linear reproduces the op's output codes", "[lower]") {
  std::vector<Tensor> data;
  for (const auto kind : {kernels::RequantKind::fp32, kernels::RequantKind::fixed_point}) {
    GraphModule converted = converted_model("tiny", paths()[0], data);
    Lowered l = lower(converted, {LowerBackend::xnnpack, kind});
    for (const char* name : {"conv2d", "conv2d_2", "linear"}) {
      INFO(name);
      Tensor out;
      run_graph(l.gm, {data.back()}, [&](const Node& n, const Value& v) {
        if (n.name == name) out = std::get<Tensor>(v.v);
      });
      REQUIRE(out.numel() > 0);
      for (int64_t index : {int64_t{0}, out.numel() / 3, out.numel() - 1}) {
        const IntegerPicture p = integer_picture(l.gm, name, {data.back()}, index);
        CHECK(p.output == out.data<int8_t>()[index]);
        CHECK(p.inputs.size() == p.weights.size());
        int64_t sum = 0;
        for (int32_t v : p.products) sum += v;
        CHECK(sum == p.accumulator);
        CHECK(p.accumulator_with_bias == p.accumulator + p.bias);
      }
    }
    CHECK_THROWS_AS(integer_picture(l.gm, "max_pool2d", {data.back()}, 0), ValueError);
    CHECK_THROWS_AS(integer_picture(l.gm, "linear", {data.back()}, 1 << 20), ValueError);
  }
}
