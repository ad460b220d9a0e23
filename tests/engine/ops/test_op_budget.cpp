// test_op_budget.cpp — ops whose work outgrows their tensors (engine/core/op_budget.h) refuse a call past
// kMaxOpWork with a RuntimeError naming the op and its shapes, before allocating; calls at the bound's
// scale below it still run.
#include <catch2/catch.hpp>

#include "core/op_budget.h"
#include "ops/backward.h"
#include "ops/ops.h"

using namespace pt;
using Catch::Matchers::Contains;

TEST_CASE("check_op_work: the product of the factors against 2^35, saturating, 0 means no work", "[ops][budget]") {
  CHECK_NOTHROW(check_op_work("op", "x", {int64_t{1} << 20, int64_t{1} << 15}));           // exactly 2^35
  CHECK_THROWS_WITH(check_op_work("op", "x [3]", {int64_t{1} << 20, (int64_t{1} << 15) + 1}),  // 2^35 + 2^20
                    Contains("op: x [3] would take 34360786944 multiply-accumulates"));
  CHECK_THROWS_AS(check_op_work("op", "x", {int64_t{1} << 40, int64_t{1} << 40, int64_t{1} << 40}), RuntimeError);  // no overflow
  CHECK_NOTHROW(check_op_work("op", "x", {int64_t{1} << 40, 0, int64_t{1} << 40}));
}

TEST_CASE("conv2d, linear and the pools refuse a call past the work bound, naming op and shapes", "[ops][budget]") {
  // Small tensors, huge work: a 1024x1024 kernel slid over a 2048x2048 image is 1025^2 * 2^20 steps.
  const Tensor x = Tensor::zeros({1, 1, 2048, 2048}), w = Tensor::zeros({1, 1, 1024, 1024});
  CHECK_THROWS_WITH(ops::conv2d(x, w, std::nullopt), Contains("conv2d: input [1, 1, 2048, 2048] and weight [1, 1, 1024, 1024]"));
  CHECK_THROWS_AS(ops::conv2d(x, w, std::nullopt), RuntimeError);
  const Tensor grad = Tensor::zeros({1, 1, 1025, 1025});
  CHECK_THROWS_WITH(ops::conv2d_backward_input(grad, w, x.shape(), {1}, {0}, {1}, 1), Contains("conv2d: input [1, 1, 2048, 2048]"));
  CHECK_THROWS_WITH(ops::conv2d_backward_weight(grad, x, w.shape(), {1}, {0}, {1}, 1), Contains("would take"));
  CHECK_THROWS_WITH(ops::max_pool2d(Tensor::zeros({1, 1, 1024, 1024}), {512}, {1}),
                    Contains("max_pool2d: input [1, 1, 1024, 1024] with kernel_size [512]"));
  // Every output of a 1 x 2^20 adaptive pool over a 2^20 x 1 image averages the whole column.
  CHECK_THROWS_WITH(ops::adaptive_avg_pool2d(Tensor::zeros({1, 1, 1 << 20, 1}), {1, 1 << 20}),
                    Contains("adaptive_avg_pool2d: input [1, 1, 1048576, 1] to output_size [1, 1048576]"));
  // linear: 2^14 rows x 2^10 features into 2^12 outputs is 2^36.
  const Tensor rows = Tensor::zeros({1 << 14, 1 << 10}), weight = Tensor::zeros({1 << 12, 1 << 10});
  CHECK_THROWS_WITH(ops::linear(rows, weight, std::nullopt), Contains("linear: input [16384, 1024] and weight [4096, 1024]"));
  CHECK_THROWS_WITH(ops::linear_backward_weight(Tensor::zeros({1 << 14, 1 << 12}), rows), Contains("linear_backward"));
  CHECK_THROWS_WITH(ops::linear_backward_input(Tensor::zeros({1 << 14, 1 << 12}), weight), Contains("linear_backward"));
}

TEST_CASE("a padding, dilation, kernel or groups near INT64_MAX is refused by name, not overflowed", "[ops][budget][errors]") {
  // torch's output size (in + 2·pad − dil·(k − 1) − 1) / stride + 1 overflows int64 for such arguments; the engine
  // computes it in 128 bits and the work bound refuses it (found by the graph fuzz campaign).
  const int64_t huge = int64_t{7740519914252392734};
  const Tensor x = Tensor::zeros({1, 1, 4, 4}), w = Tensor::zeros({1, 1, 3, 3});
  CHECK_THROWS_WITH(ops::conv2d(x, w, std::nullopt, {1}, {huge}), Contains("conv2d: input [1, 1, 4, 4] and weight [1, 1, 3, 3]"));
  CHECK_THROWS_AS(ops::conv2d(x, w, std::nullopt, {1}, {huge}), RuntimeError);
  CHECK_THROWS_WITH(ops::conv2d(x, w, std::nullopt, {1}, {0}, {huge}), Contains("is smaller than kernel"));
  CHECK_THROWS_WITH(ops::conv2d(x, w, std::nullopt, {1}, {0}, {1}, huge), Contains("channels"));
  CHECK_THROWS_WITH(ops::max_pool2d(x, {3}, {1}, {0}, {huge}), Contains("max_pool2d: input [1, 1, 4, 4] is too small"));
}

TEST_CASE("calls under the work bound run as before", "[ops][budget]") {
  // 2^20 x 2^15 = 2^35 multiply-accumulates would be allowed but slow; a 2^26 one checks the same path.
  const Tensor y = ops::conv2d(Tensor::full({1, 4, 64, 64}, 1.0f), Tensor::full({8, 4, 3, 3}, 0.5f), std::nullopt, {1}, {1});
  CHECK(y.shape() == Shape{1, 8, 64, 64});
  CHECK(y.data<float>()[64 * 32 + 32] == 18.0f);  // an inner output: 4 channels x 9 taps x 0.5
}
