// bench_train.cpp — a wasm module for bench/train/run.js: C exports around the four workloads of the
// training bench, so that JavaScript drives every timed call (V8 optimises a wasm function only on its
// next call; a loop inside one call would stay in the baseline tier).
//
//   const M = await createBench({ wasmBinary });     // built by bench/CMakeLists.txt
//   M._bench_setup();            // models, optimizers, data (once)
//   M._bench_float_step();       // tiny, batch 32: zero_grad, forward (BN training), cross_entropy, backward, SGD
//   M._bench_qat_step();         // the same on prepare_qat_pt2e(tiny) (fake quant, observers updating)
//   M._bench_ptq();              // export -> prepare_pt2e -> 8 batches of 32 -> convert_pt2e -> SQNR
//   M._bench_conv();             // conv2d 3x3, 32 -> 32 channels, 32x32, padding 1, batch 1, no bias:
//                                // a float* to its output [1, 32, 32, 32]
//   M._bench_forward();          // tiny float forward, batch 32 (eval), for the profile
//   M._bench_last_loss() / M._bench_last_sqnr()
//   M._bench_step_data()         // float* to the step's batch [32, 3, 16, 16] (labels: _bench_step_labels)
//
// The training steps use SGD(lr 0.05, momentum 0.9), the setting bench/train/torch_train.py times in
// torch; the PTQ pipeline is seed M01-3's run with XNNPACKQuantizer's per-tensor symmetric config
// (tests/engine/pt2e/test_seed_m01_3.cpp): the calibration images are drawn once in setup, not timed.
#include <emscripten/emscripten.h>

#include <memory>
#include <vector>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "ops/ops.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "quant/quantize.h"
#include "train/loss.h"
#include "train/optim.h"
#include "train/train_loop.h"

namespace {

struct State {
  pt::Model tiny;
  std::vector<pt::Tensor> ex;            // example_inputs(8): the PTQ pipeline's export and SQNR input
  pt::Tensor float_ref;                  // the float model's output on ex
  std::vector<pt::Batch> calibration;    // 256 images, batches of 32
  pt::Batch step;                        // the training steps' batch
  pt::GraphModule float_gm, qat_gm, eval_gm;
  std::unique_ptr<pt::SGD> float_opt, qat_opt;
  pt::Tensor conv_x, conv_w, conv_y;
  float loss = 0, sqnr = 0;
};
std::unique_ptr<State> g;

pt::QuantizationConfig ptq_config() { return pt::get_symmetric_quantization_config({}); }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void bench_setup() {
  g = std::make_unique<State>();
  pt::manual_seed(0);
  g->tiny = pt::get_model("tiny");
  g->ex = pt::example_inputs(8);
  g->calibration = pt::calibration_batches(256, 32);
  g->step = g->calibration[0];
  g->float_ref = pt::export_module(g->tiny, g->ex).forward(g->ex)[0];

  g->float_gm = pt::export_module(g->tiny, {g->step.x});
  g->eval_gm = pt::export_module(g->tiny, {g->step.x});
  pt::move_exported_model_to_train(g->float_gm);
  g->float_opt = std::make_unique<pt::SGD>(pt::parameters(g->float_gm), pt::SGDOptions{.lr = 0.05, .momentum = 0.9});

  pt::XNNPACKQuantizer q;
  q.set_global(pt::get_symmetric_quantization_config({.is_qat = true}));
  g->qat_gm = pt::prepare_qat_pt2e(pt::export_module(g->tiny, {g->step.x}), q);
  pt::move_exported_model_to_train(g->qat_gm);
  g->qat_opt = std::make_unique<pt::SGD>(pt::parameters(g->qat_gm), pt::SGDOptions{.lr = 0.05, .momentum = 0.9});

  pt::manual_seed(1);
  g->conv_x = pt::randn({1, 32, 32, 32});
  g->conv_w = pt::randn({32, 32, 3, 3});
}

EMSCRIPTEN_KEEPALIVE void bench_float_step() {
  g->loss = pt::train_step(g->float_gm, *g->float_opt, pt::cross_entropy, g->step.x, g->step.labels);
}

EMSCRIPTEN_KEEPALIVE void bench_qat_step() {
  g->loss = pt::train_step(g->qat_gm, *g->qat_opt, pt::cross_entropy, g->step.x, g->step.labels);
}

EMSCRIPTEN_KEEPALIVE void bench_ptq() {
  pt::XNNPACKQuantizer q;
  q.set_global(ptq_config());
  pt::GraphModule prepared = pt::prepare_pt2e(pt::export_module(g->tiny, g->ex), q);
  for (const pt::Batch& b : g->calibration) prepared.forward({b.x});
  pt::GraphModule converted = pt::convert_pt2e(prepared);
  g->sqnr = pt::sqnr(g->float_ref, converted.forward(g->ex)[0]);
}

EMSCRIPTEN_KEEPALIVE float* bench_conv() {
  g->conv_y = pt::ops::conv2d(g->conv_x, g->conv_w, std::nullopt, {1}, {1});
  return g->conv_y.data<float>();
}

EMSCRIPTEN_KEEPALIVE void bench_forward() { g->eval_gm.forward({g->step.x}); }

EMSCRIPTEN_KEEPALIVE float bench_last_loss() { return g->loss; }
EMSCRIPTEN_KEEPALIVE float bench_last_sqnr() { return g->sqnr; }
EMSCRIPTEN_KEEPALIVE float* bench_step_data() { return g->step.x.data<float>(); }
EMSCRIPTEN_KEEPALIVE int32_t* bench_step_labels() { return g->step.labels.data<int32_t>(); }
EMSCRIPTEN_KEEPALIVE float* bench_conv_input() { return g->conv_x.data<float>(); }
EMSCRIPTEN_KEEPALIVE float* bench_conv_weight() { return g->conv_w.data<float>(); }

}  // extern "C"
