// test_div_backward.cpp — ops::div_backward (one pass over grad for both of div's gradients) against the
// composition it replaces, bit for bit: self <- sum_to(grad / b, a.shape), other <- sum_to(-1 · (grad · ((a / b) / b)),
// b.shape), each through ops::div / ops::mul / sum_to as autograd computed them before. Torch's values for div's
// gradients are tests/engine/train/test_grad_ops.cpp's golden case.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/generator.h"
#include "ops/backward.h"
#include "ops/golden.h"

using namespace pt;
using golden::bit_equal;

namespace {

struct Composed {
  Tensor self, other;
};
Composed composed(const Tensor& grad, const Tensor& a, const Tensor& b) {
  return {ops::sum_to(ops::div(grad, b), a.shape()),
          ops::sum_to(ops::mul(ops::mul(grad, ops::div(ops::div(a, b), b)), Tensor::scalar(-1.f)), b.shape())};
}

// Values of both signs, zeros of both signs in grad, and a factor b away from 0 (as a BN scale factor is).
Tensor values(const Shape& shape, Generator& gen, bool with_zeros) {
  Tensor t = randn(shape, gen);
  float* p = t.data<float>();
  if (with_zeros)
    for (int64_t i = 0; i < t.numel(); i += 7) p[i] = (i / 7) % 2 ? -0.f : 0.f;
  return t;
}
Tensor factor(const Shape& shape, Generator& gen) {
  Tensor t = rand(shape, gen);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = (i % 2 ? -1.f : 1.f) * (p[i] + 0.25f);
  return t;
}

void check_case(const Shape& a_shape, const Shape& b_shape, uint64_t seed) {
  Generator gen(seed);
  const Tensor a = values(a_shape, gen, false), b = factor(b_shape, gen);
  const Tensor result = ops::div(a, b);
  const Tensor grad = values(result.shape(), gen, true);
  const Composed want = composed(grad, a, b);
  INFO("a " << shape_str(a_shape) << " / b " << shape_str(b_shape));
  const ops::DivGrads both = ops::div_backward(grad, result, b, a.shape(), true, true);
  REQUIRE(both.self);
  REQUIRE(both.other);
  CHECK(bit_equal(*both.self, want.self));
  CHECK(bit_equal(*both.other, want.other));
  const ops::DivGrads only_other = ops::div_backward(grad, result, b, a.shape(), false, true);
  CHECK(!only_other.self);
  REQUIRE(only_other.other);
  CHECK(bit_equal(*only_other.other, want.other));
  const ops::DivGrads only_self = ops::div_backward(grad, result, b, a.shape(), true, false);
  CHECK(!only_self.other);
  REQUIRE(only_self.self);
  CHECK(bit_equal(*only_self.self, want.self));
}

}  // namespace

TEST_CASE("div_backward is bit for bit the composition of div, mul and sum_to", "[ops][backward]") {
  // The QAT conv-bn pattern's case: an activation over a [1, C, 1, 1] factor (runs of H·W).
  check_case({32, 16, 16, 16}, {1, 16, 1, 1}, 1);
  check_case({2, 3, 4, 5}, {3, 1, 1}, 2);
  // Runs of one element, summed dims in the middle, a 0-dim and a 1-D factor.
  check_case({2, 3, 4, 5}, {1, 1, 1, 5}, 3);
  check_case({2, 3, 4, 5}, {2, 1, 4, 1}, 4);
  check_case({2, 3, 4, 5}, {}, 5);
  check_case({2, 3, 4, 5}, {5}, 6);
  check_case({6, 7}, {6, 1}, 7);
  // Other cases take the composition: no broadcasting, self broadcast too, both broadcast.
  check_case({2, 3, 4}, {2, 3, 4}, 8);
  check_case({4, 5}, {2, 3, 1, 1}, 9);
  check_case({3, 1, 5}, {1, 4, 1}, 10);
  // An empty batch: other's gradient is all zeros.
  check_case({0, 3, 2, 2}, {1, 3, 1, 1}, 11);
}

TEST_CASE("div_backward keeps infinities and NaN where the composition has them", "[ops][backward]") {
  Generator gen(12);
  Tensor a = values({2, 4, 3, 3}, gen, false);
  Tensor b = factor({1, 4, 1, 1}, gen);
  b.data<float>()[1] = 0.f;  // a whole channel divided by zero: ±inf results, NaN and inf gradients
  a.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
  const Tensor result = ops::div(a, b);
  const Tensor grad = values(result.shape(), gen, true);
  const Composed want = composed(grad, a, b);
  const ops::DivGrads got = ops::div_backward(grad, result, b, a.shape(), true, true);
  // NaN payloads aside (memcmp would see them), every element is the same: compare as numbers, NaN with NaN.
  auto same = [](const Tensor& x, const Tensor& y) {
    if (x.shape() != y.shape()) return false;
    for (int64_t i = 0; i < x.numel(); ++i) {
      const float u = x.data<float>()[i], v = y.data<float>()[i];
      if (std::isnan(u) != std::isnan(v) || (!std::isnan(u) && (u != v || std::signbit(u) != std::signbit(v))))
        return false;
    }
    return true;
  };
  CHECK(same(*got.self, want.self));
  CHECK(same(*got.other, want.other));
  CHECK(std::isnan(got.other->data<float>()[1]));
}

TEST_CASE("div_backward: a factor that does not broadcast is sum_to's RuntimeError", "[ops][backward][errors]") {
  const Tensor grad = Tensor::zeros({2, 3}), result = Tensor::zeros({2, 3}), b = Tensor::full({4}, 1.f);
  CHECK_THROWS_AS(ops::div_backward(grad, result, b, {2, 3}, true, true), RuntimeError);
}
