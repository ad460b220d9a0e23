// test_qparams.cpp — calculate_qmin_qmax, qscheme names and calculate_qparams edge cases
// (docs/algorithms.md; as on torch 1.13): default and reduced ranges, range validation, the uint8 symmetric
// zero point 128 / 127, the −127..127 divisor, all-zero input with eps 2^-12, uninitialized stats,
// and the decided NaN / inf behaviour (ValueError).
#include "golden.h"

#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "quant/observer.h"
#include "quant/qparams.h"

using namespace pt;
using golden::bits;

namespace {
QRange range(std::optional<int64_t> lo, std::optional<int64_t> hi, DType d, bool reduce) {
  return calculate_qmin_qmax(lo, hi, d, reduce);
}
bool same(QRange r, int64_t lo, int64_t hi) { return r.quant_min == lo && r.quant_max == hi; }
}  // namespace

TEST_CASE("calculate_qmin_qmax: dtype defaults and reduce_range", "[qparams]") {
  CHECK(same(range({}, {}, DType::Int8, false), -128, 127));
  CHECK(same(range({}, {}, DType::Int8, true), -64, 63));
  CHECK(same(range({}, {}, DType::UInt8, false), 0, 255));
  CHECK(same(range({}, {}, DType::UInt8, true), 0, 127));
  CHECK(same(range({}, {}, DType::Int16, false), -32768, 32767));
  CHECK(same(range({}, {}, DType::Int32, false), -2147483648LL, 2147483647LL));
  // Customized ranges are floor-halved: −127 → −64, 127 → 63, −128 → −64.
  CHECK(same(range(-127, 127, DType::Int8, true), -64, 63));
  CHECK(same(range(-128, 127, DType::Int8, true), -64, 63));
  CHECK(same(range(-127, 127, DType::Int8, false), -127, 127));
  CHECK(same(range(0, 255, DType::UInt8, false), 0, 255));
  CHECK(same(range(0, 15, DType::UInt8, true), 0, 7));
  // Only one bound given is not a customized range.
  CHECK(same(range(-5, {}, DType::Int8, false), -128, 127));
}

TEST_CASE("calculate_qmin_qmax: invalid customized ranges raise ValueError", "[qparams][errors]") {
  CHECK_THROWS_AS(range(1, 10, DType::UInt8, false), ValueError);      // must include 0
  CHECK_THROWS_AS(range(-10, -1, DType::Int8, false), ValueError);     // must include 0
  CHECK_THROWS_AS(range(0, 0, DType::Int8, false), ValueError);        // strictly less
  CHECK_THROWS_AS(range(5, -5, DType::Int8, false), ValueError);       // quant_min > quant_max
  CHECK_THROWS_AS(range(-200, 100, DType::Int8, false), ValueError);   // wider than 8 bits
  CHECK_THROWS_WITH(range(1, 10, DType::UInt8, false), Catch::Contains("must include 0"));
  CHECK_THROWS_WITH(validate_qmin_qmax(0, 0), Catch::Contains("strictly less"));
}

TEST_CASE("qscheme names round-trip and accept torch spellings", "[qparams]") {
  for (QScheme q : {QScheme::per_tensor_affine, QScheme::per_tensor_symmetric, QScheme::per_channel_affine,
                    QScheme::per_channel_symmetric, QScheme::per_channel_affine_float_qparams})
    CHECK(qscheme_from_name(qscheme_name(q)) == q);
  CHECK(qscheme_from_name("torch.per_channel_symmetric") == QScheme::per_channel_symmetric);
  CHECK_THROWS_AS(qscheme_from_name("per_token"), ValueError);
  CHECK(is_symmetric(QScheme::per_channel_symmetric));
  CHECK_FALSE(is_symmetric(QScheme::per_channel_affine_float_qparams));
  CHECK(is_per_channel(QScheme::per_channel_affine_float_qparams));
}

TEST_CASE("calculate_qparams: uninitialized and empty statistics give (1.0, 0)", "[qparams]") {
  const float inf = std::numeric_limits<float>::infinity();
  QParams qp = calculate_qparams(Tensor::scalar(inf), Tensor::scalar(-inf), -128, 127, QScheme::per_tensor_affine,
                                 DType::Int8, kFloat32Eps, false);
  REQUIRE(qp.scale.shape() == Shape{1});
  CHECK(qp.scale.data<float>()[0] == 1.0f);
  CHECK(qp.zero_point.data<int32_t>()[0] == 0);
  qp = calculate_qparams(Tensor::empty({0}), Tensor::empty({0}), -128, 127, QScheme::per_channel_affine, DType::Int8,
                         kFloat32Eps, false);
  CHECK(qp.scale.data<float>()[0] == 1.0f);
  MinMaxObserver fresh;
  CHECK(fresh.calculate_qparams().scale.data<float>()[0] == 1.0f);
}

TEST_CASE("calculate_qparams: edge cases checked on torch 1.13", "[qparams][seed-independent]") {
  const Tensor x = Tensor::from<float>({-1.5f, 0.25f, 2.0f}, {3});
  auto qparams_of = [&](ObserverArgs a, const Tensor& data) {
    MinMaxObserver o(a);
    o.forward(data);
    return o.calculate_qparams();
  };
  ObserverArgs a;
  a.dtype = DType::UInt8;
  a.qscheme = QScheme::per_tensor_symmetric;
  CHECK(qparams_of(a, x).zero_point.data<int32_t>()[0] == 128);  // quint8 symmetric, default range
  a.quant_min = 0;
  a.quant_max = 255;
  CHECK(qparams_of(a, x).zero_point.data<int32_t>()[0] == 127);  // customized 0..255: (0+255)//2

  ObserverArgs r;
  r.dtype = DType::Int8;
  r.reduce_range = true;
  CHECK((MinMaxObserver(r).quant_min() == -64 && MinMaxObserver(r).quant_max() == 63));
  r.quant_min = -127;
  r.quant_max = 127;
  CHECK((MinMaxObserver(r).quant_min() == -64 && MinMaxObserver(r).quant_max() == 63));

  ObserverArgs z;
  z.dtype = DType::Int8;
  z.eps = 0x1p-12f;
  const QParams qz = qparams_of(z, Tensor::zeros({16}));
  CHECK(bits(qz.scale.data<float>()[0]) == bits(0x1p-12f));  // 0.000244140625
  CHECK(qz.zero_point.data<int32_t>()[0] == -128);

  // The restricted −127..127 symmetric range divides by 127 (weights get absmax/127), −128..127 by 127.5.
  ObserverArgs w;
  w.dtype = DType::Int8;
  w.qscheme = QScheme::per_tensor_symmetric;
  w.quant_min = -127;
  w.quant_max = 127;
  CHECK(bits(qparams_of(w, x).scale.data<float>()[0]) == bits(2.0f / 127.0f));
  w.quant_min = -128;
  CHECK(bits(qparams_of(w, x).scale.data<float>()[0]) == bits(2.0f / 127.5f));
}

TEST_CASE("calculate_qparams: NaN, inf, min > max and shape mismatch raise ValueError", "[qparams][errors]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto calc = [](float mn, float mx) {
    return calculate_qparams(Tensor::scalar(mn), Tensor::scalar(mx), -128, 127, QScheme::per_tensor_affine,
                             DType::Int8, kFloat32Eps, false);
  };
  CHECK_THROWS_AS(calc(nan, nan), ValueError);
  CHECK_THROWS_WITH(calc(nan, nan), Catch::Contains("should be less than max"));
  CHECK_THROWS_AS(calc(2.0f, 1.0f), ValueError);
  CHECK_THROWS_AS(calc(1.0f, inf), ValueError);
  CHECK_THROWS_WITH(calc(-inf, 1.0f), Catch::Contains("finite"));
  CHECK_THROWS_AS(calculate_qparams(Tensor::zeros({2}), Tensor::zeros({3}), -128, 127, QScheme::per_channel_affine,
                                    DType::Int8, kFloat32Eps, false),
                  ValueError);
}

TEST_CASE("a scale of 0 (eps 0, an all-zero range) gives torch 1.13's zero points: qint8 127, quint8 0", "[qparams]") {
  // torch: MinMaxObserver(eps=0.0, dtype=...)(torch.zeros(4)).calculate_qparams() and the per-channel observer on
  // torch.zeros(2, 3): scale 0; round(0 / 0).to(torch.int) is INT32_MIN, quant_min - INT32_MIN wraps in int32.
  for (const auto& [dtype, qmin, qmax, zp] : std::vector<std::tuple<DType, int64_t, int64_t, int32_t>>{
           {DType::Int8, -128, 127, 127}, {DType::UInt8, 0, 255, 0}}) {
    const QParams qp = calculate_qparams(Tensor::zeros({2}), Tensor::zeros({2}), qmin, qmax, QScheme::per_channel_affine,
                                         dtype, 0.0f, false);
    CHECK(qp.scale.data<float>()[0] == 0.0f);
    CHECK(qp.zero_point.data<int32_t>()[0] == zp);
    CHECK(qp.zero_point.data<int32_t>()[1] == zp);
  }
}
