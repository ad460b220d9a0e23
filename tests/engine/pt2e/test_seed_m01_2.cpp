// test_seed_m01_2.cpp — seed M01-2 (residual block stages, CatPoolNet annotations) reproduced with
// the engine, in the notebook's order: manual_seed(0); get_model("residual", ch=8); ex = randn(4,8,16,16);
// export; prepare_pt2e (per-channel XNNPACK config); 8 calibration batches randn(4,8,16,16); convert_pt2e.
// Every expected value below is printed in the seed notebook (docs/status.md, the seed pages), except the
// converted graph's output, which tests/golden/gen_pt2e.py computes with torch 1.13 primitives.
#include <catch2/catch.hpp>

#include <cstdio>
#include <set>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/report.h"
#include "ops/golden.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "quant/quantize.h"

using namespace pt;

namespace {

struct ResidualStages {
  GraphModule gm, prepared, converted;
  Tensor ex;
};

const ResidualStages& residual_stages() {
  static const ResidualStages s = [] {
    manual_seed(0);
    Model model = get_model("residual", {.ch = 8});
    std::vector<Tensor> ex = {randn({4, 8, 16, 16})};
    GraphModule gm = export_module(model, ex);
    XNNPACKQuantizer q;
    q.set_global(get_symmetric_quantization_config({.is_per_channel = true}));
    GraphModule prepared = prepare_pt2e(gm, q);
    for (int i = 0; i < 8; ++i) prepared.forward({randn({4, 8, 16, 16})});
    GraphModule converted = convert_pt2e(prepared);
    return ResidualStages{std::move(gm), std::move(prepared), std::move(converted), ex[0]};
  }();
  return s;
}

std::vector<std::string> row(const OpDiffRow& r) {
  return {r.op, std::to_string(r.a), std::to_string(r.b), std::to_string(r.delta)};
}

std::vector<std::string> users_of(const GraphModule& gm, const std::string& name) {
  std::vector<std::string> out;
  for (const Node* u : gm.graph.find(name)->users()) out.push_back(u->name);
  return out;
}

}  // namespace

TEST_CASE("M01-2 diff_ops export -> prepare", "[seed][m01_2]") {
  const auto& s = residual_stages();
  const auto rows = diff_ops(s.gm, s.prepared);
  const std::vector<std::vector<std::string>> want = {
      {"<module:HistogramObserver>", "0", "4", "4"},
      {"<module:PerChannelMinMaxObserver>", "0", "2", "2"},
      {"batch_norm", "2", "0", "-2"},
      {"add", "1", "1", "0"},
      {"conv2d", "2", "2", "0"},
      {"relu", "2", "2", "0"},
  };
  REQUIRE(rows.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(row(rows[i]) == want[i]);
}

TEST_CASE("M01-2 diff_ops prepare -> convert", "[seed][m01_2]") {
  const auto& s = residual_stages();
  const auto rows = diff_ops(s.prepared, s.converted);
  const std::vector<std::vector<std::string>> want = {
      {"<module:HistogramObserver>", "4", "0", "-4"},
      {"<module:PerChannelMinMaxObserver>", "2", "0", "-2"},
      {"dequantize_per_channel", "0", "2", "2"},
      {"dequantize_per_tensor", "0", "5", "5"},
      {"quantize_per_tensor", "0", "4", "4"},
      {"add", "1", "1", "0"},
      {"conv2d", "2", "2", "0"},
      {"relu", "2", "2", "0"},
  };
  REQUIRE(rows.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(row(rows[i]) == want[i]);
}

TEST_CASE("M01-2 observer placement table", "[seed][m01_2]") {
  const auto& s = residual_stages();
  const Table t = observer_placement_table(s.prepared);
  const std::vector<std::vector<std::string>> want = {
      {"activation_post_process_1", "PerChannelMinMaxObserver", "conv1_weight", "conv2d",
       "scale=0.0009225 zp=0 (per-channel, n=8)"},
      {"activation_post_process_3", "PerChannelMinMaxObserver", "conv2_weight", "conv2d_1",
       "scale=0.0009054 zp=0 (per-channel, n=8)"},
      {"activation_post_process_0", "HistogramObserver", "x", "conv2d, add", "scale=0.03299 zp=-5"},
      {"activation_post_process_2", "HistogramObserver", "relu", "conv2d_1", "scale=0.008802 zp=-128"},
      {"activation_post_process_4", "HistogramObserver", "conv2d_1", "add", "scale=0.008239 zp=18"},
      {"activation_post_process_5", "HistogramObserver", "relu_1", "output", "scale=0.01745 zp=-128"},
  };
  REQUIRE(t.rows.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(t.rows[i] == want[i]);
}

TEST_CASE("M01-2 conv2d feeds relu directly, x's quantize feeds two dequantizes", "[seed][m01_2]") {
  const auto& s = residual_stages();
  CHECK(users_of(s.prepared, "conv2d") == std::vector<std::string>{"relu"});
  const Node* x = s.converted.graph.find("x");
  REQUIRE(x->users().size() == 1);
  const Node* q = x->users()[0];
  CHECK(short_target(q->target) == "quantize_per_tensor");
  REQUIRE(q->users().size() == 2);
  std::set<std::string> consumers;
  for (const Node* dq : q->users()) {
    CHECK(short_target(dq->target) == "dequantize_per_tensor");
    REQUIRE(dq->users().size() == 1);
    consumers.insert(dq->users()[0]->name);
  }
  CHECK(consumers == std::set<std::string>{"conv2d", "add"});
}

TEST_CASE("M01-2 converted graph runs and stays close to the float graph", "[seed][m01_2]") {
  const auto& s = residual_stages();
  manual_seed(1);
  const Tensor x = randn({4, 8, 16, 16});
  GraphModule gm = s.gm.clone(), converted = s.converted.clone();
  const Tensor ref = gm.forward({x})[0];
  const Tensor got = converted.forward({x})[0];
  CHECK(got.shape() == ref.shape());
  CHECK(sqnr(ref, got) > 20.0f);  // 8-bit activations: well above 20 dB, far from bit-equal
  CHECK(sqnr(ref, got) < 60.0f);
}

TEST_CASE("M01-2 CatPoolNet annotation table and unannotated ops", "[seed][m01_2]") {
  manual_seed(0);
  Model model = get_model("cat_pool");
  GraphModule gm2 = export_module(model, example_inputs(4));
  XNNPACKQuantizer q2;
  q2.set_global(get_symmetric_quantization_config({.is_per_channel = true}));
  GraphModule annotated = gm2.clone();
  q2.annotate(annotated);
  const Table t = annotation_table(annotated);
  const std::vector<std::vector<std::string>> want = {
      {"a_weight", "a.weight", "-", "NoneType"},
      {"a_bias", "a.bias", "-", "NoneType"},
      {"b_weight", "b.weight", "-", "NoneType"},
      {"b_bias", "b.bias", "-", "NoneType"},
      {"out_weight", "out.weight", "-", "NoneType"},
      {"out_bias", "out.bias", "-", "NoneType"},
      {"conv2d", "conv2d", "x:Spec, a_weight:Spec, a_bias:NoneType", "NoneType"},
      {"relu", "relu", "-", "Spec"},
      {"conv2d_1", "conv2d", "x:Spec, b_weight:Spec, b_bias:NoneType", "NoneType"},
      {"relu_1", "relu", "-", "Spec"},
      {"conv2d_2", "conv2d", "max_pool2d:Spec, out_weight:Spec, out_bias:NoneType", "Spec"},
      {"mean", "mean", "conv2d_2:SharedSpec", "SharedSpec"},
      {"add", "add", "conv2d_2:Spec, mean:Spec", "Spec"},
  };
  REQUIRE(t.rows.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(t.rows[i] == want[i]);
  std::set<std::string> left;
  for (const Node* n : unannotated_ops(annotated)) left.insert(n->name);
  CHECK(left == std::set<std::string>{"cat", "max_pool2d"});

  // After prepare: each relu output has its own observer, nothing between cat and max_pool2d.
  GraphModule prepared2 = prepare_pt2e(gm2, q2);
  const Node* cat = prepared2.graph.find("cat");
  REQUIRE(cat->users().size() == 1);
  CHECK(cat->users()[0]->name == "max_pool2d");
  for (const Node* in : cat->all_input_nodes()) CHECK(in->op == OpKind::call_module);
}

TEST_CASE("M01-2 converted output equals the torch 1.13 q/dq oracle", "[seed][m01_2][golden]") {
  const auto& s = residual_stages();
  golden::Golden g("pt2e_residual");
  const Tensor ex = g.tensor("example");
  REQUIRE(std::equal(ex.data<float>(), ex.data<float>() + ex.numel(), s.ex.data<float>()));
  const Tensor want = g.tensor("out");
  GraphModule converted = s.converted.clone();
  const Tensor got = converted.forward({ex})[0];
  REQUIRE(got.shape() == want.shape());
  int64_t differ = 0;
  float max_diff = 0;
  for (int64_t i = 0; i < got.numel(); ++i) {
    const float d = std::fabs(got.data<float>()[i] - want.data<float>()[i]);
    differ += d != 0.0f;
    max_diff = std::max(max_diff, d);
  }
  INFO("elements differing: " << differ << ", max |diff| " << max_diff);
  CHECK(differ == 0);
}
