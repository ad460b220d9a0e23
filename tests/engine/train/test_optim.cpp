// test_optim.cpp — SGD and Adam against torch 1.13's single-tensor optimizers (gen_grad.py "optim": one
// parameter, three fixed gradients, eight configurations), and three training steps of TinyConvNet with
// SGD-momentum and with Adam (gen_grad.py "tiny_sgd" / "tiny_adam"): loss before each update, every
// parameter and BatchNorm running statistic after it, within 1e-4 · max |torch|. The loop is train_step,
// so the same test covers the step order zero_grad -> forward -> loss -> backward -> step.
#include "grad_case.h"

#include <optional>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "train/optim.h"
#include "train/train_loop.h"

using namespace pt;

namespace {

// Three steps of one configuration; with `after_first`, set_options(*after_first) after step 1 (torch's
// param_groups[0].update(...) between steps).
template <class Opt, class Options>
void check_config(const golden::Golden& g, const std::string& name, const Options& o,
                  const std::optional<Options>& after_first = std::nullopt) {
  GraphModule gm;
  gm.set_tensor("p", g.tensor("p").clone());
  Opt opt(parameters(gm), o);
  for (int k = 1; k <= 3; ++k) {
    gm.grads["p"] = g.tensor("g" + std::to_string(k));
    opt.step();
    if (k == 1 && after_first) opt.set_options(*after_first);
    gradtest::check_close(name + ".p" + std::to_string(k), gm.get_tensor("p"), g.tensor(name + ".p" + std::to_string(k)));
  }
}

GraphModule tiny_for_training(const golden::Golden& g) {
  manual_seed(0);
  Model m = get_model("tiny");
  GraphModule gm = export_module(m, {g.tensor("x1")});
  move_exported_model_to_train(gm);
  return gm;
}

void check_tiny_steps(const std::string& which, Optimizer& opt, GraphModule& gm, const golden::Golden& g) {
  std::vector<Batch> batches;
  for (int k = 1; k <= 3; ++k) batches.push_back({g.tensor("x" + std::to_string(k)), gradtest::labels(g, "labels" + std::to_string(k))});
  TrainLoop loop(gm, opt, cross_entropy, batches);
  for (int k = 1; k <= 3; ++k) {
    const std::string step = "step" + std::to_string(k) + ".";
    const std::vector<float> loss = loop.run(1);
    gradtest::check_close(which + ".loss" + std::to_string(k), Tensor::scalar(loss[0]), g.tensor("loss" + std::to_string(k)));
    for (const auto& [name, torch_value] : g.with_prefix(step))
      gradtest::check_close(which + "." + step + name, gm.get_tensor(name), torch_value);
  }
  CHECK(loop.epoch() == 1);
  CHECK(loop.position() == 0);
}

}  // namespace

TEST_CASE("hyper-parameters changed between steps (torch's param_groups[0].update) keep the buffers and moments") {
  const golden::Golden g = gradtest::load("optim");
  check_config<SGD>(g, "sgd_schedule", SGDOptions{.lr = 0.1, .momentum = 0.9}, std::make_optional(SGDOptions{.lr = 0.02, .momentum = 0.5}));
  check_config<Adam>(g, "adam_schedule", AdamOptions{.lr = 0.1}, std::make_optional(AdamOptions{.lr = 0.03, .beta1 = 0.5, .beta2 = 0.9}));
  // a value the constructor refuses is refused here too, and the old ones stay
  GraphModule gm;
  gm.set_tensor("p", g.tensor("p").clone());
  SGD opt(parameters(gm), {.lr = 0.1, .momentum = 0.9});
  CHECK_THROWS_WITH(opt.set_options({.lr = -1}), "Invalid learning rate: -1");
  CHECK_THROWS_AS(opt.set_options({.lr = 0.1, .nesterov = true}), ValueError);
  CHECK(opt.options().lr == 0.1);
  CHECK(opt.options().momentum == 0.9);
}

TEST_CASE("SGD (momentum, dampening, nesterov, weight decay, maximize) and Adam (weight decay, amsgrad, maximize) steps") {
  const golden::Golden g = gradtest::load("optim");
  std::printf("optimizers on one parameter\n");
  check_config<SGD>(g, "sgd_plain", SGDOptions{.lr = 0.1});
  check_config<SGD>(g, "sgd_momentum", SGDOptions{.lr = 0.1, .momentum = 0.9, .dampening = 0.2, .weight_decay = 0.05});
  check_config<SGD>(g, "sgd_nesterov", SGDOptions{.lr = 0.1, .momentum = 0.8, .nesterov = true});
  check_config<SGD>(g, "sgd_maximize", SGDOptions{.lr = 0.1, .momentum = 0.5, .weight_decay = 0.1, .maximize = true});
  check_config<Adam>(g, "adam", AdamOptions{.lr = 0.1});
  check_config<Adam>(g, "adam_wd", AdamOptions{.lr = 0.05, .beta1 = 0.8, .beta2 = 0.9, .eps = 1e-3, .weight_decay = 0.1});
  check_config<Adam>(g, "adam_amsgrad", AdamOptions{.lr = 0.1, .amsgrad = true});
  check_config<Adam>(g, "adam_maximize", AdamOptions{.lr = 0.1, .maximize = true});
}

TEST_CASE("three SGD-momentum steps on tiny match torch's losses, parameters and BN running statistics") {
  const golden::Golden g = gradtest::load("tiny_sgd");
  GraphModule gm = tiny_for_training(g);
  SGD opt(parameters(gm), {.lr = 0.05, .momentum = 0.9, .dampening = 0.1, .weight_decay = 1e-3});
  std::printf("tiny, SGD\n");
  check_tiny_steps("sgd", opt, gm, g);
}

TEST_CASE("three Adam steps on tiny match torch's losses, parameters and BN running statistics") {
  const golden::Golden g = gradtest::load("tiny_adam");
  GraphModule gm = tiny_for_training(g);
  Adam opt(parameters(gm), {.lr = 0.01, .beta1 = 0.9, .beta2 = 0.99, .eps = 1e-6, .weight_decay = 1e-3});
  std::printf("tiny, Adam\n");
  check_tiny_steps("adam", opt, gm, g);
}

TEST_CASE("a parameter without a gradient is skipped, as torch skips p.grad None") {
  GraphModule gm;
  gm.set_tensor("a", Tensor::full({2}, 1.f));
  gm.set_tensor("b", Tensor::full({2}, 1.f));
  SGD opt(parameters(gm), {.lr = 0.5, .momentum = 0.9, .weight_decay = 0.1});
  gm.grads["a"] = Tensor::full({2}, 1.f);
  opt.step();
  CHECK(gm.get_tensor("a").data<float>()[0] == 1.f - 0.5f * (1.f + 0.1f * 1.f));
  CHECK(gm.get_tensor("b").data<float>()[0] == 1.f);
  opt.zero_grad();
  CHECK(gm.grads.empty());
}
