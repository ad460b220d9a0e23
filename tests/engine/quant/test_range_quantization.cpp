// test_range_quantization.cpp — what quantizing values through a range does (quant/range_quantization.h,
// the numbers a histogram's draggable range shows): its qparams are calculate_qparams' for the range,
// its SQNR is 20·log10(‖x‖/‖x−x̂‖) of the values fake-quantized with them (recomputed here in double,
// from the fake-quant kernel rather than the q/dq pair range_quantization uses), its clipped share
// counts the values outside the grid, and bad input raises ValueError naming the field.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/generator.h"
#include "quant/qparams.h"
#include "quant/quantize.h"
#include "quant/range_quantization.h"

using namespace pt;

namespace {

std::vector<float> randn_values(int64_t n) {
  pt::manual_seed(0);
  const pt::Tensor x = pt::randn({n});
  return {x.data<float>(), x.data<float>() + n};
}

pt::QParams engine_qparams(double min, double max, const RangeQuant& q) {
  return pt::calculate_qparams(pt::Tensor::scalar(static_cast<float>(min)), pt::Tensor::scalar(static_cast<float>(max)),
                               q.quant_min, q.quant_max,
                               q.symmetric ? pt::QScheme::per_tensor_symmetric : pt::QScheme::per_tensor_affine,
                               q.dtype, pt::kFloat32Eps, /*has_customized_qrange=*/true);
}

// 20·log10(‖x‖/‖x−x̂‖) in double, x̂ from torch.fake_quantize_per_tensor_affine's kernel.
double direct_sqnr(const std::vector<float>& v, float scale, int64_t zp, const RangeQuant& q) {
  const pt::Tensor x = pt::Tensor::from(v, {static_cast<int64_t>(v.size())});
  const pt::Tensor y = pt::fake_quantize_per_tensor_affine(x, scale, zp, q.quant_min, q.quant_max);
  double ps = 0, pn = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const double a = v[i], e = a - static_cast<double>(y.data<float>()[i]);
    ps += a * a;
    pn += e * e;
  }
  return 20.0 * std::log10(std::sqrt(ps) / std::sqrt(pn));
}

}  // namespace

TEST_CASE("range quantization: qparams are calculate_qparams' for the range, SQNR is the fake-quantized values'", "[range_quantization]") {
  const std::vector<float> v = randn_values(4000);
  struct Case { RangeQuant q; double min, max; };
  const Case cases[] = {
      {{-128, 127, false, pt::DType::Int8}, -2.5, 3.0},   // affine, a range inside the data: some values clip
      {{-128, 127, false, pt::DType::Int8}, 0.5, 4.0},    // min above 0: calculate_qparams widens it to 0
      {{-128, 127, true, pt::DType::Int8}, -1.0, 2.0},    // symmetric: the larger side sets the scale
      {{0, 255, true, pt::DType::UInt8}, -3.0, 3.0},      // uint8 symmetric, customized range: zp (0+255)//2
      {{-8, 7, false, pt::DType::Int8}, -4.0, 4.0},       // a 4-bit grid in int8
  };
  for (const Case& c : cases) {
    CAPTURE(c.min, c.max, c.q.quant_min, c.q.quant_max, c.q.symmetric);
    const RangeQuantization r = range_quantization(v, c.min, c.max, c.q);
    const pt::QParams qp = engine_qparams(c.min, c.max, c.q);
    CHECK(r.scale == qp.scale.data<float>()[0]);
    CHECK(r.zero_point == qp.zero_point.data<int32_t>()[0]);
    CHECK(r.sqnr == Approx(direct_sqnr(v, static_cast<float>(r.scale), r.zero_point, c.q)).epsilon(1e-5));
    CHECK(r.sqnr > 0);
  }
  // The uint8 symmetric case really is centred (torch: has_customized_qrange), not torch's 128.
  CHECK(range_quantization(v, -3.0, 3.0, {0, 255, true, pt::DType::UInt8}).zero_point == 127);
}

TEST_CASE("range quantization: the clipped share counts the values whose code left the grid", "[range_quantization]") {
  // [-1, 1] in int8, affine: scale 2/255, zero point 0 or -1; codes of ±0.95 are about ±121 (inside),
  // -5, 1.5 and 4 fall far outside -128..127. By hand: 3 of 8.
  const std::vector<float> v = {-5.0f, -0.9f, -0.3f, 0.0f, 0.2f, 0.95f, 1.5f, 4.0f};
  const RangeQuant q;  // -128..127, affine, int8
  const RangeQuantization r = range_quantization(v, -1.0, 1.0, q);
  CHECK(r.clipped == 3.0 / 8.0);
  // Symmetric over [-2, 2] (scale 2/127.5): only -5 and 4 are outside.
  CHECK(range_quantization(v, -2.0, 2.0, {-128, 127, true, pt::DType::Int8}).clipped == 2.0 / 8.0);
  // A range covering every value clips none; pulling the max inward on randn clips some and costs SQNR.
  const std::vector<float> w = randn_values(4000);
  float lo = w[0], hi = w[0];
  for (float x : w) lo = std::min(lo, x), hi = std::max(hi, x);
  const RangeQuantization full = range_quantization(w, lo, hi, q);
  const RangeQuantization inward = range_quantization(w, lo, hi / 4, q);
  CHECK(full.clipped == 0);
  CHECK(inward.clipped > 0);
  int64_t above = 0;  // values past the grid's top: about those above hi / 4 (within a step)
  for (float x : w) above += x > hi / 4 + inward.scale ? 1 : 0;
  CHECK(inward.clipped * w.size() >= above);
  CHECK(inward.sqnr < full.sqnr);
}

TEST_CASE("range quantization: bad quant, range or values raise ValueError naming the field", "[range_quantization]") {
  const std::vector<float> v = {0.5f, 1.0f, 2.0f};
  using Catch::Matchers::Contains;
  REQUIRE_THROWS_AS(range_quantization(v, 0.0, 1.0, {1, 127, false, pt::DType::Int8}), pt::ValueError);
  REQUIRE_THROWS_WITH(range_quantization(v, 0.0, 1.0, {1, 127, false, pt::DType::Int8}), Contains("'quant.quant_min'"));
  REQUIRE_THROWS_WITH(range_quantization(v, 0.0, 1.0, {-128, 300, false, pt::DType::Int8}), Contains("'quant.quant_max'"));
  REQUIRE_THROWS_WITH(range_quantization(v, 0.0, 1.0, {-128, 127, false, pt::DType::Float32}), Contains("'quant.dtype'"));
  REQUIRE_THROWS_AS(range_quantization(v, 1.0, 1.0, {}), pt::ValueError);
  REQUIRE_THROWS_WITH(range_quantization(v, 1.0, 1.0, {}), Contains("'range'") && Contains("min < max"));
  REQUIRE_THROWS_WITH(range_quantization(v, 0.0, NAN, {}), Contains("'range'"));
  REQUIRE_THROWS_WITH(range_quantization(std::vector<float>{}, 0.0, 1.0, {}), Contains("'values'"));
  const std::vector<float> bad = {0.5f, 1.0f, NAN};
  REQUIRE_THROWS_AS(range_quantization(bad, 0.0, 1.0, {}), pt::ValueError);
  REQUIRE_THROWS_WITH(range_quantization(bad, 0.0, 1.0, {}), Contains("values[2]"));
}
