// test_conv_winograd.cpp — conv2d's gradients on ConvGeometry::winograd_gradients() (3x3, stride 1, padding 1, 8 or more
// channels a group; ops/backward.cpp's Winograd transforms) against their definitions summed in double:
//   dx[n, c, y, x] = Σ_{o, i, j} grad[n, o, y + 1 − i, x + 1 − j] · w[o, c, i, j]   (inside the output),
//   dw[o, c, i, j] = Σ_{n, y, x} grad[n, o, y, x] · x[n, c, y + i − 1, x + j − 1]     (inside the input),
// to 1e-5 of each tensor's largest magnitude, on shapes that take the transforms' every edge: odd heights and
// widths, planes of one row or column, channel counts that are not multiples of four, groups, and batches that
// go through in several chunks. The torch goldens (train/test_grad_ops.cpp, conv_d / conv_e) check the same path
// against torch; this test reaches the shapes those files would be too large for.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/generator.h"
#include "ops/backward.h"
#include "ops/im2col.h"

using namespace pt;

namespace {

struct Case {
  int64_t N, C, O, H, W, groups;
};

void check_near(const char* what, const Case& k, const Tensor& ours, const std::vector<double>& want) {
  double peak = 0, worst = 0;
  for (double v : want) peak = std::max(peak, std::abs(v));
  const float* p = ours.data<float>();
  for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(static_cast<double>(p[i]) - want[i]));
  INFO(what << " N=" << k.N << " C=" << k.C << " O=" << k.O << " H=" << k.H << " W=" << k.W << " groups=" << k.groups
            << ": max |ours - definition| = " << worst << ", largest " << peak);
  CHECK(worst <= 1e-5 * peak);
}

}  // namespace

TEST_CASE("conv2d's Winograd gradients equal their definitions on every edge of the tiling") {
  const Case cases[] = {
      {2, 8, 8, 8, 8, 1},    {3, 9, 10, 7, 5, 1}, {1, 8, 12, 1, 9, 1}, {2, 11, 8, 6, 1, 1},  {2, 16, 16, 5, 6, 2},
      {1, 24, 9, 3, 3, 1},   {2, 8, 8, 2, 2, 1},  {2, 10, 13, 9, 11, 1},
      {7, 8, 8, 20, 20, 1},  // 100 tiles a plane: chunks of 5 images, the second one short
      {3, 8, 8, 64, 64, 1},  // 1 024 tiles a plane: one image a chunk
  };
  Generator gen(11);
  for (const Case& k : cases) {
    const int64_t Cg = k.C / k.groups, Og = k.O / k.groups;
    const Tensor x = randn({k.N, k.C, k.H, k.W}, gen), w = randn({k.O, Cg, 3, 3}, gen), g = randn({k.N, k.O, k.H, k.W}, gen);
    REQUIRE(ops::conv2d_geometry(x.shape(), w.shape(), {1, 1}, {1, 1}, {1, 1}, k.groups).winograd_gradients());
    const Tensor dx = ops::conv2d_backward_input(g, w, x.shape(), {1, 1}, {1, 1}, {1, 1}, k.groups);
    const Tensor dw = ops::conv2d_backward_weight(g, x, w.shape(), {1, 1}, {1, 1}, {1, 1}, k.groups);
    std::vector<double> want_dx(static_cast<size_t>(x.numel())), want_dw(static_cast<size_t>(w.numel()));
    const float *xp = x.data<float>(), *wp = w.data<float>(), *gp = g.data<float>();
    for (int64_t n = 0; n < k.N; ++n)
      for (int64_t o = 0; o < k.O; ++o)
        for (int64_t c = 0; c < Cg; ++c) {
          const int64_t ci = o / Og * Cg + c;  // the input channel of o's group
          for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 3; ++j) {
              const double wv = wp[((o * Cg + c) * 3 + i) * 3 + j];
              double sw = 0;
              for (int64_t y = 0; y < k.H; ++y)
                for (int64_t xx = 0; xx < k.W; ++xx) {
                  const int64_t iy = y + i - 1, ix = xx + j - 1;
                  if (iy < 0 || iy >= k.H || ix < 0 || ix >= k.W) continue;
                  const double gv = gp[((n * k.O + o) * k.H + y) * k.W + xx];
                  sw += gv * xp[((n * k.C + ci) * k.H + iy) * k.W + ix];
                  want_dx[static_cast<size_t>(((n * k.C + ci) * k.H + iy) * k.W + ix)] += gv * wv;
                }
              want_dw[static_cast<size_t>(((o * Cg + c) * 3 + i) * 3 + j)] += sw;
            }
        }
    check_near("dx", k, dx, want_dx);
    check_near("dw", k, dw, want_dw);
  }
}

TEST_CASE("conv2d saves no im2col columns where its gradients go through Winograd") {
  ops::SavedForBackward saved;
  {
    const ops::SaveForBackward scope(saved);
    ops::conv2d(Tensor::zeros({2, 8, 6, 6}), Tensor::zeros({8, 8, 3, 3}), std::nullopt, {1, 1}, {1, 1});
  }
  CHECK_FALSE(saved.conv_columns);
}
