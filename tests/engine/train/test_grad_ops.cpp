// test_grad_ops.cpp — every differentiable target's backward against torch 1.13 autograd on odd shapes
// (tests/golden/gen_grad.py "ops"): each case is a one-node graph whose tensor inputs are parameters, run
// through the Tape; the gradients that land in gm.grads are compared with torch's x.grad. Masks and
// copies (relu, hardtanh, flatten, cat, fake quantize) are compared bit for bit, sums with the 1e-4 tolerance.
#include "grad_case.h"

#include "core/generator.h"
#include "graph/targets.h"
#include "ops/backward.h"
#include "pt2e/observer_module.h"
#include "quant/fake_quantize.h"
#include "train/autograd.h"
#include "train/loss.h"
#include "train/parameters.h"

using namespace pt;
using I = std::vector<int64_t>;

namespace {

// One golden case as a graph: param("x") registers the golden tensor <case>.x as a parameter.
struct OpGraph {
  const golden::Golden& g;
  std::string name;
  GraphModule gm;

  Node* param(const std::string& k) {
    gm.set_tensor(k, g.tensor(name + "." + k));
    return gm.graph.get_attr(k);
  }
  // Runs `node` as the output, backward with the golden cotangent; checks y and the gradients of `inputs`.
  void check(Node* node, const std::vector<std::string>& inputs, bool bits = false) {
    gm.graph.output({node});
    Tape tape(gm, {});
    std::printf("%s (%s)\n", name.c_str(), node->target.c_str());
    check_close(name + ".y", tape.outputs()[0], g.tensor(name + ".y"));
    tape.backward({g.tensor(name + ".g")});
    for (const std::string& k : inputs) {
      const Tensor* ours = pt::grad(gm, k);
      REQUIRE(ours);
      if (bits) gradtest::check_bits(name + ".d" + k, *ours, g.tensor(name + ".d" + k));
      else gradtest::check_close(name + ".d" + k, *ours, g.tensor(name + ".d" + k));
    }
  }
  static void check_close(const std::string& what, const Tensor& a, const Tensor& b) { gradtest::check_close(what, a, b); }
  Node* call(const char* target, std::vector<Arg> args) { return gm.graph.call_function(target, std::move(args)); }
};

const golden::Golden& ops_golden() {
  static const golden::Golden g = gradtest::load("ops");
  return g;
}

OpGraph graph(const std::string& name) { return OpGraph{ops_golden(), name, {}}; }

}  // namespace

TEST_CASE("conv2d backward: stride, padding, dilation, groups, depthwise, with and without bias") {
  {
    OpGraph c = graph("conv_a");
    c.check(c.call(target::conv2d, {c.param("x"), c.param("w"), c.param("b"), I{2, 1}, I{1, 2}, I{1, 2}}), {"x", "w", "b"});
  }
  {
    OpGraph c = graph("conv_b");
    c.check(c.call(target::conv2d, {c.param("x"), c.param("w"), nullptr, I{1, 1}, I{1, 1}, I{1, 1}, 2}), {"x", "w"});
  }
  {
    OpGraph c = graph("conv_c");
    c.check(c.call(target::conv2d, {c.param("x"), c.param("w"), c.param("b"), I{2, 2}, I{0, 0}, I{1, 1}, 4}), {"x", "w", "b"});
  }
}

// ConvGeometry::winograd_gradients(): the gradients through Winograd's transforms (ops/backward.cpp), odd sizes and channel
// counts (conv_d), two groups of 8 (conv_e).
TEST_CASE("conv2d backward at 3x3, stride 1, padding 1 with 8 or more channels a group (Winograd)") {
  {
    OpGraph c = graph("conv_d");
    c.check(c.call(target::conv2d, {c.param("x"), c.param("w"), c.param("b"), I{1, 1}, I{1, 1}}), {"x", "w", "b"});
  }
  {
    OpGraph c = graph("conv_e");
    c.check(c.call(target::conv2d, {c.param("x"), c.param("w"), nullptr, I{1, 1}, I{1, 1}, I{1, 1}, 2}), {"x", "w"});
  }
}

TEST_CASE("linear backward on a 3-D input") {
  OpGraph c = graph("linear");
  c.check(c.call(target::linear, {c.param("x"), c.param("w"), c.param("b")}), {"x", "w", "b"});
}

TEST_CASE("relu and hardtanh pass the gradient by their masks, bit for bit; sigmoid") {
  {
    OpGraph c = graph("relu");
    c.check(c.call(target::relu, {c.param("x")}), {"x"}, true);
  }
  {
    OpGraph c = graph("hardtanh");
    c.check(c.call(target::hardtanh, {c.param("x")}), {"x"}, true);
  }
  {
    OpGraph c = graph("hardtanh_b");
    c.check(c.call(target::hardtanh, {c.param("x"), -0.5, 1.5}), {"x"}, true);
  }
  {
    OpGraph c = graph("sigmoid");
    c.check(c.call(target::sigmoid, {c.param("x")}), {"x"});
  }
}

// Routing in float, in output order (cpu_max_pool_backward in aten/src/ATen/native/cpu/MaxPoolKernel.cpp adds
// grad_output into grad_input[maxindex] as scalar_t): bit for bit, the saved indices and the recomputed alike.
TEST_CASE("max_pool2d backward routes each gradient to its window's maximum, summing in float as torch") {
  {
    OpGraph c = graph("maxpool_a");
    c.check(c.call(target::max_pool2d, {c.param("x"), I{3, 3}, I{2, 2}, I{1, 1}}), {"x"}, true);
  }
  {
    OpGraph c = graph("maxpool_b");
    c.check(c.call(target::max_pool2d, {c.param("x"), I{2, 2}}), {"x"}, true);
  }
  {
    OpGraph c = graph("maxpool_c");
    c.check(c.call(target::max_pool2d, {c.param("x"), I{3, 3}, I{2, 2}, I{0, 0}, I{1, 1}, true}), {"x"}, true);
  }
  {
    OpGraph c = graph("maxpool_d");
    c.check(c.call(target::max_pool2d, {c.param("x"), I{2, 2}, I{1, 1}, I{0, 0}, I{2, 2}}), {"x"}, true);
  }
  {  // overlapping windows sharing a maximum: up to 9 gradients of sizes 2^0 .. 2^-25 summed into one element
    OpGraph c = graph("maxpool_e");
    c.check(c.call(target::max_pool2d, {c.param("x"), I{3, 3}, I{1, 1}, I{1, 1}}), {"x"}, true);
    const golden::Golden& g = ops_golden();
    const Tensor x = g.tensor("maxpool_e.x"), grad = g.tensor("maxpool_e.g");
    const Tensor again = ops::max_pool2d_backward(grad, x, I{3, 3}, I{1, 1}, I{1, 1}, I{1, 1}, false);  // no saved indices
    gradtest::check_bits("maxpool_e.dx (indices recomputed)", again, g.tensor("maxpool_e.dx"));
  }
}

TEST_CASE("adaptive_avg_pool2d and mean backward") {
  {
    OpGraph c = graph("adaptive_a");
    c.check(c.call(target::adaptive_avg_pool2d, {c.param("x"), I{3, 2}}), {"x"});
  }
  {
    OpGraph c = graph("adaptive_b");
    c.check(c.call(target::adaptive_avg_pool2d, {c.param("x"), I{1, 1}}), {"x"});
  }
  {
    OpGraph c = graph("mean_a");
    c.check(c.call(target::mean_dim, {c.param("x"), I{1, 3}}), {"x"});
  }
  {
    OpGraph c = graph("mean_b");
    c.check(c.call(target::mean_dim, {c.param("x"), I{2, 3}, true}), {"x"});
  }
}

TEST_CASE("add, mul, div with broadcasting, sqrt") {
  {
    OpGraph c = graph("add");
    c.check(c.call(target::add, {c.param("a"), c.param("b"), 2.0}), {"a", "b"});
  }
  {
    OpGraph c = graph("mul");
    c.check(c.call(target::mul, {c.param("a"), c.param("b")}), {"a", "b"});
  }
  {
    OpGraph c = graph("div");
    c.check(c.call(target::div, {c.param("a"), c.param("b")}), {"a", "b"});
  }
  {
    OpGraph c = graph("sqrt");
    c.check(c.call(target::sqrt, {c.param("x")}), {"x"});
  }
}

TEST_CASE("flatten and cat backward are copies, bit for bit") {
  {
    OpGraph c = graph("flatten");
    c.check(c.call(target::flatten, {c.param("x"), 1}), {"x"}, true);
  }
  {
    OpGraph c = graph("cat");
    Node* a = c.param("a");
    Node* b = c.param("b");
    Node* d = c.param("c");
    c.check(c.call(target::cat, {std::vector<Node*>{a, b, d}, 1}), {"a", "b", "c"}, true);
  }
}

TEST_CASE("batch_norm backward in training mode (4-D and [N, C]) and in eval mode") {
  {
    OpGraph c = graph("bn_train");
    c.gm.set_tensor("rm", c.g.tensor("bn_train.rm"), true);
    c.gm.set_tensor("rv", c.g.tensor("bn_train.rv"), true);
    Node* x = c.param("x");
    Node* w = c.param("w");
    Node* b = c.param("b");
    c.check(c.call(target::batch_norm, {x, w, b, c.gm.graph.get_attr("rm"), c.gm.graph.get_attr("rv"), true, 0.1, 1e-5, true}),
            {"x", "w", "b"});
  }
  {
    OpGraph c = graph("bn_train_2d");
    Node* x = c.param("x");
    Node* w = c.param("w");
    Node* b = c.param("b");
    c.check(c.call(target::batch_norm, {x, w, b, nullptr, nullptr, true, 0.1, 1e-3, true}), {"x", "w", "b"});
  }
  {
    OpGraph c = graph("bn_eval");
    Node* x = c.param("x");
    Node* w = c.param("w");
    Node* b = c.param("b");
    c.gm.set_tensor("rm", c.g.tensor("bn_eval.rm"), true);
    c.gm.set_tensor("rv", c.g.tensor("bn_eval.rv"), true);
    c.check(c.call(target::batch_norm, {x, w, b, c.gm.graph.get_attr("rm"), c.gm.graph.get_attr("rv"), false, 0.1, 1e-5, true}),
            {"x", "w", "b"});
  }
}

namespace {
// A graph x -> call_module(fq) -> output with the fake quantize as prepare_pt2e places it.
void check_fake_quant_module(const std::string& name, std::shared_ptr<ObserverBase> fq, bool fused) {
  OpGraph c = graph(name);
  c.gm.add_module("activation_post_process_0", std::make_shared<ObserverModule>(fq, std::nullopt));
  c.check(c.gm.graph.call_module("activation_post_process_0", {c.param("x")}), {"x"}, true);
  if (!fused) return;
  const auto& f = static_cast<const FakeQuantize&>(*fq);
  gradtest::check_bits(name + ".scale", f.scale(), c.g.tensor(name + ".scale"));
  gradtest::check_bits(name + ".zp", f.zero_point().to(DType::Float32), c.g.tensor(name + ".zp"));
}
}  // namespace

TEST_CASE("fake quantize takes part in backward: the straight-through estimator with the clamp mask, bit for bit") {
  // torch.fake_quantize_per_tensor_affine / _per_channel_affine with fixed qparams: the fake-quantize op
  // itself, checked directly (the modules below reach it through their observers).
  const golden::Golden& g = ops_golden();
  {
    const Tensor x = g.tensor("fq_tensor.x");
    const FakeQuantOutput r = fake_quantize_per_tensor_affine_cachemask(x, 0.05f, 3, -128, 127);
    gradtest::check_bits("fq_tensor.y", r.output, g.tensor("fq_tensor.y"));
    gradtest::check_bits("fq_tensor.dx", fake_quantize_backward(g.tensor("fq_tensor.g"), r.mask), g.tensor("fq_tensor.dx"));
  }
  {
    const Tensor x = g.tensor("fq_channel.x");
    const Tensor scale = Tensor::from<float>({0.02f, 0.05f, 0.1f, 0.01f}, {4});
    const Tensor zp = Tensor::from<int32_t>({0, 2, -1, 0}, {4});
    const FakeQuantOutput r = fake_quantize_per_channel_affine_cachemask(x, scale, zp, 1, -127, 127);
    gradtest::check_bits("fq_channel.y", r.output, g.tensor("fq_channel.y"));
    gradtest::check_bits("fq_channel.dx", fake_quantize_backward(g.tensor("fq_channel.g"), r.mask), g.tensor("fq_channel.dx"));
  }
  // FusedMovingAvgObsFakeQuantize as a call_module node: observer update in forward, STE in backward.
  check_fake_quant_module("fused_tensor", std::make_shared<FusedMovingAvgObsFakeQuantize>(), true);
  ObserverArgs w;
  w.observer = "MovingAveragePerChannelMinMaxObserver";
  w.dtype = DType::Int8;
  w.quant_min = -127;
  w.quant_max = 127;
  w.qscheme = QScheme::per_channel_symmetric;
  w.eps = 0x1p-12f;
  check_fake_quant_module("fused_channel", std::make_shared<FusedMovingAvgObsFakeQuantize>(w), true);
}

TEST_CASE("cross_entropy and mse_loss: values and input gradients") {
  const golden::Golden& g = ops_golden();
  std::printf("losses\n");
  const Loss ce = cross_entropy(g.tensor("ce.x"), gradtest::labels(g, "ce.labels"));
  gradtest::check_close("ce.loss", ce.value, g.tensor("ce.loss"));
  gradtest::check_close("ce.dx", ce.grad, g.tensor("ce.dx"));
  const Loss mse = mse_loss(g.tensor("mse.x"), g.tensor("mse.t"));
  gradtest::check_close("mse.loss", mse.value, g.tensor("mse.loss"));
  gradtest::check_close("mse.dx", mse.grad, g.tensor("mse.dx"));
}

// conv2d's forward saves its im2col columns for the weight's gradient while a Tape records (ops::SavedForBackward),
// up to ops::kSavedColumnsBytes; the gradient from the saved columns is the rebuilt columns' gradient, bit for bit.
TEST_CASE("conv2d saves its columns for the weight's gradient, within the budget, and gives the same bits") {
  const golden::Golden& g = ops_golden();
  const Tensor x = g.tensor("conv_b.x"), w = g.tensor("conv_b.w");
  ops::SavedForBackward saved;
  Tensor y;
  {
    const ops::SaveForBackward scope(saved);
    y = ops::conv2d(x, w, std::nullopt, {1, 1}, {1, 1}, {1, 1}, 2);
  }
  REQUIRE(saved.conv_columns);
  CHECK(saved.conv_columns->shape() == Shape{x.size(0), 2, w.size(1) * w.size(2) * w.size(3), y.size(2) * y.size(3)});
  Generator gen(5);
  const Tensor grad = randn(y.shape(), gen);
  gradtest::check_bits("conv_b saved columns", ops::conv2d_backward_weight(grad, x, w.shape(), {1, 1}, {1, 1}, {1, 1}, 2, &*saved.conv_columns),
                       ops::conv2d_backward_weight(grad, x, w.shape(), {1, 1}, {1, 1}, {1, 1}, 2));
  // Columns that do not fit the budget are not kept (the backward builds them); a 1x1 conv has none to keep.
  ops::SavedForBackward big, pointwise;
  {
    const ops::SaveForBackward scope(big);
    ops::conv2d(Tensor::zeros({2, 64, 64, 64}), Tensor::zeros({1, 64, 3, 3}), std::nullopt, {1, 1}, {1, 1});
  }
  CHECK_FALSE(big.conv_columns);
  {
    const ops::SaveForBackward scope(pointwise);
    ops::conv2d(x, Tensor::zeros({3, x.size(1), 1, 1}), std::nullopt);
  }
  CHECK_FALSE(pointwise.conv_columns);
  // Columns of another shape are refused by name.
  CHECK_THROWS_WITH(ops::conv2d_backward_weight(grad, x, w.shape(), {1, 1}, {1, 1}, {1, 1}, 2, &x), Catch::Contains("the saved columns"));
}
