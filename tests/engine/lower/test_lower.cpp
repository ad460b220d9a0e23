// test_lower.cpp — lowering (engine/lower/lower.h): every zoo model on the XNNPACK path (ExecuTorch's
// XNNPACKQuantizer, per-channel) and the X86 path (X86InductorQuantizer, with and without reduce_range),
// in both requantizations; the lowered graph's int8 output against its q/dq graph's, code by code on a
// held-out batch (≥ 99.9 % within 1 LSB, the rest printed), or, where the X86 path's float output stage
// produces the model's output, float against float (FloatAgreement below); the partition report; typed
// errors naming the node. Prints the lowered-zoo table.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <optional>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/quantized_decomposed.h"
#include "graph/report.h"
#include "graph/targets.h"
#include "lower_fixtures.h"
#include "lower/int8_ops.h"
#include "lower/integer_picture.h"
#include "lower/lower.h"
#include "ops/ops.h"
#include "quant/quantize.h"
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

// The model's float outputs side by side: the largest |difference| over the largest |q/dq output|. The q/dq
// graph runs the conv / linear in float on dequantized values (each product s_in·(x − z)·s_w·w rounded to
// float32, summed in float); the float output stage sums the same integers exactly in int32 and rounds twice,
// f32(acc)·f32(s_in·s_w) and + bias. What differs is float rounding of a sum of K terms, so the bound is a
// few float32 ulps of the output's range per term summed: K · 2^-23 with K ≤ 576 (3×3×64) is 6.9e-5; checked
// at 2^-14 (6.1e-5) of the largest |output| and printed.
struct FloatAgreement {
  size_t n = 0;
  double max_abs = 0, max_ref = 0;
  double relative() const { return max_ref > 0 ? max_abs / max_ref : max_abs; }
};
FloatAgreement compare_float(const Tensor& ref, const Tensor& got) {
  FloatAgreement r;
  REQUIRE(ref.shape() == got.shape());
  for (int64_t i = 0; i < ref.numel(); ++i) {
    const double a = ref.data<float>()[i], b = got.data<float>()[i];
    ++r.n;
    r.max_abs = std::max(r.max_abs, std::abs(a - b));
    r.max_ref = std::max(r.max_ref, std::abs(a));
  }
  return r;
}
constexpr double kFloatOutputTolerance = 0x1p-14;

std::map<std::string, Tensor> node_values(GraphModule& gm, const Tensor& x) {
  std::map<std::string, Tensor> out;
  run_graph(gm, {x}, [&](const Node& n, const Value& v) {
    if (const auto* t = std::get_if<Tensor>(&v.v)) out[n.name] = *t;
  });
  return out;
}

std::vector<int64_t> int_list(const Node* n, size_t i, std::vector<int64_t> dflt) {
  if (i >= n->args().size() || n->args()[i].is_none()) return dflt;
  if (const auto* v = std::get_if<std::vector<int64_t>>(&n->args()[i].v)) return *v;
  return {std::get<int64_t>(n->args()[i].v)};
}

std::vector<int32_t> code_values(const Tensor& t) {
  std::vector<int32_t> out;
  for (int64_t i = 0; i < t.numel(); ++i)
    out.push_back(t.dtype() == DType::UInt8 ? t.data<uint8_t>()[i] : t.data<int8_t>()[i]);
  return out;
}

// Every int8 op of `lowered` in the float output stage, against the q/dq graph's float computation on the same
// codes: the codes the op reads (lowered graph) dequantized as the converted graph's input dequantize does, then
// conv2d / linear in float with the converted graph's dequantized weight and float bias [, relu]. `codes` gets
// the op's input codes against the converted graph's codes there (they differ where an int8 op upstream
// rounded 1 LSB apart from its q/dq twin).
FloatAgreement float_output_stages(GraphModule& converted, GraphModule& lowered, const Tensor& x, Agreement& codes,
                                   int& ops) {
  const auto cv = node_values(converted, x), lv = node_values(lowered, x);
  FloatAgreement all;
  for (const Node* n : lowered.graph.nodes()) {
    const auto a = int8_args(*n);
    if (!a || !a->scale) continue;
    const Int8Params p = Int8Params::from(lowered.get_tensor(a->params->target));
    if (static_cast<kernels::RequantKind>(p.requant) != kernels::RequantKind::f32_output) continue;
    ++ops;
    const Node* op = converted.graph.find(n->name);
    REQUIRE(op);
    const Node* dq = arg_node(op, 0);
    const auto q = qdq_args(*dq);
    REQUIRE(q);
    const Tensor& got_codes = lv.at(a->inputs.at(0)->name);
    const Agreement c = compare(code_values(cv.at(q->input->name)), code_values(got_codes));
    codes.n += c.n, codes.exact += c.exact, codes.within1 += c.within1, codes.max_diff = std::max(codes.max_diff, c.max_diff);
    const Tensor xf = dequantize_per_tensor(got_codes, std::get<double>(q->scale.v), std::get<int64_t>(q->zero_point.v),
                                            q->quant_min, q->quant_max, q->dtype);
    const Tensor& wf = cv.at(arg_node(op, 1)->name);
    const std::optional<Tensor> b = arg_node(op, 2) ? std::optional<Tensor>(cv.at(arg_node(op, 2)->name)) : std::nullopt;
    Tensor ref = is_call(op, target::conv2d)
                     ? ops::conv2d(xf, wf, b, int_list(op, 3, {1}), int_list(op, 4, {0}), int_list(op, 5, {1}), int_list(op, 6, {1}).at(0))
                     : ops::linear(xf, wf, b);
    if (p.relu) ref = ops::relu(ref);
    const FloatAgreement f = compare_float(ref, lv.at(n->name));
    all.n += f.n, all.max_abs = std::max(all.max_abs, f.max_abs), all.max_ref = std::max(all.max_ref, f.max_ref);
  }
  return all;
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", v);
  return buf;
}

std::string pct(size_t k, size_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", n ? 100.0 * static_cast<double>(k) / static_cast<double>(n) : 100.0);
  return buf;
}

}  // namespace

TEST_CASE("every lowered zoo model's int8 output equals its q/dq graph's within 1 LSB", "[lower]") {
  Table table{{"model", "path", "requantization", "delegated / float nodes", "subgraphs", "compared", "elements",
               "within 1 LSB", "exact", "max |diff|", "float output ops", "stage: max |diff| / max |y|",
               "model output: max |diff| / max |y|"},
              {}};
  for (const std::string& name : model_names()) {
    for (const Path& path : paths()) {
      for (const auto kind : {kernels::RequantKind::fp32, kernels::RequantKind::fixed_point}) {
        const char* rq = requant_name(kind);
        INFO(name << " / " << path.name << " / " << rq);
        std::vector<Tensor> data;
        GraphModule converted = converted_model(name, path, data);
        Lowered l = lower(converted, {path.backend, kind});
        CHECK(l.report.num_delegated_nodes > 0);
        const Node* dq = last_dequantize(converted);
        REQUIRE(dq);
        // The codes under the output's last dequantize; where the X86 path's float output stage took that
        // dequantize (X86InductorQuantizer quantizes conv / linear inputs only, so in every zoo model a conv /
        // linear near the output feeds a float user), the codes each float-output op reads instead, and the
        // stage's float against the q/dq graph's on those codes.
        Agreement a;
        int float_ops = 0;
        const FloatAgreement stage = float_output_stages(converted, l.gm, data.back(), a, float_ops);
        const bool output_codes = l.gm.graph.find(dq->name) != nullptr;
        if (output_codes) a = compare(codes_at(converted, dq->name, data.back()), codes_at(l.gm, dq->name, data.back()));
        else REQUIRE(float_ops > 0);
        CHECK(a.n > 0);
        CHECK(static_cast<double>(a.within1) >= 0.999 * static_cast<double>(a.n));
        if (path.backend == LowerBackend::xnnpack) CHECK(float_ops == 0);
        CHECK(stage.relative() <= kFloatOutputTolerance);
        const FloatAgreement model = compare_float(converted.forward({data.back()}).at(0), l.gm.forward({data.back()}).at(0));
        if (!output_codes && a.exact == a.n) CHECK(model.relative() <= kFloatOutputTolerance);  // nothing upstream rounded apart
        const auto ratio = [](const FloatAgreement& f) { return sci(f.max_abs) + " / " + sci(f.max_ref) + " = " + sci(f.relative()); };
        table.rows.push_back({name, path.name, rq,
                              std::to_string(l.report.num_delegated_nodes) + " / " + std::to_string(l.report.num_non_delegated_nodes),
                              std::to_string(l.report.num_delegated_subgraphs),
                              output_codes ? "output codes" : "float-output ops' input codes", std::to_string(a.n),
                              pct(a.within1, a.n), pct(a.exact, a.n), std::to_string(a.max_diff), std::to_string(float_ops),
                              float_ops ? ratio(stage) : "—", output_codes ? "—" : ratio(model)});
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

TEST_CASE("requantization kinds by name: one list, each name read back as its kind", "[lower]") {
  const std::vector<kernels::RequantKind> kinds = {kernels::RequantKind::fp32, kernels::RequantKind::fixed_point,
                                                   kernels::RequantKind::shift, kernels::RequantKind::shift_even,
                                                   kernels::RequantKind::f32_output};
  CHECK(requant_names() == std::vector<std::string>{"fp32", "fixed_point", "shift", "shift_even", "f32_output"});
  for (size_t i = 0; i < kinds.size(); ++i) {
    CHECK(requant_name(kinds[i]) == requant_names()[i]);
    CHECK(requant_from_name(requant_names()[i]) == kinds[i]);
  }
  CHECK_THROWS_AS(requant_from_name("double"), ValueError);
  CHECK_THROWS_WITH(requant_from_name("double"), Catch::Contains("'double'") && Catch::Contains("'shift_even', 'f32_output'"));
  CHECK_THROWS_AS(requant_name(static_cast<kernels::RequantKind>(7)), ValueError);
  CHECK(quoted_requant_names() == "'fp32', 'fixed_point', 'shift', 'shift_even', 'f32_output'");  // the messages' list
}

TEST_CASE("the integer picture of a lowered conv2d and linear reproduces the op's output codes", "[lower]") {
  std::vector<Tensor> data;
  for (const auto kind : {kernels::RequantKind::fp32, kernels::RequantKind::fixed_point}) {
    GraphModule converted = converted_model("tiny", paths()[0], data);
    Lowered l = lower(converted, {LowerBackend::xnnpack, kind});
    const auto weight_codes = node_values(converted, data.back());
    // conv2d (3 channels in) packs its weight in taps, conv2d_2 (16, stride 1) in channel pairs
    for (const auto& [op, layout] : {std::pair{"conv2d", WeightLayout::taps}, std::pair{"conv2d_2", WeightLayout::channel_pairs},
                                     std::pair{"linear", WeightLayout::taps}}) {
      const std::string name = op;  // (a structured binding cannot be captured by clang 14's lambdas)
      INFO(name);
      Tensor out;
      run_graph(l.gm, {data.back()}, [&](const Node& n, const Value& v) {
        if (n.name == name) out = std::get<Tensor>(v.v);
      });
      REQUIRE(out.numel() > 0);
      CHECK(Int8Params::from(l.gm.get_tensor(int8_args(*l.gm.graph.find(name))->params->target)).weight_layout ==
            static_cast<int32_t>(layout));
      // the converted graph's int8 weight codes (its weight dequantize's input), [O, K] in (c, i, j) order
      const auto wq = qdq_args(*arg_node(converted.graph.find(name), 1));
      REQUIRE(wq);
      const Tensor& w = weight_codes.at(wq->input->name);
      REQUIRE(w.dtype() == DType::Int8);
      for (int64_t index : {int64_t{0}, out.numel() / 3, out.numel() - 1}) {
        const IntegerPicture p = integer_picture(l.gm, name, {data.back()}, index);
        CHECK(p.output == out.data<int8_t>()[index]);
        CHECK(p.inputs.size() == p.weights.size());
        const int64_t K = w.numel() / w.size(0);
        REQUIRE(static_cast<int64_t>(p.weights.size()) == K);
        CHECK(p.weights == std::vector<int32_t>(w.data<int8_t>() + p.channel * K, w.data<int8_t>() + (p.channel + 1) * K));
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

TEST_CASE("integer_pictures: one run of the graph pictures many elements, each equal to its single-index picture", "[lower]") {
  std::vector<Tensor> data;
  for (const Path& path : {paths()[0], paths()[1]}) {  // XNNPACK: int8 codes; X86: uint8 codes, tiny's linear the float output stage
    INFO(path.name);
    GraphModule converted = converted_model("tiny", path, data);
    Lowered l = lower(converted, {path.backend});
    for (const char* name : {"conv2d", "conv2d_2", "linear"}) {
      INFO(name);
      Tensor out;
      run_graph(l.gm, {data.back()}, [&](const Node& n, const Value& v) {
        if (n.name == name) out = std::get<Tensor>(v.v);
      });
      REQUIRE(out.numel() > 8);
      const std::vector<int64_t> indices{out.numel() - 1, 0, out.numel() / 3, 7, 0};  // any order, a repeat
      const std::vector<IntegerPicture> pictures = integer_pictures(l.gm, name, {data.back()}, indices);
      REQUIRE(pictures.size() == indices.size());
      for (size_t i = 0; i < indices.size(); ++i) {
        INFO("indices[" << i << "] = " << indices[i]);
        const IntegerPicture& p = pictures[i];
        const IntegerPicture one = integer_picture(l.gm, name, {data.back()}, indices[i]);
        CHECK(p == one);  // every field (IntegerPicture's defaulted ==); the ones below say which, should it fail
        CHECK(p.output_coords == one.output_coords);
        CHECK(p.inputs == one.inputs);
        CHECK(p.weights == one.weights);
        CHECK(p.accumulator_with_bias == one.accumulator_with_bias);
        CHECK(p.requantization == one.requantization);
        int64_t flat = 0;  // the picture is of the element asked for ...
        for (size_t d = 0; d < p.output_coords.size(); ++d) flat = flat * out.size(static_cast<int64_t>(d)) + p.output_coords[d];
        CHECK(flat == indices[i]);
        if (out.dtype() == DType::Float32) {  // ... and gives the op's own output there
          CHECK(p.float_output);
          CHECK(__builtin_bit_cast(uint32_t, p.output_f32) == __builtin_bit_cast(uint32_t, out.data<float>()[indices[i]]));
        } else {
          CHECK(p.output == (out.dtype() == DType::Int8 ? int32_t{out.data<int8_t>()[indices[i]]} : int32_t{out.data<uint8_t>()[indices[i]]}));
        }
      }
      CHECK(pictures[1] == pictures[4]);  // the same element twice
      CHECK_FALSE(pictures[0] == pictures[1]);
    }
    if (path.name == "x86") CHECK(integer_picture(l.gm, "linear", {data.back()}, 0).float_output);  // both stages were pictured
  }
}

TEST_CASE("integer_pictures: typed errors, every index checked before a picture is made; no indices, no pictures", "[lower]") {
  std::vector<Tensor> data;
  GraphModule converted = converted_model("tiny", paths()[0], data);
  Lowered l = lower(converted, {LowerBackend::xnnpack});
  const std::vector<Tensor> x{data.back()};
  CHECK(integer_pictures(l.gm, "linear", x, {}).empty());
  CHECK_THROWS_WITH(integer_pictures(l.gm, "max_pool2d", x, {}), Catch::Contains("'max_pool2d' is no int8.conv2d / int8.linear node"));
  CHECK_THROWS_WITH(integer_pictures(l.gm, "nope", x, {0}), Catch::Contains("'nope'"));
  Tensor out;
  run_graph(l.gm, x, [&](const Node& n, const Value& v) {
    if (n.name == "linear") out = std::get<Tensor>(v.v);
  });
  const int64_t n = out.numel();
  const std::string shape = shape_str(out.shape());
  CHECK_THROWS_AS(integer_pictures(l.gm, "linear", x, {0, 1, n}), ValueError);
  CHECK_THROWS_WITH(integer_pictures(l.gm, "linear", x, {0, 1, n}),
                    Catch::Contains("index " + std::to_string(n) + " (indices[2]) is outside the output " + shape));
  CHECK_THROWS_WITH(integer_pictures(l.gm, "linear", x, {3, -1}), Catch::Contains("index -1 (indices[1])"));
  CHECK_THROWS_WITH(integer_picture(l.gm, "linear", x, n), Catch::Contains("index " + std::to_string(n) + " is outside the output " + shape) &&
                                                              !Catch::Contains("indices["));
  CHECK(integer_pictures(l.gm, "linear", x, std::vector<int64_t>(kMaxIntegerPictures, n - 1)).size() == kMaxIntegerPictures);
  CHECK_THROWS_AS(integer_pictures(l.gm, "linear", x, std::vector<int64_t>(kMaxIntegerPictures + 1, 0)), ValueError);
  CHECK_THROWS_WITH(integer_pictures(l.gm, "linear", x, std::vector<int64_t>(kMaxIntegerPictures + 1, 0)),
                    Catch::Contains(std::to_string(kMaxIntegerPictures + 1) + " indices; at most " + std::to_string(kMaxIntegerPictures)));
  CHECK_THROWS_WITH(integer_pictures(l.gm, "linear", {}, {0}), Catch::Contains("expected 1 input(s)"));  // the interpreter's ValueError
}

TEST_CASE("x86: a conv / linear whose output is not quantized becomes one int8 op with the float output stage", "[lower]") {
  // torchao v0.18.0 inductor_passes/x86.py: qconv_weight_prepack / qlinear_weight_prepack give every dq → conv /
  // linear onednn's float output, and _register_qconv_unary_fusion / _register_qlinear_unary_fusion fuse the relu
  // of one user into it.
  std::vector<Tensor> data;
  for (const char* name : {"conv_relu", "linear_sigmoid"}) {
    INFO(name);
    GraphModule converted = converted_model(name, paths()[1], data);
    Lowered l = lower(converted, {LowerBackend::x86});
    const bool conv = std::string(name) == "conv_relu";
    const std::string op = conv ? "conv2d" : "linear";
    const Node* n = l.gm.graph.find(op);
    REQUIRE(n);
    CHECK(n->target == (conv ? target::int8_conv2d : target::int8_linear));
    const Int8Params p = Int8Params::from(l.gm.get_tensor(int8_args(*n)->params->target));
    CHECK(p.requant == static_cast<int32_t>(kernels::RequantKind::f32_output));
    CHECK(p.out_dtype() == DType::Float32);
    CHECK(p.relu == (conv ? 1 : 0));                                   // conv_relu's relu fused; sigmoid stays float
    CHECK(l.gm.get_tensor(int8_args(*n)->bias->target).dtype() == DType::Float32);  // the bias is added in float
    for (const PartitionNode& pn : l.report.nodes)
      if (pn.name == op || (conv && pn.name == "relu")) CHECK((pn.delegated && pn.lowered_as == op));
    if (!conv) CHECK(l.gm.graph.find("sigmoid"));
    // The integer picture of a float-output element: f32(acc)·(s_in·s_w) + bias [, relu], the op's own float.
    Tensor out;
    run_graph(l.gm, {data.back()}, [&](const Node& at, const Value& v) {
      if (at.name == op) out = std::get<Tensor>(v.v);
    });
    REQUIRE(out.dtype() == DType::Float32);
    for (int64_t index : {int64_t{0}, out.numel() / 2, out.numel() - 1}) {
      const IntegerPicture pic = integer_picture(l.gm, op, {data.back()}, index);
      CHECK(pic.float_output);
      CHECK(pic.requantization == "f32_output");
      float expect = static_cast<float>(pic.accumulator) * pic.multiplier;
      expect = expect + pic.bias_f32;
      if (pic.relu) expect = std::max(expect, 0.0f);
      CHECK(__builtin_bit_cast(uint32_t, pic.output_f32) == __builtin_bit_cast(uint32_t, out.data<float>()[index]));
      CHECK(__builtin_bit_cast(uint32_t, pic.output_f32) == __builtin_bit_cast(uint32_t, expect));
    }
  }
  GraphModule converted = converted_model("conv_relu", paths()[1], data);
  // The float output stage is lowering's choice, not a requantization to ask for.
  CHECK_THROWS_AS(lower(converted, {LowerBackend::x86, kernels::RequantKind::f32_output}), ValueError);
  CHECK_THROWS_WITH(lower(converted, {LowerBackend::x86, kernels::RequantKind::f32_output}), Catch::Contains("f32_output"));
}
