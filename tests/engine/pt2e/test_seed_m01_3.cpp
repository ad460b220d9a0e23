// test_seed_m01_3.cpp — seed M01-3 (QuantizationConfig switches on `tiny`) reproduced with the engine:
// manual_seed(0); model = get_model("tiny"); ex = example_inputs(8); per config: export, prepare,
// calibrate on calibration_batches(n=256, batch_size=32), convert; observers, q/dq nodes, SQNR.
// Expected values are the seed's printed table (docs/status.md, the seed pages). The full-PTQ and QAT
// SQNRs (20.6 / 17.4 dB) depend on the seed's calibration data, which the seeds do not show
// (docs/status.md), so their values are not compared; the seed's inequality on them (weight-only > full
// + 20 dB) is. The weight-only (48.7 / 46.1) and dynamic (50.3) SQNRs do not depend on that data and are
// compared to 0.1 dB. Like the seed's run_one, every config goes through prepare_pt2e, is_qat included.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/report.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "quant/quantize.h"

using namespace pt;

namespace {

struct Tiny {
  Model model;
  std::vector<Tensor> ex;
};

const Tiny& tiny() {
  static const Tiny t = [] {
    manual_seed(0);
    Model m = get_model("tiny");
    std::vector<Tensor> ex = example_inputs(8);
    return Tiny{std::move(m), std::move(ex)};
  }();
  return t;
}

Tensor float_output(const Model& model, const std::vector<Tensor>& ex) {
  GraphModule gm = export_module(model, ex);
  return gm.forward(ex)[0];
}

struct RunResult {
  size_t n_obs = 0;
  std::set<std::string> obs_types;
  size_t n_qdq = 0;
  float sqnr_db = 0;
  GraphModule converted;
};

RunResult run_one(const SymmetricQuantizationOptions& cfg) {
  const Tiny& t = tiny();
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config(cfg));
  GraphModule gm = export_module(t.model, t.ex);
  GraphModule prepared = prepare_pt2e(gm, q);  // the seed's run_one: prepare_pt2e for every config, is_qat too
  RunResult r;
  for (const Node* n : observer_nodes(prepared)) r.obs_types.insert(prepared.get_module(n->target)->type_name());
  r.n_obs = observer_nodes(prepared).size();
  for (const Batch& b : calibration_batches(256, 32)) prepared.forward({b.x});
  r.converted = convert_pt2e(prepared);
  r.n_qdq = qdq_nodes(r.converted).size();
  r.sqnr_db = sqnr(float_output(t.model, t.ex), r.converted.forward(t.ex)[0]);
  return r;
}

// The seed's fake_quant_weight: symmetric int8, scale = absmax / 127 (per output channel or whole
// tensor), (w / scale).round().clamp(-127, 127) * scale, all float32.
Tensor fake_quant_weight(const Tensor& w, bool per_channel) {
  Tensor out = w.clone();
  const int64_t channels = per_channel ? w.size(0) : 1;
  const int64_t inner = w.numel() / channels;
  const float* src = w.data<float>();
  float* dst = out.data<float>();
  for (int64_t c = 0; c < channels; ++c) {
    float absmax = 0;
    for (int64_t i = 0; i < inner; ++i) absmax = std::max(absmax, std::fabs(src[c * inner + i]));
    const float scale = absmax / 127.0f;
    for (int64_t i = 0; i < inner; ++i) {
      const float q = std::clamp(std::nearbyint(src[c * inner + i] / scale), -127.0f, 127.0f);
      dst[c * inner + i] = q * scale;
    }
  }
  return out;
}

float weight_only_sqnr(bool per_channel) {
  const Tiny& t = tiny();
  Model m = get_model("tiny");  // same structure; the state is replaced below
  std::vector<NamedTensor> state = t.model.state_dict();
  for (NamedTensor& nt : state) {
    const std::string layer = nt.name.substr(0, nt.name.find('.'));
    const std::string& type = t.model.layer(layer).type;
    const bool conv_or_linear = type.find("Conv2d") != std::string::npos || type.find("Linear") != std::string::npos;
    if (conv_or_linear && nt.name.ends_with(".weight")) nt.value = fake_quant_weight(nt.value, per_channel);
  }
  m.load_state_dict(state);
  return sqnr(float_output(t.model, t.ex), float_output(m, t.ex));
}

std::string fmt1(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

TEST_CASE("M01-3 per-tensor weight", "[seed][m01_3]") {
  const RunResult r = run_one({.is_per_channel = false});
  CHECK(r.n_obs == 16);
  CHECK(r.obs_types == std::set<std::string>{"HistogramObserver", "MinMaxObserver"});
  CHECK(r.n_qdq == 28);
}

TEST_CASE("M01-3 per-channel weight", "[seed][m01_3]") {
  const RunResult r = run_one({.is_per_channel = true});
  CHECK(r.n_obs == 16);
  CHECK(r.obs_types == std::set<std::string>{"HistogramObserver", "PerChannelMinMaxObserver"});
  CHECK(r.n_qdq == 28);
}

TEST_CASE("M01-3 per-channel + is_qat: observer count, type and q/dq count", "[seed][m01_3]") {
  const Tiny& t = tiny();
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true, .is_qat = true}));
  GraphModule prepared = prepare_pt2e(export_module(t.model, t.ex), q);  // as the seed's run_one
  std::set<std::string> types;
  for (const Node* n : observer_nodes(prepared)) types.insert(prepared.get_module(n->target)->type_name());
  CHECK(observer_nodes(prepared).size() == 16);
  CHECK(types == std::set<std::string>{"FusedMovingAvgObsFakeQuantize"});
  // Calibrate and convert: 28 q/dq as in the seed (prepare_pt2e folds the batch norms, as for PTQ).
  for (const Batch& b : calibration_batches(256, 32)) prepared.forward({b.x});
  GraphModule converted = convert_pt2e(prepared);
  CHECK(qdq_nodes(converted).size() == 28);
  CHECK(converted.forward(t.ex)[0].shape() == Shape{8, 4});
}

TEST_CASE("M01-3 per-channel + is_dynamic: only linear is quantized", "[seed][m01_3]") {
  const Tiny& t = tiny();
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true, .is_dynamic = true}));
  GraphModule annotated = export_module(t.model, t.ex);
  q.annotate(annotated);
  std::vector<std::string> marked;
  for (const Node* n : annotated.graph.nodes())
    if (n->meta.quantization_annotation) marked.push_back(n->name);
  CHECK(marked == std::vector<std::string>{"fc_weight", "fc_bias", "linear"});

  const RunResult r = run_one({.is_per_channel = true, .is_dynamic = true});
  CHECK(r.n_obs == 2);
  CHECK(r.obs_types == std::set<std::string>{"PerChannelMinMaxObserver", "PlaceholderObserver"});
  CHECK(r.n_qdq == 3);
  CHECK(fmt1(r.sqnr_db) == "50.3");
  std::string chain;
  for (const Node* n : r.converted.graph.nodes())
    if (n->op == OpKind::call_function) chain += (chain.empty() ? "" : " → ") + short_target(n->target);
  CHECK(chain ==
        "dequantize_per_channel → conv2d → relu → max_pool2d → conv2d → relu → conv2d → add → relu → max_pool2d → "
        "conv2d → relu → adaptive_avg_pool2d → flatten → choose_qparams → getitem → getitem → quantize_per_tensor → "
        "dequantize_per_tensor → linear");
  for (const Node* n : r.converted.graph.nodes())
    if (short_target(n->target) == "conv2d")
      for (const Node* in : n->all_input_nodes()) CHECK(in->target.find("quantize") == std::string::npos);
}

TEST_CASE("M01-3 B: weight-only SQNR, per-tensor ~ per-channel", "[seed][m01_3]") {
  CHECK(fmt1(weight_only_sqnr(false)) == "48.7");
  CHECK(fmt1(weight_only_sqnr(true)) == "46.1");
  const RunResult pt = run_one({.is_per_channel = false}), pc = run_one({.is_per_channel = true});
  CHECK(std::fabs(pt.sqnr_db - pc.sqnr_db) < 0.5f);
}

// The seed's assert: weight-only SQNR > full SQNR + 20 dB for both granularities (activation error
// dominates). The seed's full-PTQ value (20.6 dB) comes from calibration data it does not show; with the
// engine's calibration_batches (pixel-space images, Normalize'd; graph/models.h) as calibration data and
// the seed's randn example inputs for evaluation, full PTQ measures 19.9 / 19.5 dB (is_qat 19.9; seed 17.4).
TEST_CASE("M01-3 B: weight-only SQNR is more than 20 dB above full-PTQ SQNR for both granularities", "[seed][m01_3]") {
  const RunResult pt = run_one({.is_per_channel = false}), pc = run_one({.is_per_channel = true});
  const RunResult qat = run_one({.is_per_channel = true, .is_qat = true});
  const RunResult dyn = run_one({.is_per_channel = true, .is_dynamic = true});
  const float wo_pt = weight_only_sqnr(false), wo_pc = weight_only_sqnr(true);
  INFO("SQNR dB: per-tensor " << pt.sqnr_db << ", per-channel " << pc.sqnr_db << ", is_qat " << qat.sqnr_db
                              << ", dynamic " << dyn.sqnr_db << "; weight-only " << wo_pt << " / " << wo_pc);
  CHECK(wo_pt > pt.sqnr_db + 20);
  CHECK(wo_pc > pc.sqnr_db + 20);
}
