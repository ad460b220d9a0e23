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

// The geometries both tests walk: the first eight take the stride-1 same-width path (3x3, 3x5, 5x3, 1x3, dilation 2,
// a 1x1 and a 16x16 plane), the last three do not (stride 2, no padding, a 2x2 window).
struct Geo {
  int64_t C, H, W, KH, KW, s, ph, pw, d;
};
const Geo kGeos[] = {
    {3, 8, 8, 3, 3, 1, 1, 1, 1}, {2, 4, 4, 3, 3, 1, 1, 1, 1}, {2, 5, 7, 3, 5, 1, 1, 2, 1}, {1, 1, 1, 3, 3, 1, 1, 1, 1},
    {2, 6, 6, 3, 3, 1, 2, 2, 2}, {2, 9, 3, 5, 3, 1, 2, 1, 1}, {1, 2, 3, 1, 3, 1, 0, 1, 1}, {2, 16, 16, 3, 3, 1, 1, 1, 1},
    {2, 7, 6, 3, 3, 2, 1, 1, 1}, {2, 6, 6, 3, 3, 1, 0, 0, 1}, {1, 5, 5, 2, 2, 1, 1, 1, 1},
};
ops::ConvGeometry geometry(const Geo& q) {
  return ops::conv2d_geometry({1, q.C, q.H, q.W}, {4, q.C, q.KH, q.KW}, {q.s, q.s}, {q.ph, q.pw}, {q.d, q.d}, 1);
}

// The definition: f(column entry, image element or -1 in the padding) for every (c, kh, kw, oh, ow) in that order.
template <class F> void for_each_window(const ops::ConvGeometry& g, F f) {
  for (int64_t c = 0; c < g.Cg; ++c)
    for (int64_t kh = 0; kh < g.KH; ++kh)
      for (int64_t kw = 0; kw < g.KW; ++kw)
        for (int64_t oh = 0; oh < g.OH; ++oh)
          for (int64_t ow = 0; ow < g.OW; ++ow) {
            const int64_t ih = oh * g.sh - g.ph + kh * g.dh, iw = ow * g.sw - g.pw + kw * g.dw;
            const bool inside = ih >= 0 && ih < g.H && iw >= 0 && iw < g.W;
            f((((c * g.KH + kh) * g.KW + kw) * g.OH + oh) * g.OW + ow, inside ? (c * g.H + ih) * g.W + iw : -1);
          }
}

bool same_bits(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }

const float kSpecial[] = {-0.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN()};

}  // namespace

TEST_CASE("col2im is its definition's sums bit for bit, on the stride-1 same-width path and off it", "[ops][col2im]") {
  Generator gen(31);
  int on_path = 0;
  for (const Geo& q : kGeos) {
    const ops::ConvGeometry g = geometry(q);
    on_path += g.same_width();
    const Tensor r = randn({g.K() * g.P()}, gen);
    std::vector<float> cols(r.data<float>(), r.data<float>() + r.numel());
    for (size_t i = 0; i < cols.size(); i += 7) cols[i] = kSpecial[(i / 7) % 4];
    std::vector<float> x(static_cast<size_t>(g.Cg * g.H * g.W), 0.0f), want = x;
    ops::col2im(cols.data(), g, x.data());
    for_each_window(g, [&](int64_t col, int64_t at) {
      if (at >= 0) want[at] += cols[col];
    });
    int differ = 0;
    for (size_t i = 0; i < x.size(); ++i) differ += !same_bits(x[i], want[i]);
    INFO("C " << q.C << " H " << q.H << " W " << q.W << " k " << q.KH << "x" << q.KW << " stride " << q.s << " pad " << q.ph
              << "," << q.pw << " dilation " << q.d);
    CHECK(differ == 0);
  }
  CHECK(on_path == 8);
}

TEST_CASE("im2col is its definition's columns bit for bit, on the stride-1 same-width path and off it", "[ops][col2im]") {
  Generator gen(32);
  for (const Geo& q : kGeos) {
    const ops::ConvGeometry g = geometry(q);
    Tensor x = randn({q.C, q.H, q.W}, gen);
    for (int64_t i = 0; i < x.numel(); i += 5) x.data<float>()[i] = kSpecial[(i / 5) % 4];
    std::vector<float> cols(static_cast<size_t>(g.K() * g.P()), 1.0f);  // every entry written by im2col
    ops::im2col(x.data<float>(), g, cols.data());
    int differ = 0;
    for_each_window(g, [&](int64_t col, int64_t at) { differ += !same_bits(cols[col], at >= 0 ? x.data<float>()[at] : 0.0f); });
    INFO("C " << q.C << " H " << q.H << " W " << q.W << " k " << q.KH << "x" << q.KW << " stride " << q.s);
    CHECK(differ == 0);
  }
}
