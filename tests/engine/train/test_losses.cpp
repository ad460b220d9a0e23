// test_losses.cpp — F.cross_entropy and F.mse_loss with torch's keyword arguments (weight, ignore_index,
// reduction, label_smoothing) against torch 1.13 (tests/golden/grad/losses, gen_grad.py's gen_losses; each
// case's keyword arguments are repeated below), and their typed errors. Torch's formulas: aten/src/ATen/native/
// LossNLL.cpp (cross_entropy_loss, cross_entropy_loss_label_smoothing, nll_loss) and Loss.cpp (mse_loss).
#include <catch2/catch.hpp>

#include <cmath>

#include "grad_case.h"
#include "train/loss.h"

using namespace pt;

namespace {

const golden::Golden& losses() {
  static const golden::Golden g = gradtest::load("losses");
  return g;
}

// reduction 'none': the gradient torch's backward gives for the cotangent <c>.g is ours with each sample's row
// (mse: each element) scaled by it, as web/api/train.js's backward(gradient) does.
Tensor with_cotangent(const Loss& l, const Tensor& g) {
  Tensor dx = l.grad.clone();
  const int64_t row = l.grad.numel() / g.numel();
  for (int64_t i = 0; i < dx.numel(); ++i) dx.data<float>()[i] *= g.data<float>()[i / row];
  return dx;
}

void check_ce(const std::string& c, CrossEntropyOptions o, bool weighted = false) {
  const golden::Golden& g = losses();
  if (weighted) o.weight = g.tensor(c + ".weight");
  const Loss l = cross_entropy(g.tensor(c + ".x"), gradtest::labels(g, c + ".labels"), o);
  gradtest::check_close(c + ".loss", l.value, g.tensor(c + ".loss"));
  const bool none = o.reduction == Reduction::none;
  gradtest::check_close(c + ".dx", none ? with_cotangent(l, g.tensor(c + ".g")) : l.grad, g.tensor(c + ".dx"));
}

}  // namespace

TEST_CASE("cross_entropy with weight, ignore_index, reduction and label_smoothing matches torch 1.13") {
  std::printf("cross_entropy's keyword arguments\n");
  check_ce("ce_weight", {}, true);                                                // target[3] = -100 (ignored)
  check_ce("ce_sum", {.reduction = Reduction::sum});
  check_ce("ce_none", {.ignore_index = 2, .reduction = Reduction::none}, true);  // target[1] = 2
  check_ce("ce_smooth", {.label_smoothing = 0.1});
  check_ce("ce_smooth_weight", {.ignore_index = 3, .label_smoothing = 0.25}, true);  // targets 0, 5 = 3
  check_ce("ce_smooth_sum", {.reduction = Reduction::sum, .label_smoothing = 0.4}, true);
  check_ce("ce_smooth_none", {.reduction = Reduction::none, .label_smoothing = 0.3}, true);  // target[2] = -100
  check_ce("ce_negative_smoothing", {.label_smoothing = -0.3});  // torch smooths only for ε > 0
}

TEST_CASE("cross_entropy with class probabilities (a target of the input's shape) matches torch 1.13") {
  const golden::Golden& g = losses();
  const auto soft = [&](const std::string& c, CrossEntropyOptions o, bool weighted = false) {
    if (weighted) o.weight = g.tensor(c + ".weight");
    const Loss l = cross_entropy(g.tensor(c + ".x"), g.tensor(c + ".t"), o);
    gradtest::check_close(c + ".loss", l.value, g.tensor(c + ".loss"));
    const bool none = o.reduction == Reduction::none;
    gradtest::check_close(c + ".dx", none ? with_cotangent(l, g.tensor(c + ".g")) : l.grad, g.tensor(c + ".dx"));
  };
  soft("ce_prob", {});
  soft("ce_prob_smooth_weight", {.label_smoothing = 0.2}, true);
  soft("ce_prob_sum", {.reduction = Reduction::sum}, true);
  soft("ce_prob_none", {.reduction = Reduction::none, .label_smoothing = 0.1});
  const Tensor x = g.tensor("ce_prob.x");
  CHECK_THROWS_WITH(cross_entropy(x, g.tensor("ce_prob.t"), {.ignore_index = 1}), "ignore_index is not supported for floating point target");
  CHECK_THROWS_WITH(cross_entropy(x, Tensor::zeros(x.shape(), DType::Int32)),
                    "Expected floating point type for target with class probabilities, got int32");
}

TEST_CASE("cross_entropy: a mean over no sample is NaN, and no gradient flows, as torch's") {
  const golden::Golden& g = losses();
  const Loss l = cross_entropy(g.tensor("ce_all_ignored.x"), gradtest::labels(g, "ce_all_ignored.labels"));
  CHECK(std::isnan(g.tensor("ce_all_ignored.loss").item()));
  CHECK(std::isnan(l.value.item()));
  gradtest::check_bits("ce_all_ignored.dx", l.grad, g.tensor("ce_all_ignored.dx"));
}

TEST_CASE("mse_loss with reduction sum and none matches torch 1.13") {
  const golden::Golden& g = losses();
  for (const auto& [name, r] : {std::pair{"mse_sum", Reduction::sum}, std::pair{"mse_none", Reduction::none}}) {
    const std::string c = name;
    const Loss l = mse_loss(g.tensor(c + ".x"), g.tensor(c + ".t"), r);
    gradtest::check_close(c + ".loss", l.value, g.tensor(c + ".loss"));
    gradtest::check_close(c + ".dx", r == Reduction::none ? with_cotangent(l, g.tensor(c + ".g")) : l.grad,
                          g.tensor(c + ".dx"));
  }
}

TEST_CASE("loss keyword arguments: typed errors with torch's words") {
  const Tensor x = Tensor::zeros({3, 4});
  const Tensor t = Tensor::from<int32_t>({0, 1, 2}, {3});
  CHECK_THROWS_WITH(reduction_from_name("avg"), "avg is not a valid value for reduction");
  CHECK_THROWS_AS(reduction_from_name("avg"), ValueError);
  CHECK_THROWS_WITH(cross_entropy(x, t, {.label_smoothing = 1.5}), "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
  // below 0 or NaN: no smoothing and no error, as torch (it checks only the smoothing branch, ε > 0)
  CHECK(cross_entropy(x, t, {.label_smoothing = std::nan("")}).value.item() == cross_entropy(x, t).value.item());
  CHECK_THROWS_WITH(cross_entropy(x, t, {.weight = Tensor::full({3}, 1.f)}),
                    Catch::Contains("weight tensor should be defined either for all 4 classes or no classes"));
  CHECK_THROWS_AS(cross_entropy(x, t, {.weight = Tensor::zeros({4}, DType::Int32)}), RuntimeError);
  // ignore_index exempts its value from the range check, and only it
  CHECK_NOTHROW(cross_entropy(x, Tensor::from<int32_t>({0, 7, 2}, {3}), {.ignore_index = 7}));
  CHECK_THROWS_WITH(cross_entropy(x, Tensor::from<int32_t>({0, 7, 2}, {3}), {.ignore_index = 6}), "Target 7 is out of bounds.");
  CHECK_THROWS_WITH(cross_entropy(x, Tensor::from<int32_t>({0, -100, -1}, {3})), "Target -1 is out of bounds.");
}
