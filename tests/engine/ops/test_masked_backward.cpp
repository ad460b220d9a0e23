// test_masked_backward.cpp — threshold_backward and max_pool2d_backward with an STE mask (ops/backward.h) are bit
// for bit the op on fake_quantize_backward(grad, mask): every mask byte 0..255, gradients of both signs, zeros of
// both signs, infinities and NaN.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/generator.h"
#include "ops/backward.h"
#include "ops/golden.h"
#include "quant/quantize.h"

using namespace pt;

namespace {

// Equal as numbers and signs, NaN with NaN (a NaN's payload aside).
bool same(const Tensor& x, const Tensor& y) {
  if (x.shape() != y.shape()) return false;
  for (int64_t i = 0; i < x.numel(); ++i) {
    const float u = x.data<float>()[i], v = y.data<float>()[i];
    if (std::isnan(u) != std::isnan(v) || (!std::isnan(u) && (u != v || std::signbit(u) != std::signbit(v)))) return false;
  }
  return true;
}

// [2, 4, 8, 8]: 512 elements, so each mask byte 0..255 meets two gradients; every 9th gradient a special value.
struct Case {
  Tensor grad, mask;
};
Case make_case(uint64_t seed) {
  Generator gen(seed);
  Case c{randn({2, 4, 8, 8}, gen), Tensor::empty({2, 4, 8, 8}, DType::UInt8)};
  const float special[] = {0.f, -0.f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()};
  float* g = c.grad.data<float>();
  uint8_t* m = c.mask.data<uint8_t>();
  for (int64_t i = 0; i < c.grad.numel(); ++i) {
    m[i] = static_cast<uint8_t>((i * 7) % 256);
    if (i % 9 == 0) g[i] = special[(i / 9) % 5];
  }
  return c;
}

}  // namespace

TEST_CASE("threshold_backward with a mask is threshold_backward of grad × mask", "[ops][backward]") {
  const Case c = make_case(21);
  Generator gen(22);
  Tensor result = randn(c.grad.shape(), gen);
  result.data<float>()[3] = 0.f;  // on the threshold: 0
  for (float t : {0.f, 0.5f}) {
    const Tensor want = ops::threshold_backward(fake_quantize_backward(c.grad, c.mask), result, t);
    CHECK(same(ops::threshold_backward(c.grad, result, t, &c.mask), want));
  }
  // A mask of ones and zeros only (a fake quantize's): bit for bit, with the signs of blocked gradients.
  Tensor ones_zeros = Tensor::empty(c.grad.shape(), DType::UInt8);
  for (int64_t i = 0; i < ones_zeros.numel(); ++i) ones_zeros.data<uint8_t>()[i] = i % 3 != 0;
  const Tensor plain = randn(c.grad.shape(), gen);
  CHECK(golden::bit_equal(ops::threshold_backward(plain, result, 0.f, &ones_zeros),
                          ops::threshold_backward(fake_quantize_backward(plain, ones_zeros), result)));
}

TEST_CASE("max_pool2d_backward with a mask is max_pool2d_backward of grad × mask", "[ops][backward]") {
  Generator gen(23);
  const Tensor x = randn({2, 4, 16, 16}, gen);
  const Case c = make_case(24);  // the pooled shape [2, 4, 8, 8]
  // Overlapping windows (3x3, stride 2, padding 1): an input element can take several outputs' gradients.
  for (const auto& [k, s, p] : {std::tuple{2, 2, 0}, std::tuple{3, 2, 1}}) {
    const ops::IntList ks{k}, st{s}, pd{p};
    const Tensor idx = ops::max_pool2d_with_indices(x, ks, st, pd).indices;
    REQUIRE(idx.shape() == c.grad.shape());
    const Tensor want = ops::max_pool2d_backward(fake_quantize_backward(c.grad, c.mask), x, ks, st, pd, {1}, false, &idx);
    CHECK(same(ops::max_pool2d_backward(c.grad, x, ks, st, pd, {1}, false, &idx, &c.mask), want));
  }
}

TEST_CASE("a mask of another shape or dtype is a typed error", "[ops][backward][errors]") {
  const Tensor g = Tensor::zeros({2, 3}), y = Tensor::zeros({2, 3});
  const Tensor short_mask = Tensor::zeros({3}, DType::UInt8), float_mask = Tensor::zeros({2, 3});
  CHECK_THROWS_AS(ops::threshold_backward(g, y, 0.f, &short_mask), RuntimeError);
  CHECK_THROWS_AS(ops::threshold_backward(g, y, 0.f, &float_mask), TypeError);
}
