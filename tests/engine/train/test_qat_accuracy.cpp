// test_qat_accuracy.cpp — the PTQ vs QAT experiment of M06 and the README: train TinyConvNet(num_classes=10)
// on the synthetic image set in float, quantize it after training (PTQ) and with quantization-aware training
// (QAT, the torchao flow end to end), and print the three test accuracies.
//
// Setting: XNNPACKQuantizer with get_symmetric_quantization_config(weight_qmin=-7, weight_qmax=7,
// act_qmin=-8, act_qmax=7): int8 tensors holding 4-bit values, per-tensor weights and activations. At full
// int8 range PTQ loses nothing on this set (printed too); at 4 bits it does, and QAT wins it back.
// Data: synthetic_images defaults (ten classes, noise 0.3), 2048 train samples, 1024 test samples.
// Float: SGD(lr 0.05, momentum 0.9), 150 steps of 32 shuffled samples, then 50 at lr 0.005.
// PTQ: prepare_pt2e, 256 train samples to calibrate, convert_pt2e. QAT: prepare_qat_pt2e from the trained
// float model, move_exported_model_to_train, SGD(lr 0.01, momentum 0.9) for 200 steps, batch norm frozen
// after 100 and observers disabled after 150 (the QAT tutorial's schedule, in steps), then 50 steps at lr 0.001
// (without that decay the final accuracy swings between about 95 and 99 % with the shuffling seed and with the
// last bits of the float math, which differ between the native and wasm builds; with it, seeds 1-4 gave
// 99.2-99.6 % natively), then move_exported_model_to_eval and convert_pt2e.
// Checked: float >= 90 %, 4-bit PTQ at least a point below float, QAT >= PTQ and within 2 points of float.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/qat_flow.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "train/data.h"
#include "train/optim.h"
#include "train/train_loop.h"

using namespace pt;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void train(GraphModule& gm, const TensorDataset& data, double lr, int64_t steps, uint64_t seed) {
  SGD opt(parameters(gm), {.lr = lr, .momentum = 0.9});
  TrainLoop(gm, opt, cross_entropy, DataLoader(data, {.batch_size = 32, .shuffle = true, .seed = seed})).run(steps);
}

XNNPACKQuantizer quantizer(bool four_bits, bool is_qat) {
  SymmetricQuantizationOptions o{.is_qat = is_qat};
  if (four_bits) o = {.is_qat = is_qat, .act_qmin = -8, .act_qmax = 7, .weight_qmin = -7, .weight_qmax = 7};
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config(o));
  return q;
}

double ptq_accuracy(const GraphModule& float_gm, bool four_bits, const std::vector<Batch>& calibration,
                    const std::vector<Batch>& test) {
  XNNPACKQuantizer q = quantizer(four_bits, false);
  GraphModule prepared = prepare_pt2e(float_gm, q);
  for (const Batch& b : calibration) prepared.forward({b.x});
  GraphModule converted = convert_pt2e(prepared);
  return evaluate_accuracy(converted, test);
}

}  // namespace

TEST_CASE("QAT recovers the test accuracy PTQ loses at 4 bits (TinyConvNet on the synthetic set)") {
  const auto t0 = std::chrono::steady_clock::now();
  const TensorDataset train_set = synthetic_images("train", 2048), test_set = synthetic_images("test", 1024);
  const std::vector<Batch> test = DataLoader(test_set, {.batch_size = 256}).epoch();
  std::vector<Batch> calibration = DataLoader(train_set, {.batch_size = 32}).epoch();
  calibration.resize(8);

  manual_seed(0);
  const Model model = get_model("tiny", {.num_classes = 10});
  GraphModule gm = export_module(model, example_inputs(model, 2));
  move_exported_model_to_train(gm);
  train(gm, train_set, 0.05, 150, 0);
  train(gm, train_set, 0.005, 50, 2);
  move_exported_model_to_eval(gm);
  const double float_acc = evaluate_accuracy(gm, test);
  const double t_float = seconds_since(t0);

  const double ptq_int8 = ptq_accuracy(gm, false, calibration, test);
  const double ptq = ptq_accuracy(gm, true, calibration, test);

  XNNPACKQuantizer q = quantizer(true, true);
  GraphModule prepared = prepare_qat_pt2e(gm, q);
  move_exported_model_to_train(prepared);
  SGD opt(parameters(prepared), {.lr = 0.01, .momentum = 0.9});
  TrainLoop loop(prepared, opt, cross_entropy, DataLoader(train_set, {.batch_size = 32, .shuffle = true, .seed = 1}));
  loop.run(100);
  CHECK(freeze_bn_stats(prepared) == 4);  // the four batch norms of the QAT conv-bn patterns
  loop.run(50);
  apply(prepared, disable_observer);
  loop.run(50);
  train(prepared, train_set, 0.001, 50, 11);  // the learning rate decayed: the end point no longer jumps about
  move_exported_model_to_eval(prepared);
  GraphModule converted = convert_pt2e(prepared);
  const double qat = evaluate_accuracy(converted, test);

  std::printf("M06 experiment (test accuracy, 1024 samples): float %.2f %% | int8 PTQ %.2f %% | 4-bit PTQ %.2f %% | "
              "4-bit QAT %.2f %%  (float training %.1f s, all %.1f s)\n",
              float_acc, ptq_int8, ptq, qat, t_float, seconds_since(t0));
  CHECK(float_acc >= 90.0);
  CHECK(ptq <= float_acc - 1.0);  // quantization costs PTQ accuracy at 4 bits
  CHECK(qat >= ptq);
  CHECK(qat >= float_acc - 2.0);
}
