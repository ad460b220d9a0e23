// test_nn_init.cpp — Conv2d / Linear / BatchNorm2d parameters against torch 1.13, bit for bit.
//
// Golden data: tests/golden/random/init_*.bin from tests/golden/gen_random.py (torch.nn modules
// built after torch.manual_seed(0), in the order the script lists).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "core/nn_init.h"

#include "golden_floats.h"

using namespace pt;

namespace {

std::vector<float> golden(const std::string& name) { return golden_floats("random/init_" + name + ".bin"); }

// Number of elements whose bit patterns differ (all of them if the sizes differ).
size_t bit_mismatches(const Tensor& t, const std::vector<float>& want) {
  size_t n = static_cast<size_t>(t.numel());
  if (n != want.size()) return std::max(n, want.size());
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += std::memcmp(&t.data<float>()[i], &want[i], sizeof(float)) != 0;
  return bad;
}

}  // namespace

TEST_CASE("fan_in follows _calculate_fan_in_and_fan_out", "[nn_init]") {
  CHECK(nn_init::fan_in(Tensor::empty({8, 3, 3, 3})) == 27);
  CHECK(nn_init::fan_in(Tensor::empty({10, 16})) == 16);
  CHECK(nn_init::fan_in(Tensor::empty({8, 2, 3, 3})) == 18);
  CHECK_THROWS_AS(nn_init::fan_in(Tensor::empty({5})), ValueError);
}

TEST_CASE("modules built in order after manual_seed(0) match torch", "[nn_init][golden]") {
  manual_seed(0);
  nn_init::Conv2dParams conv = nn_init::conv2d(3, 8, 3);
  nn_init::LinearParams lin = nn_init::linear(16, 10);
  nn_init::BatchNormParams bn = nn_init::batch_norm2d(8);
  nn_init::LinearParams lin7 = nn_init::linear(7, 5);

  CHECK(conv.weight.shape() == Shape{8, 3, 3, 3});
  CHECK(bit_mismatches(conv.weight, golden("conv_3_8_3_weight")) == 0);
  CHECK(bit_mismatches(conv.bias, golden("conv_3_8_3_bias")) == 0);
  CHECK(lin.weight.shape() == Shape{10, 16});
  CHECK(bit_mismatches(lin.weight, golden("linear_16_10_weight")) == 0);
  CHECK(bit_mismatches(lin.bias, golden("linear_16_10_bias")) == 0);
  CHECK(bit_mismatches(bn.weight, golden("bn_8_weight")) == 0);
  CHECK(bit_mismatches(bn.bias, golden("bn_8_bias")) == 0);
  CHECK(bit_mismatches(bn.running_mean, golden("bn_8_running_mean")) == 0);
  CHECK(bit_mismatches(bn.running_var, golden("bn_8_running_var")) == 0);
  CHECK(bn.eps == 1e-5);
  CHECK(bn.momentum == 0.1);
  CHECK(bit_mismatches(lin7.weight, golden("linear_7_5_weight")) == 0);
  CHECK(bit_mismatches(lin7.bias, golden("linear_7_5_bias")) == 0);
}

TEST_CASE("seed M01-2's conv with and without bias, and a grouped conv", "[nn_init][golden]") {
  manual_seed(0);
  nn_init::Conv2dParams nobias = nn_init::conv2d(8, 8, 3, false);
  CHECK(nobias.bias.numel() == 0);
  CHECK(bit_mismatches(nobias.weight, golden("conv_8_8_3_nobias_weight")) == 0);

  manual_seed(0);
  nn_init::Conv2dParams with_bias = nn_init::conv2d(8, 8, 3, true);
  CHECK(bit_mismatches(with_bias.weight, golden("conv_8_8_3_bias_weight")) == 0);
  CHECK(bit_mismatches(with_bias.bias, golden("conv_8_8_3_bias_bias")) == 0);

  manual_seed(0);
  nn_init::Conv2dParams grouped = nn_init::conv2d(8, 8, 3, true, 4);
  CHECK(grouped.weight.shape() == Shape{8, 2, 3, 3});
  CHECK(bit_mismatches(grouped.weight, golden("conv_8_8_3_groups4_weight")) == 0);
  CHECK(bit_mismatches(grouped.bias, golden("conv_8_8_3_groups4_bias")) == 0);
}

TEST_CASE("bad module arguments raise ValueError before drawing", "[nn_init][errors]") {
  manual_seed(0);
  CHECK_THROWS_WITH(nn_init::conv2d(3, 8, 3, true, 2), Catch::Contains("in_channels must be divisible by groups"));
  CHECK_THROWS_WITH(nn_init::conv2d(4, 6, 3, true, 4), Catch::Contains("out_channels must be divisible by groups"));
  CHECK_THROWS_WITH(nn_init::conv2d(3, 8, 3, true, 0), Catch::Contains("groups"));
  CHECK_THROWS_WITH(nn_init::conv2d(3, 8, -1), Catch::Contains("kernel_size"));
  CHECK_THROWS_WITH(nn_init::linear(-2, 4), Catch::Contains("in_features"));
  CHECK_THROWS_AS(nn_init::batch_norm2d(-1), ValueError);
  Generator fresh(0);
  CHECK(default_generator().random() == fresh.random());
}

TEST_CASE("fan_in 0: Conv2d draws nothing for its bias, Linear draws with bound 0", "[nn_init]") {
  // torch 1.13: after manual_seed(0), Conv2d(0,4,3) and Conv2d(3,4,0) leave the stream untouched;
  // Linear(0,4) consumes exactly 4 draws and its bias is +0.
  manual_seed(0);
  Tensor ref = randn({4});
  for (auto [in, k] : {std::pair{0, 3}, std::pair{3, 0}}) {
    manual_seed(0);
    nn_init::Conv2dParams conv = nn_init::conv2d(in, 4, k);
    CHECK(conv.bias.numel() == 4);
    CHECK(bit_mismatches(randn({4}), std::vector<float>(ref.data<float>(), ref.data<float>() + 4)) == 0);
  }
  manual_seed(0);
  Generator skipped(0);
  for (int i = 0; i < 4; ++i) skipped.random();
  nn_init::LinearParams lin = nn_init::linear(0, 4);
  CHECK(bit_mismatches(lin.bias, std::vector<float>(4, 0.0f)) == 0);
  CHECK(default_generator().random() == skipped.random());
}
