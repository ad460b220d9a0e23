// test_ops.cpp — every float reference op against torch 1.13 (tests/golden/models/ops.*), plus the
// typed errors each op raises on bad shapes. Tolerance: max |engine - torch| <= 1e-6 * max |torch|
// (float rounding of a different summation order), exact for ops without arithmetic.
#include <catch2/catch.hpp>

#include "ops/golden.h"
#include "ops/ops.h"

using namespace pt;
using golden::bit_equal;
using golden::max_rel_diff;

namespace {
const golden::Golden& G() {
  static golden::Golden g("ops");
  return g;
}
Tensor in(const std::string& name) { return G().tensor(name); }
Tensor out(const std::string& c) { return G().tensor(c + ".out"); }
}  // namespace

TEST_CASE("conv2d matches torch: padding, stride, dilation, groups, optional bias", "[ops]") {
  CHECK(max_rel_diff(ops::conv2d(in("conv2d_pad1.x"), in("conv2d_pad1.w"), in("conv2d_pad1.b"), {1}, {1}),
                     out("conv2d_pad1")) < 1e-6);
  const std::string c2 = "conv2d_s2_p12_d2_nobias";
  Tensor y2 = ops::conv2d(in(c2 + ".x"), in(c2 + ".w"), std::nullopt, {2}, {1, 2}, {2});
  CHECK(y2.shape() == out(c2).shape());
  CHECK(max_rel_diff(y2, out(c2)) < 1e-6);
  const std::string c3 = "conv2d_groups2_s21";
  CHECK(max_rel_diff(ops::conv2d(in(c3 + ".x"), in(c3 + ".w"), in(c3 + ".b"), {2, 1}, {0}, {1}, 2), out(c3)) < 1e-6);
}

TEST_CASE("linear matches torch for 2-D and 3-D inputs", "[ops]") {
  CHECK(max_rel_diff(ops::linear(in("linear_bias.x"), in("linear_bias.w"), in("linear_bias.b")), out("linear_bias")) <
        1e-6);
  Tensor y = ops::linear(in("linear_3d_nobias.x"), in("linear_3d_nobias.w"), std::nullopt);
  CHECK(y.shape() == Shape{2, 3, 3});
  CHECK(max_rel_diff(y, out("linear_3d_nobias")) < 1e-6);
}

TEST_CASE("elementwise ops match torch", "[ops]") {
  CHECK(bit_equal(ops::relu(in("relu.x")), out("relu")));
  CHECK(bit_equal(ops::hardtanh(in("hardtanh.x"), -0.5, 0.75), out("hardtanh")));
  CHECK(max_rel_diff(ops::sigmoid(in("sigmoid.x")), out("sigmoid")) < 1e-6);
  CHECK(max_rel_diff(ops::add(in("add_broadcast_alpha.a"), in("add_broadcast_alpha.b"), 2.5),
                     out("add_broadcast_alpha")) < 1e-6);
  CHECK(bit_equal(ops::mul(in("mul_broadcast.a"), in("mul_broadcast.b")), out("mul_broadcast")));
  CHECK(ops::mul(in("mul_broadcast.a"), in("mul_broadcast.b")).shape() == Shape{4, 3, 5});
}

TEST_CASE("pooling and reductions match torch", "[ops]") {
  CHECK(bit_equal(ops::max_pool2d(in("max_pool2d_k2.x"), {2}), out("max_pool2d_k2")));
  CHECK(bit_equal(ops::max_pool2d(in("max_pool2d_k3_s2_p1.x"), {3}, {2}, {1}), out("max_pool2d_k3_s2_p1")));
  CHECK(bit_equal(ops::max_pool2d(in("max_pool2d_k2_ceil.x"), {2}, {2}, {0}, {1}, true), out("max_pool2d_k2_ceil")));
  CHECK(bit_equal(ops::max_pool2d(in("max_pool2d_k2_s1_d2.x"), {2}, {1}, {0}, {2}), out("max_pool2d_k2_s1_d2")));
  CHECK(max_rel_diff(ops::adaptive_avg_pool2d(in("adaptive_avg_pool2d_1.x"), {1}), out("adaptive_avg_pool2d_1")) < 1e-6);
  CHECK(max_rel_diff(ops::adaptive_avg_pool2d(in("adaptive_avg_pool2d_32.x"), {3, 2}), out("adaptive_avg_pool2d_32")) <
        1e-6);
  CHECK(max_rel_diff(ops::mean_dim(in("mean_23_keep.x"), {2, 3}, true), out("mean_23_keep")) < 1e-6);
  CHECK(max_rel_diff(ops::mean_dim(in("mean_m1.x"), {-1}), out("mean_m1")) < 1e-6);
  CHECK(max_rel_diff(ops::mean_dim(in("mean_02.x"), {0, 2}), out("mean_02")) < 1e-6);
}

TEST_CASE("cat, flatten and batch_norm match torch", "[ops]") {
  CHECK(bit_equal(ops::cat({in("cat_dim1.a"), in("cat_dim1.b")}, 1), out("cat_dim1")));
  CHECK(bit_equal(ops::cat({in("cat_dim_m1.a"), in("cat_dim_m1.b")}, -1), out("cat_dim_m1")));
  CHECK(bit_equal(ops::flatten(in("flatten_1_2.x"), 1, 2), out("flatten_1_2")));
  const std::string c = "batch_norm_eps1e-3";
  CHECK(max_rel_diff(ops::batch_norm(in(c + ".x"), in(c + ".w"), in(c + ".b"), in(c + ".rm"), in(c + ".rv"), 1e-3),
                     out(c)) < 1e-6);
}

TEST_CASE("shape and dtype errors are typed and name the op", "[ops][errors]") {
  Tensor x = Tensor::zeros({1, 3, 8, 8});
  CHECK_THROWS_AS(ops::conv2d(x, Tensor::zeros({4, 2, 3, 3}), std::nullopt), RuntimeError);
  CHECK_THROWS_WITH(ops::conv2d(x, Tensor::zeros({4, 2, 3, 3}), std::nullopt), Catch::StartsWith("conv2d:"));
  CHECK_THROWS_WITH(ops::conv2d(x, Tensor::zeros({4, 3, 3, 3}), Tensor::zeros({5})), Catch::Contains("bias"));
  CHECK_THROWS_AS(ops::conv2d(x, Tensor::zeros({4, 3, 9, 9}), std::nullopt), RuntimeError);
  CHECK_THROWS_AS(ops::conv2d(Tensor::zeros({1, 3, 8, 8}, DType::Int8), Tensor::zeros({4, 3, 3, 3}), std::nullopt),
                  TypeError);
  CHECK_THROWS_WITH(ops::linear(Tensor::zeros({2, 5}), Tensor::zeros({3, 4}), std::nullopt), Catch::StartsWith("linear:"));
  CHECK_THROWS_WITH(ops::add(Tensor::zeros({2, 3}), Tensor::zeros({4})), Catch::StartsWith("add:"));
  CHECK_THROWS_AS(ops::add(Tensor::zeros({2, 3}), Tensor::zeros({4})), RuntimeError);
  CHECK_THROWS_WITH(ops::cat({Tensor::zeros({2, 3}), Tensor::zeros({3, 3})}, 1), Catch::StartsWith("cat:"));
  CHECK_THROWS_AS(ops::cat({}, 0), RuntimeError);
  CHECK_THROWS_AS(ops::mean_dim(x, {4}), IndexError);
  CHECK_THROWS_AS(ops::flatten(x, 3, 1), RuntimeError);
  CHECK_THROWS_AS(ops::max_pool2d(Tensor::zeros({1, 1, 1, 1}), {2}), RuntimeError);
  CHECK_THROWS_WITH(ops::batch_norm(x, std::nullopt, std::nullopt, Tensor::zeros({4}), Tensor::zeros({3})),
                    Catch::StartsWith("batch_norm:"));
  CHECK_THROWS_AS(ops::hardtanh(x, 1.0, -1.0), ValueError);
}
