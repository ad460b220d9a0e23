// test_grad_models.cpp — every zoo model in train mode against torch 1.13 autograd (gen_grad.py <model>):
// the exported graph with the golden state, move_exported_model_to_train, one recorded forward on a
// batch of 3, cross_entropy (tiny, mlp) or a fixed random cotangent (the others) — output, loss, every
// parameter's gradient, the input's gradient and the BatchNorm running statistics after the forward,
// each within max |ours - torch| <= 1e-4 * max |torch|. Then the QAT graph of tiny (prepare_qat_pt2e)
// trains: fake quant takes part in backward.
#include "grad_case.h"

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "ops/ops.h"
#include "pt2e/observer_module.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "train/autograd.h"
#include "train/loss.h"
#include "quant/fake_quantize.h"
#include "train/parameters.h"

using namespace pt;

namespace {

GraphModule golden_model(const std::string& name, const golden::Golden& g) {
  Model m = get_model(name);
  std::vector<NamedTensor> state;
  for (auto& [k, v] : g.with_prefix("state.")) state.push_back({k, v, k.find("running") != std::string::npos});
  m.load_state_dict(state);
  GraphModule gm = export_module(m, {g.tensor("x")});
  move_exported_model_to_train(gm);
  return gm;
}

}  // namespace

TEST_CASE("every zoo model in train mode: parameter and input gradients match torch autograd") {
  for (const std::string& name : model_names()) {
    DYNAMIC_SECTION(name) {
      const golden::Golden g = gradtest::load(name);
      GraphModule gm = golden_model(name, g);
      std::printf("%s\n", name.c_str());
      Tape tape(gm, {g.tensor("x")}, {.input_grads = true});
      gradtest::check_close(name + ".out", tape.outputs()[0], g.tensor("out"));
      Tensor out_grad;
      if (g.has("labels")) {
        const Loss loss = cross_entropy(tape.outputs()[0], gradtest::labels(g, "labels"));
        gradtest::check_close(name + ".loss", loss.value, g.tensor("loss"));
        out_grad = loss.grad;
      } else {
        out_grad = g.tensor("g");
      }
      const std::vector<Tensor> dx = tape.backward({out_grad});
      const auto torch_grads = g.with_prefix("grad.");
      REQUIRE(torch_grads.size() == named_parameters(gm).size());
      for (const auto& [k, v] : torch_grads) {
        const Tensor* ours = pt::grad(gm, k);
        REQUIRE(ours);
        gradtest::check_close(name + ".grad." + k, *ours, v);
      }
      gradtest::check_close(name + ".dx", dx[0], g.tensor("dx"));
      for (const auto& [k, v] : g.with_prefix("after.")) gradtest::check_close(name + "." + k, gm.get_tensor(k), v);
    }
  }
}

TEST_CASE("a second backward accumulates into .grad as torch's p.grad += ...; zero_grad clears it") {
  const golden::Golden g = gradtest::load("mlp");
  GraphModule gm = golden_model("mlp", g);
  const Tensor labels = gradtest::labels(g, "labels");
  for (int i = 0; i < 2; ++i) {
    Tape tape(gm, {g.tensor("x")});
    tape.backward({cross_entropy(tape.outputs()[0], labels).grad});
  }
  const Tensor twice = ops::mul(g.tensor("grad.fc1.weight"), Tensor::scalar(2.f));
  CHECK(golden::max_rel_diff(*pt::grad(gm, "fc1.weight"), twice) <= gradtest::kTolerance);
  zero_grad(gm, /*set_to_none=*/false);
  CHECK(pt::grad(gm, "fc1.weight")->data<float>()[0] == 0.f);
  zero_grad(gm);
  CHECK(pt::grad(gm, "fc1.weight") == nullptr);
}

TEST_CASE("the QAT graph of tiny trains: with fake quant off its gradients are the float graph's, with it on they reach every parameter") {
  manual_seed(0);
  Model m = get_model("tiny");
  GraphModule gm = export_module(m, example_inputs(m, 4));
  move_exported_model_to_train(gm);
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true, .is_qat = true}));
  GraphModule prepared = prepare_qat_pt2e(gm, q);
  const Tensor x = randn({4, 3, 16, 16});
  const Tensor labels = Tensor::from<int32_t>({0, 1, 2, 3}, {4});
  auto train_once = [&](GraphModule& g) {
    zero_grad(g);
    Tape tape(g, {x});
    tape.backward({cross_entropy(tape.outputs()[0], labels).grad});
  };
  auto set_fake_quant = [&](bool on) {
    for (const auto& [name, module] : prepared.modules())
      if (auto* fq = dynamic_cast<FakeQuantizeBase*>(get_observer(prepared, prepared.graph.find(name))))
        fq->enable_fake_quant(on);
  };
  // Fake quant off: conv(x, w * sf) / sf (+ b) -> batch_norm is the float conv -> batch_norm, so the
  // gradients through mul / div / sqrt / reshape / zeros_like equal the float graph's up to rounding.
  set_fake_quant(false);
  train_once(gm);
  train_once(prepared);
  std::printf("tiny QAT graph, fake quant off, vs the float graph\n");
  for (const NamedTensor& p : named_parameters(gm)) {
    REQUIRE(pt::grad(prepared, p.name));
    gradtest::check_close("qat." + p.name, *pt::grad(prepared, p.name), *pt::grad(gm, p.name));
  }
  // Fake quant on: every parameter still gets a gradient, now through the straight-through masks.
  set_fake_quant(true);
  train_once(prepared);
  for (const NamedTensor& p : named_parameters(prepared)) {
    const Tensor* gr = pt::grad(prepared, p.name);
    REQUIRE(gr);
    double norm = 0;
    for (float v : gr->span<float>()) norm += static_cast<double>(v) * v;
    CHECK(norm > 0);
  }
}
