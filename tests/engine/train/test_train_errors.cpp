// test_train_errors.cpp — bad input gets typed errors with torch's messages, and the model stays usable
// (nothing changed, the next step works): backward without a loss or twice, a node without a
// derivative, labels that do not match the batch, invalid hyper-parameters (a NaN learning rate), and
// load_state_dict with an unknown name, a missing name, a wrong shape or a wrong dtype.
#include <catch2/catch.hpp>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/targets.h"
#include "ops/golden.h"
#include "ops/ops.h"
#include "train/autograd.h"
#include "train/optim.h"
#include "train/train_loop.h"

using namespace pt;
using Catch::Matchers::Contains;

namespace {

GraphModule mlp() {
  manual_seed(0);
  Model m = get_model("mlp");
  return export_module(m, example_inputs(m, 4));
}

std::vector<float> values(const GraphModule& gm) {
  std::vector<float> out;
  for (const NamedTensor& t : state_dict(gm)) out.insert(out.end(), t.value.span<float>().begin(), t.value.span<float>().end());
  return out;
}

const Tensor kLabels = Tensor::from<int32_t>({0, 1, 2, 3}, {4});

}  // namespace

TEST_CASE("backward: a second backward, a wrong output gradient, an edited graph, a target without derivative") {
  GraphModule gm = mlp();
  const Tensor x = randn({4, 16});
  Tape tape(gm, {x});
  CHECK_THROWS_AS(tape.backward({}), ValueError);
  CHECK_THROWS_WITH(tape.backward({Tensor::zeros({3, 4})}), Contains("Mismatch in shape: grad_output[0]"));
  CHECK(gm.grads.empty());
  tape.backward({cross_entropy(tape.outputs()[0], kLabels).grad});
  CHECK_THROWS_AS(tape.backward({Tensor::zeros({4, 4})}), RuntimeError);
  CHECK_THROWS_WITH(tape.backward({Tensor::zeros({4, 4})}), Contains("second time"));

  // Editing the graph between forward and backward.
  GraphModule edited = mlp();
  Tape before_edit(edited, {x});
  edited.graph.call_function(target::relu, {edited.graph.find("x")});
  CHECK_THROWS_WITH(before_edit.backward({Tensor::zeros({4, 4})}), Contains("graph was edited"));

  // A node that requires grad but has no derivative: NotImplementedError naming it; gm.grads untouched.
  GraphModule nod;
  nod.set_tensor("w", Tensor::full({3}, 0.5f));
  register_op("test.identity", [](const OpArgs& a) { return Value(a.tensor(0)); });
  nod.graph.output({nod.graph.call_function("test.identity", {nod.graph.get_attr("w")})});
  Tape t(nod, {});
  CHECK_THROWS_AS(t.backward({Tensor::full({3}, 1.f)}), NotImplementedError);
  CHECK_THROWS_WITH(t.backward({Tensor::full({3}, 1.f)}), Contains("no derivative for 'test.identity'"));
  CHECK(nod.grads.empty());
}

TEST_CASE("cross_entropy: labels that do not match the batch, out of range, float labels; the model still trains") {
  GraphModule gm = mlp();
  SGD opt(parameters(gm), {.lr = 0.1});
  const Tensor x = randn({4, 16});
  const std::vector<float> before = values(gm);
  CHECK_THROWS_AS(train_step(gm, opt, cross_entropy, x, Tensor::from<int32_t>({0, 1, 2}, {3})), ValueError);
  CHECK_THROWS_WITH(train_step(gm, opt, cross_entropy, x, Tensor::from<int32_t>({0, 1, 2}, {3})),
                    "Expected input batch_size (4) to match target batch_size (3).");
  CHECK_THROWS_AS(train_step(gm, opt, cross_entropy, x, Tensor::from<int32_t>({0, 1, 2, 4}, {4})), IndexError);
  CHECK_THROWS_WITH(train_step(gm, opt, cross_entropy, x, Tensor::from<int32_t>({0, 1, 2, 4}, {4})), "Target 4 is out of bounds.");
  CHECK_THROWS_AS(train_step(gm, opt, cross_entropy, x, Tensor::full({4}, 1.f)), RuntimeError);
  CHECK_THROWS_AS(train_step(gm, opt, mse_loss, x, Tensor::zeros({4, 3})), ValueError);
  CHECK(values(gm) == before);
  const float loss = train_step(gm, opt, cross_entropy, x, kLabels);
  CHECK(std::isfinite(loss));
  CHECK(values(gm) != before);
}

TEST_CASE("optimizers reject invalid hyper-parameters with torch's messages (a NaN learning rate too)") {
  GraphModule gm = mlp();
  CHECK_THROWS_WITH(SGD(parameters(gm), {.lr = std::nan("")}), "Invalid learning rate: nan");
  CHECK_THROWS_WITH(SGD(parameters(gm), {.lr = -0.1}), "Invalid learning rate: -0.1");
  CHECK_THROWS_WITH(SGD(parameters(gm), {.lr = 0.1, .momentum = -1}), "Invalid momentum value: -1");
  CHECK_THROWS_WITH(SGD(parameters(gm), {.lr = 0.1, .weight_decay = -1e-5}), "Invalid weight_decay value: -1e-05");
  CHECK_THROWS_WITH(SGD(parameters(gm), {.lr = 0.1, .nesterov = true}), "Nesterov momentum requires a momentum and zero dampening");
  CHECK_THROWS_WITH(SGD({}, {.lr = 0.1}), "optimizer got an empty parameter list");
  CHECK_THROWS_WITH(Adam(parameters(gm), {.lr = std::nan("")}), "Invalid learning rate: nan");
  CHECK_THROWS_WITH(Adam(parameters(gm), {.beta1 = 1.0}), "Invalid beta parameter at index 0: 1");
  CHECK_THROWS_WITH(Adam(parameters(gm), {.beta2 = -0.5}), "Invalid beta parameter at index 1: -0.5");
  CHECK_THROWS_WITH(Adam(parameters(gm), {.eps = -1}), "Invalid epsilon value: -1");
  CHECK_THROWS_AS(Adam(parameters(gm), {.lr = -1}), ValueError);
  // Still usable.
  SGD opt(parameters(gm), {.lr = 0.1});
  CHECK(std::isfinite(train_step(gm, opt, cross_entropy, randn({4, 16}), kLabels)));
}

TEST_CASE("load_state_dict: unknown, missing, wrong shape, wrong dtype are typed errors and change nothing") {
  GraphModule gm = mlp();
  const std::vector<float> before = values(gm);
  std::vector<NamedTensor> sd = state_dict(gm);
  for (NamedTensor& t : sd) t.value = ops::add(t.value, Tensor::scalar(1.f));

  std::vector<NamedTensor> unknown = sd;
  unknown.push_back({"fc3.weight", Tensor::zeros({2}), false});
  CHECK_THROWS_AS(load_state_dict(gm, unknown), RuntimeError);
  CHECK_THROWS_WITH(load_state_dict(gm, unknown),
                    "Error(s) in loading state_dict for MLP:\n\tUnexpected key(s) in state_dict: \"fc3.weight\". ");
  std::vector<NamedTensor> missing(sd.begin() + 1, sd.end());
  CHECK_THROWS_WITH(load_state_dict(gm, missing), Contains("Missing key(s) in state_dict: \"fc1.weight\". "));
  std::vector<NamedTensor> shape = sd;
  shape[1].value = Tensor::zeros({31});
  CHECK_THROWS_WITH(load_state_dict(gm, shape),
                    Contains("size mismatch for fc1.bias: copying a param with shape torch.Size([31]) from checkpoint, "
                             "the shape in current model is torch.Size([32])."));
  std::vector<NamedTensor> dtype = sd;
  dtype[1].value = Tensor::zeros({32}, DType::Int32);
  CHECK_THROWS_AS(load_state_dict(gm, dtype), TypeError);
  CHECK(values(gm) == before);

  // strict=false reports what it skipped; the copy is in place (optimizers stay bound).
  const Tensor fc1_weight = gm.get_tensor("fc1.weight");
  const IncompatibleKeys k = load_state_dict(gm, std::vector<NamedTensor>(unknown.begin() + 1, unknown.end()), false);
  CHECK(k.missing_keys == std::vector<std::string>{"fc1.weight"});
  CHECK(k.unexpected_keys == std::vector<std::string>{"fc3.weight"});
  CHECK(gm.get_tensor("fc1.bias").data<float>()[0] == sd[1].value.data<float>()[0]);
  load_state_dict(gm, sd);
  CHECK(fc1_weight.data<float>()[0] == sd[0].value.data<float>()[0]);
}

TEST_CASE("state_dict keys are torch's: parameters, then buffers") {
  manual_seed(0);
  Model m = get_model("stem");
  GraphModule gm = export_module(m, example_inputs(m, 2));
  std::vector<std::string> keys;
  for (const NamedTensor& t : state_dict(gm)) keys.push_back(t.name);
  CHECK(keys == std::vector<std::string>{"conv.weight", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var"});
  std::vector<std::string> params;
  for (const NamedTensor& t : named_parameters(gm)) params.push_back(t.name);
  CHECK(params == std::vector<std::string>{"conv.weight", "bn.weight", "bn.bias"});
}
