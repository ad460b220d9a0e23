// test_im2col.cpp — ops::im2col and its adjoint ops::col2im (ops/im2col.h), which conv2d and its input gradient use,
// against their definitions written out here: cols[(c, kh, kw)][(oh, ow)] = x[c, ih, iw] (0 in the padding), and
// x[c, ih, iw] += cols[(c, kh, kw)][(oh, ow)] for every window position inside the image, from +0, in the order c, kh,
// kw, oh, ow. Compared bit for bit (NaN with NaN), on geometries that take the stride-1 same-width path (one run per
// column row, edges masked) and on ones that do not; the values include negative zeros, infinities and NaN.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/generator.h"
#include "ops/im2col.h"

using namespace pt;

namespace {

std::vector<float> reference(const std::vector<float>& cols, const ops::ConvGeometry& g) {
  std::vector<float> x(static_cast<size_t>(g.Cg * g.H * g.W), 0.0f);
  for (int64_t c = 0; c < g.Cg; ++c)
    for (int64_t kh = 0; kh < g.KH; ++kh)
      for (int64_t kw = 0; kw < g.KW; ++kw)
        for (int64_t oh = 0; oh < g.OH; ++oh)
          for (int64_t ow = 0; ow < g.OW; ++ow) {
            const int64_t ih = oh * g.sh - g.ph + kh * g.dh, iw = ow * g.sw - g.pw + kw * g.dw;
            if (ih < 0 || ih >= g.H || iw < 0 || iw >= g.W) continue;
            x[(c * g.H + ih) * g.W + iw] += cols[(((c * g.KH + kh) * g.KW + kw) * g.OH + oh) * g.OW + ow];
          }
  return x;
}

bool same_bits(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("col2im is its definition's sums bit for bit, on the stride-1 same-width path and off it", "[ops][col2im]") {
  struct Geo {
    int64_t C, H, W, KH, KW, s, ph, pw, d;
  };
  const Geo geos[] = {
      {3, 8, 8, 3, 3, 1, 1, 1, 1},    {2, 4, 4, 3, 3, 1, 1, 1, 1},  {2, 5, 7, 3, 5, 1, 1, 2, 1}, {1, 1, 1, 3, 3, 1, 1, 1, 1},
      {2, 6, 6, 3, 3, 1, 2, 2, 2},    {2, 9, 3, 5, 3, 1, 2, 1, 1},  {1, 2, 3, 1, 3, 1, 0, 1, 1}, {2, 16, 16, 3, 3, 1, 1, 1, 1},
      {2, 7, 6, 3, 3, 2, 1, 1, 1},    {2, 6, 6, 3, 3, 1, 0, 0, 1},  {1, 5, 5, 2, 2, 1, 1, 1, 1},  // off the path
  };
  Generator gen(31);
  const float special[] = {-0.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()};
  int on_path = 0;
  for (const Geo& q : geos) {
    const ops::ConvGeometry g = ops::conv2d_geometry({1, q.C, q.H, q.W}, {4, q.C, q.KH, q.KW}, {q.s, q.s}, {q.ph, q.pw},
                                                     {q.d, q.d}, 1);
    on_path += g.sh == 1 && g.sw == 1 && g.OW == g.W;
    const Tensor r = randn({g.K() * g.P()}, gen);
    std::vector<float> cols(r.data<float>(), r.data<float>() + r.numel());
    for (size_t i = 0; i < cols.size(); i += 7) cols[i] = special[(i / 7) % 4];
    std::vector<float> x(static_cast<size_t>(g.Cg * g.H * g.W), 0.0f);
    ops::col2im(cols.data(), g, x.data());
    const std::vector<float> want = reference(cols, g);
    int differ = 0;
    for (size_t i = 0; i < x.size(); ++i) differ += !same_bits(x[i], want[i]);
    INFO("C " << q.C << " H " << q.H << " W " << q.W << " k " << q.KH << "x" << q.KW << " stride " << q.s << " pad " << q.ph
              << "," << q.pw << " dilation " << q.d);
    CHECK(differ == 0);
  }
  CHECK(on_path == 8);  // the first eight take the one-run path
}

TEST_CASE("im2col is its definition's columns bit for bit, on the stride-1 same-width path and off it", "[ops][col2im]") {
  struct Geo {
    int64_t C, H, W, KH, KW, s, ph, pw, d;
  };
  const Geo geos[] = {
      {3, 8, 8, 3, 3, 1, 1, 1, 1}, {2, 4, 4, 3, 3, 1, 1, 1, 1}, {2, 5, 7, 3, 5, 1, 1, 2, 1}, {1, 1, 1, 3, 3, 1, 1, 1, 1},
      {2, 6, 6, 3, 3, 1, 2, 2, 2}, {2, 9, 3, 5, 3, 1, 2, 1, 1}, {2, 7, 6, 3, 3, 2, 1, 1, 1}, {1, 5, 5, 2, 2, 1, 1, 1, 1},
  };
  Generator gen(32);
  const float special[] = {-0.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
  for (const Geo& q : geos) {
    const ops::ConvGeometry g = ops::conv2d_geometry({1, q.C, q.H, q.W}, {4, q.C, q.KH, q.KW}, {q.s, q.s}, {q.ph, q.pw},
                                                     {q.d, q.d}, 1);
    Tensor x = randn({q.C, q.H, q.W}, gen);
    for (int64_t i = 0; i < x.numel(); i += 5) x.data<float>()[i] = special[(i / 5) % 3];
    std::vector<float> cols(static_cast<size_t>(g.K() * g.P()), 1.0f);  // every entry written by im2col
    ops::im2col(x.data<float>(), g, cols.data());
    int differ = 0;
    for (int64_t c = 0; c < g.Cg; ++c)
      for (int64_t kh = 0; kh < g.KH; ++kh)
        for (int64_t kw = 0; kw < g.KW; ++kw)
          for (int64_t oh = 0; oh < g.OH; ++oh)
            for (int64_t ow = 0; ow < g.OW; ++ow) {
              const int64_t ih = oh * g.sh - g.ph + kh * g.dh, iw = ow * g.sw - g.pw + kw * g.dw;
              const float want = ih < 0 || ih >= g.H || iw < 0 || iw >= g.W ? 0.0f : x.data<float>()[(c * g.H + ih) * g.W + iw];
              differ += !same_bits(cols[(((c * g.KH + kh) * g.KW + kw) * g.OH + oh) * g.OW + ow], want);
            }
    INFO("C " << q.C << " H " << q.H << " W " << q.W << " k " << q.KH << "x" << q.KW << " stride " << q.s);
    CHECK(differ == 0);
  }
}
