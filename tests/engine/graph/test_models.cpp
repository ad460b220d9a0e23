// test_models.cpp — the model zoo against torch 1.13 (tests/golden/models/<name>.*):
// init order, float outputs, BN folding, the residual block's exported graph, data helpers.
// Output tolerance: max |engine - torch| <= 1e-5 * max |torch| per model output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/report.h"
#include "ops/golden.h"

using namespace pt;
using golden::bit_equal;
using golden::max_rel_diff;

namespace {
std::vector<NamedTensor> golden_state(const golden::Golden& g, const std::string& prefix) {
  std::vector<NamedTensor> out;
  for (auto& [name, t] : g.with_prefix(prefix)) out.push_back({name, t, false});
  return out;
}
}  // namespace

TEST_CASE("get_model after manual_seed(0) draws torch's parameters in torch's order", "[models]") {
  for (const std::string& name : model_names()) {
    INFO("model " << name);
    golden::Golden g(name);
    manual_seed(0);
    Model m = get_model(name);
    auto want = g.with_prefix("init.");
    auto have = m.state_dict();
    REQUIRE(have.size() == want.size());
    for (size_t i = 0; i < have.size(); ++i) {
      INFO("tensor " << want[i].first);
      CHECK(have[i].name == want[i].first);
      CHECK(bit_equal(have[i].value, want[i].second));
    }
    // The seeds draw example inputs right after building the model.
    CHECK(bit_equal(example_inputs(m, g.json_int("batch"))[0], g.tensor("example")));
  }
}

TEST_CASE("every zoo model matches torch, float graph and after BN folding", "[models][fold]") {
  for (const std::string& name : model_names()) {
    INFO("model " << name);
    golden::Golden g(name);
    Model m = get_model(name);
    m.load_state_dict(golden_state(g, "state."));  // BN layers carry non-trivial statistics
    const Tensor x = g.tensor("example");
    GraphModule gm = export_module(m, {x});
    gm.graph.lint();
    const Tensor want = g.tensor("out");
    CHECK(max_rel_diff(gm.forward({x})[0], want) <= 1e-5);

    const auto folds = g.json_strings("folds");
    CHECK(fold_bn(gm) == static_cast<int>(folds.size()));
    gm.graph.lint();
    CHECK(count_ops(gm).count("batch_norm") == 0);
    for (const std::string& conv : folds) {
      INFO("folded " << conv);
      // Same float32 formula as torch.nn.utils.fusion: bit-identical parameters.
      CHECK(bit_equal(gm.get_tensor(conv + ".weight"), g.tensor("fold." + conv + ".weight")));
      const std::string bias = gm.has_tensor(conv + ".bias") ? conv + ".bias" : conv + ".weight_bias";
      CHECK(bit_equal(gm.get_tensor(bias), g.tensor("fold." + conv + ".bias")));
    }
    const Tensor folded = gm.forward({x})[0];
    CHECK(max_rel_diff(folded, g.tensor("out_folded")) <= 1e-5);
    CHECK(max_rel_diff(folded, want) <= 1e-5);
  }
}

TEST_CASE("residual block exports with torch.export's node names and ops", "[models][export]") {
  manual_seed(0);
  Model m = get_model("residual", {.ch = 8});
  GraphModule gm = export_module(m, {randn({4, 8, 16, 16})});
  std::vector<std::string> names;
  for (Node* n : gm.graph.nodes()) names.push_back(n->name);
  CHECK(names == std::vector<std::string>{"conv1_weight", "bn1_weight", "bn1_bias", "conv2_weight",
                                          "bn2_weight", "bn2_bias", "bn1_running_mean", "bn1_running_var",
                                          "bn2_running_mean", "bn2_running_var", "x", "conv2d", "batch_norm", "relu",
                                          "conv2d_1", "batch_norm_1", "add", "relu_1", "output"});
  auto counts = count_ops(gm);
  CHECK(counts == std::map<std::string, int64_t>{{"batch_norm", 2}, {"conv2d", 2}, {"relu", 2}, {"add", 1}});
  Node* x = gm.graph.find("x");
  REQUIRE(x->users().size() == 2);
  CHECK(x->users()[0]->name == "conv2d");
  CHECK(x->users()[1]->name == "add");
  Node* conv = gm.graph.find("conv2d");
  CHECK(conv->target == "aten.conv2d.default");
  CHECK(gm.graph.find("conv1_weight")->target == "conv1.weight");
  CHECK(gm.graph.find("batch_norm")->target == "aten.batch_norm.default");
  REQUIRE(conv->meta.val);
  CHECK(conv->meta.val->shape == Shape{4, 8, 16, 16});
  CHECK(conv->meta.val->dtype == DType::Float32);
  REQUIRE(conv->meta.nn_module_stack.size() == 1);
  CHECK(conv->meta.nn_module_stack[0].fqn == "conv1");
  CHECK(conv->meta.nn_module_stack[0].type == "torch.nn.modules.conv.Conv2d");
  CHECK(gm.graph.find("add")->meta.nn_module_stack.empty());
  // Each relu is an nn.ReLU module of its own (relu1, relu2), as torch's non-strict export records it.
  for (auto [node, fqn] : {std::pair{"relu", "relu1"}, std::pair{"relu_1", "relu2"}}) {
    const std::vector<ModuleFrame>& frames = gm.graph.find(node)->meta.nn_module_stack;
    REQUIRE(frames.size() == 1);
    CHECK(frames[0].fqn == fqn);
    CHECK(frames[0].type == "torch.nn.modules.activation.ReLU");
  }

  // Folding: the seed's export -> prepare diff without the observer rows.
  GraphModule folded = gm.clone();
  CHECK(fold_bn(folded) == 2);
  auto rows = diff_ops(gm, folded);
  REQUIRE(rows.size() == 4);
  CHECK((rows[0].op == "batch_norm" && rows[0].a == 2 && rows[0].b == 0 && rows[0].delta == -2));
  CHECK(rows[1].op == "add");
  CHECK(rows[2].op == "conv2d");
  CHECK(rows[3].op == "relu");
  CHECK(count_ops(gm).at("batch_norm") == 2);  // the clone left the original alone
  REQUIRE(folded.graph.find("conv2d")->users().size() == 1);
  CHECK(folded.graph.find("conv2d")->users()[0]->name == "relu");
  CHECK(folded.graph.find("bn1_running_mean") == nullptr);  // dead get_attrs removed
}

TEST_CASE("residual init + BN fold gives the seed's per-channel weight scales", "[models][fold]") {
  golden::Golden g("residual");
  manual_seed(0);
  Model m = get_model("residual");
  GraphModule gm = export_module(m, example_inputs(m, 4));
  fold_bn(gm);
  for (const char* conv : {"conv1", "conv2"}) {
    const Tensor& w = gm.get_tensor(std::string(conv) + ".weight");
    CHECK(bit_equal(w, g.tensor(std::string("init_fold.") + conv + ".weight")));
  }
  auto absmax_over_127 = [&](const char* target) {
    const Tensor& w = gm.get_tensor(target);
    float m0 = 0;
    for (int64_t i = 0; i < w.numel() / w.size(0); ++i) m0 = std::max(m0, std::abs(w.data<float>()[i]));
    return m0 / 127.f;
  };
  CHECK(absmax_over_127("conv1.weight") == Approx(0.0009225).margin(5e-8));  // seed M01-2: 0.0009225
  CHECK(absmax_over_127("conv2.weight") == Approx(0.0009054).margin(5e-8));  // seed M01-2: 0.0009054
}

TEST_CASE("tiny exports the seed's op sequence and cat_pool names its parameters after modules", "[models][export]") {
  manual_seed(0);
  Model tiny = get_model("tiny");
  GraphModule gm = export_module(tiny, example_inputs(8));
  fold_bn(gm);
  std::string seq;
  for (Node* n : gm.graph.nodes())
    if (n->op == OpKind::call_function) seq += (seq.empty() ? "" : " -> ") + short_target(n->target);
  // seed M01-3's dynamic graph without its q/dq nodes
  CHECK(seq ==
        "conv2d -> relu -> max_pool2d -> conv2d -> relu -> conv2d -> add -> relu -> max_pool2d -> conv2d -> relu -> "
        "adaptive_avg_pool2d -> flatten -> linear");
  CHECK(gm.graph.find("conv1_weight_bias")->target == "conv1.weight_bias");  // bias-less conv got a bias
  CHECK(gm.graph.find("linear")->meta.val->shape == Shape{8, 4});

  GraphModule cp = export_module(get_model("cat_pool"), example_inputs(4));
  for (const char* n : {"a_weight", "a_bias", "b_weight", "b_bias", "out_weight", "out_bias", "conv2d", "relu",
                        "conv2d_1", "relu_1", "cat", "max_pool2d", "conv2d_2", "mean", "add"})
    CHECK(cp.graph.find(n) != nullptr);
  CHECK(cp.graph.find("a_weight")->target == "a.weight");
  CHECK(cp.graph.find("add")->args()[1].node()->name == "mean");
}

TEST_CASE("model options and bad names raise typed errors", "[models][errors]") {
  CHECK(get_model("residual", {.ch = 4}).input_shape == Shape{4, 16, 16});
  CHECK_THROWS_AS(get_model("resnet50"), ValueError);
  CHECK_THROWS_WITH(get_model("resnet50"), Catch::Contains("resnet50"));
  CHECK_THROWS_AS(get_model("tiny", {.ch = 4}), ValueError);
  CHECK_THROWS_AS(get_model("residual", {.ch = 0}), ValueError);
  Model m = get_model("stem");
  CHECK_THROWS_AS(export_module(m, {}), ValueError);
  // Wrong input shape: the shape propagation run names the node.
  CHECK_THROWS_AS(export_module(m, {Tensor::zeros({1, 4, 16, 16})}), RuntimeError);
  CHECK_THROWS_WITH(export_module(m, {Tensor::zeros({1, 4, 16, 16})}), Catch::StartsWith("node conv2d "));
  auto bad = m.state_dict();
  bad[0].value = Tensor::zeros({1});
  Tensor before = m.state_dict()[0].value.clone();
  CHECK_THROWS_AS(m.load_state_dict(bad), ValueError);
  CHECK(bit_equal(m.state_dict()[0].value, before));  // nothing changed
  bad[0].value = before;
  bad.pop_back();
  CHECK_THROWS_WITH(m.load_state_dict(bad), Catch::Contains("missing key"));
}

TEST_CASE("calibration_batches is a deterministic 4-class set that leaves the default generator alone", "[data]") {
  manual_seed(0);
  Tensor a = randn({5});
  manual_seed(0);
  auto batches = calibration_batches(10, 4);
  Tensor b = randn({5});
  CHECK(bit_equal(a, b));
  REQUIRE(batches.size() == 3);
  CHECK(batches[0].x.shape() == Shape{4, 3, 16, 16});
  CHECK(batches[2].x.shape() == Shape{2, 3, 16, 16});
  CHECK(batches[2].labels.data<int32_t>()[0] == 0);  // sample 8
  CHECK(batches[2].labels.data<int32_t>()[1] == 1);  // sample 9
  auto again = calibration_batches(10, 4);
  CHECK(bit_equal(again[1].x, batches[1].x));
  // A longer set with another batch size starts with the same samples: sample i does not depend on n.
  auto longer = calibration_batches(15, 5);
  const int64_t img = 3 * 16 * 16;
  for (int64_t i = 0; i < 10; ++i) {
    const float* p = batches[i / 4].x.data<float>() + (i % 4) * img;
    const float* q = longer[i / 5].x.data<float>() + (i % 5) * img;
    CHECK(std::equal(p, p + img, q));
    CHECK(longer[i / 5].labels.data<int32_t>()[i % 5] == i % 4);
  }

  CHECK_THROWS_AS(calibration_batches(0, 4), ValueError);
  CHECK_THROWS_AS(calibration_batches(4, 0), ValueError);
  CHECK_THROWS_AS(calibration_batches(4, 4, {3, 16}), ValueError);
  CHECK_THROWS_AS(calibration_batches(4, 4, {0, 16, 16}), ValueError);
}

TEST_CASE("calibration_batches: normalized per channel, image-like, and its four classes are separable", "[data]") {
  const int64_t n = 1024, C = 3, H = 16, W = 16, HW = H * W;
  std::vector<const float*> images;
  std::vector<int32_t> labels;
  const auto batches = calibration_batches(n, 64);
  for (const Batch& b : batches)
    for (int64_t j = 0; j < b.x.size(0); ++j) {
      images.push_back(b.x.data<float>() + j * C * HW);
      labels.push_back(b.labels.data<int32_t>()[j]);
    }
  REQUIRE(images.size() == static_cast<size_t>(n));

  // Per channel: mean ~ 0 and std ~ 1 (Normalize with the set's own statistics), also on a prefix;
  // the values span a bounded interval of width 1 / std_pixel (pixel intensities are in [0, 1]), and
  // the pixel clamp at 0 and 1 shows as many samples sitting exactly on the interval's ends.
  for (int64_t c = 0; c < C; ++c) {
    INFO("channel " << c);
    for (int64_t count : {n, int64_t{256}}) {
      double s = 0, sq = 0;
      for (int64_t i = 0; i < count; ++i)
        for (int64_t p = 0; p < HW; ++p) {
          const double v = images[i][c * HW + p];
          s += v;
          sq += v * v;
        }
      const double m = s / (count * HW), sd = std::sqrt(sq / (count * HW) - m * m);
      INFO("samples " << count << " mean " << m << " std " << sd);
      CHECK(std::fabs(m) < (count == n ? 1e-3 : 0.1));
      CHECK(std::fabs(sd - 1) < (count == n ? 1e-3 : 0.1));
    }
    float lo = 1e9f, hi = -1e9f;
    for (const float* x : images)
      for (int64_t p = 0; p < HW; ++p) lo = std::min(lo, x[c * HW + p]), hi = std::max(hi, x[c * HW + p]);
    int64_t at_lo = 0, at_hi = 0;
    for (const float* x : images)
      for (int64_t p = 0; p < HW; ++p) at_lo += x[c * HW + p] == lo, at_hi += x[c * HW + p] == hi;
    INFO("range [" << lo << ", " << hi << "], " << at_lo << " / " << at_hi << " values on the ends");
    CHECK(lo < -0.5f);
    CHECK(hi > 0.5f);
    CHECK(hi - lo < 6.0f);  // randn over 786k values spans ~9.5
    CHECK(at_lo > 100);
    CHECK(at_hi > 100);
  }

  // Image-like: neighbouring pixels are correlated (i.i.d. randn would give ~0).
  double num = 0, den = 0;
  for (const float* x : images)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w + 1 < W; ++w) {
          const float u = x[c * HW + h * W + w], v = x[c * HW + h * W + w + 1];
          num += u * v;
          den += 0.5 * (u * u + v * v);
        }
  INFO("neighbour correlation " << num / den);
  CHECK(num / den > 0.3);

  // Separable: nearest class mean on three translation-invariant features (mean |vertical step|,
  // mean |horizontal step|, larger / smaller of the two kept apart, and the image's std), fitted on
  // the first half and scored on the second half; chance is 25 %.
  auto features = [&](const float* x) {
    double dv = 0, dh = 0, s = 0, sq = 0;
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          const float v = x[c * HW + h * W + w];
          s += v;
          sq += v * v;
          if (h + 1 < H) dv += std::fabs(x[c * HW + (h + 1) * W + w] - v);
          if (w + 1 < W) dh += std::fabs(x[c * HW + h * W + w + 1] - v);
        }
    dv /= C * (H - 1) * W;
    dh /= C * H * (W - 1);
    const double m = s / (C * HW);
    return std::array<double, 3>{std::max(dv, dh), std::min(dv, dh), std::sqrt(sq / (C * HW) - m * m)};
  };
  std::array<std::array<double, 3>, 4> centre{};
  std::array<int, 4> count{};
  for (int64_t i = 0; i < n / 2; ++i) {
    const auto f = features(images[i]);
    for (int k = 0; k < 3; ++k) centre[labels[i]][k] += f[k];
    ++count[labels[i]];
  }
  for (int l = 0; l < 4; ++l)
    for (int k = 0; k < 3; ++k) centre[l][k] /= count[l];
  int correct = 0;
  for (int64_t i = n / 2; i < n; ++i) {
    const auto f = features(images[i]);
    int best = 0;
    double best_d = 1e300;
    for (int l = 0; l < 4; ++l) {
      double d = 0;
      for (int k = 0; k < 3; ++k) d += (f[k] - centre[l][k]) * (f[k] - centre[l][k]);
      if (d < best_d) best_d = d, best = l;
    }
    correct += best == labels[i];
  }
  const double accuracy = static_cast<double>(correct) / (n / 2);
  INFO("nearest-class-mean accuracy on held-out samples " << accuracy);
  CHECK(accuracy > 0.8);
}
