// test_quantize_ops.cpp — argument checks and special values of the quantize / dequantize /
// choose_qparams / fake_quantize ops and sqnr: dtype and range errors, axis errors, NaN (quantize
// raises; fake quant maps it to quant_min with mask 0, as torch's kernel does), ±inf, per-channel
// layout on a middle axis, round half to even.
#include "golden.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "quant/quantize.h"

using namespace pt;

namespace {
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
Tensor f32(std::vector<float> v) { const int64_t n = static_cast<int64_t>(v.size()); return Tensor::from<float>(v, {n}); }
}  // namespace

TEST_CASE("quantize_per_tensor rounds half to even, clamps and checks its arguments", "[quantize]") {
  const Tensor x = f32({-1.25f, -0.75f, -0.25f, 0.25f, 0.75f, 1.25f, 100.0f, -100.0f, kInf, -kInf});
  const Tensor q = quantize_per_tensor(x, 0.5, 0, -128, 127, DType::Int8);
  const std::vector<int8_t> want = {-2, -2, 0, 0, 2, 2, 127, -128, 127, -128};
  CHECK(std::vector<int8_t>(q.data<int8_t>(), q.data<int8_t>() + q.numel()) == want);
  const Tensor u = quantize_per_tensor(f32({0.0f, 1.0f}), 0.1, 128, 0, 255, DType::UInt8);
  CHECK(u.data<uint8_t>()[0] == 128);
  CHECK(u.data<uint8_t>()[1] == 138);

  CHECK_THROWS_AS(quantize_per_tensor(f32({kNaN}), 0.1, 0, -128, 127, DType::Int8), ValueError);
  CHECK_THROWS_AS(quantize_per_tensor(Tensor::zeros({2}, DType::Int8), 0.1, 0, -128, 127, DType::Int8), TypeError);
  CHECK_THROWS_WITH(quantize_per_tensor(x, 0.1, 0, -129, 127, DType::Int8), Catch::Contains("quant_min out of bound"));
  CHECK_THROWS_AS(quantize_per_tensor(x, 0.1, 0, 0, 256, DType::UInt8), ValueError);
  CHECK_THROWS_AS(quantize_per_tensor(x, 0.1, 0, 0, 255, DType::Float32), ValueError);
}

TEST_CASE("dequantize checks the input dtype", "[quantize]") {
  const Tensor q = Tensor::from<int8_t>({-3, 0, 5}, {3});
  const Tensor d = dequantize_per_tensor(q, 0.5, 1, -128, 127, DType::Int8);
  CHECK(d.data<float>()[0] == -2.0f);
  CHECK(d.data<float>()[2] == 2.0f);
  CHECK_THROWS_AS(dequantize_per_tensor(q, 0.5, 1, 0, 255, DType::UInt8), TypeError);
  const Tensor none = dequantize_per_channel(q.reshape({3, 1}), f32({1.0f, 2.0f, 3.0f}), std::nullopt, 0, -128, 127,
                                             DType::Int8);
  CHECK(none.data<float>()[2] == 15.0f);  // zero_points None: all zero
}

TEST_CASE("per-channel ops follow the channel of a middle axis and check shapes", "[quantize]") {
  // shape [2, 3, 2], axis 1: element (i, c, k) uses channel c.
  Tensor x = Tensor::full({2, 3, 2}, 1.0f);
  const Tensor scales = f32({1.0f, 0.5f, 0.25f});
  const Tensor zps = Tensor::from<int32_t>({0, 1, -1}, {3});
  const Tensor q = quantize_per_channel(x, scales, zps, 1, -128, 127, DType::Int8);
  const std::vector<int8_t> want = {1, 1, 3, 3, 3, 3, 1, 1, 3, 3, 3, 3};
  CHECK(std::vector<int8_t>(q.data<int8_t>(), q.data<int8_t>() + 12) == want);
  const Tensor neg = quantize_per_channel(x, scales, zps, -2, -128, 127, DType::Int8);  // axis -2 == 1
  CHECK(std::vector<int8_t>(neg.data<int8_t>(), neg.data<int8_t>() + 12) == want);
  const Tensor back = dequantize_per_channel(q, scales, zps, 1, -128, 127, DType::Int8);
  for (float v : back.span<float>()) CHECK(v == 1.0f);

  CHECK_THROWS_AS(quantize_per_channel(x, f32({1.0f, 1.0f}), zps, 1, -128, 127, DType::Int8), ValueError);
  CHECK_THROWS_AS(quantize_per_channel(x, scales, zps, 3, -128, 127, DType::Int8), IndexError);
  CHECK_THROWS_AS(quantize_per_channel(x, scales, Tensor::zeros({3}), 1, -128, 127, DType::Int8), TypeError);
  CHECK_THROWS_AS(fake_quantize_per_channel_affine(x, scales, zps, -1, -128, 127), RuntimeError);  // torch: 0 <= axis
}

TEST_CASE("fake quantize: NaN goes to quant_min, inf clamps, both with mask 0", "[fake_quant]") {
  const FakeQuantOutput r = fake_quantize_per_tensor_affine_cachemask(f32({kNaN, kInf, -kInf, 0.3f}), 0.1f, 3, -128, 127);
  CHECK(r.output.data<float>()[0] == static_cast<float>(-128 - 3) * 0.1f);
  CHECK(r.output.data<float>()[1] == static_cast<float>(127 - 3) * 0.1f);
  CHECK(r.output.data<float>()[2] == static_cast<float>(-128 - 3) * 0.1f);
  CHECK(r.output.data<float>()[3] == 3.0f * 0.1f);
  const std::vector<uint8_t> mask(r.mask.data<uint8_t>(), r.mask.data<uint8_t>() + 4);
  CHECK(mask == std::vector<uint8_t>{0, 0, 0, 1});

  CHECK_THROWS_AS(fake_quantize_per_tensor_affine(f32({1.0f}), 0.1f, 200, -128, 127), RuntimeError);
  CHECK_THROWS_AS(fake_quantize_per_tensor_affine(f32({1.0f}), 0.1f, 0, 5, -5), RuntimeError);
  CHECK_THROWS_AS(fake_quantize_per_channel_affine(Tensor::zeros({2, 2}), f32({1.0f, 1.0f}),
                                                   Tensor::from<int32_t>({0, 300}, {2}), 0, -128, 127),
                  RuntimeError);
  CHECK_THROWS_AS(fake_quantize_backward(Tensor::zeros({3}), Tensor::zeros({2}, DType::UInt8)), ValueError);
}

TEST_CASE("choose_qparams: dynamic, never a customized range", "[quantize]") {
  const Tensor x = f32({-1.0f, 0.5f, 2.0f});
  const QParams sym = choose_qparams_symmetric(x, 0, 255, 0x1p-12f, DType::UInt8);
  CHECK(sym.zero_point.data<int32_t>()[0] == 128);  // has_customized_qrange = false
  CHECK(choose_qparams(x, -128, 127, 0x1p-12f, DType::Int8).scale.data<float>()[0] == 3.0f / 255.0f);
  CHECK_THROWS_AS(choose_qparams(Tensor::empty({0}), -128, 127, 0x1p-12f, DType::Int8), RuntimeError);
  CHECK_THROWS_AS(choose_qparams(x, 1, 127, 0x1p-12f, DType::Int8), ValueError);
  CHECK_THROWS_AS(choose_qparams(x, -128, 127, 0x1p-12f, DType::Float32), ValueError);
}

TEST_CASE("sqnr: +inf for identical tensors, shapes must agree", "[sqnr]") {
  const Tensor x = f32({1.0f, -2.0f, 3.0f});
  CHECK(std::isinf(sqnr(x, x)));
  const Tensor y = f32({1.0f, -2.0f, 3.1f});
  const double expected = 20.0 * std::log10(std::sqrt(14.0) / std::fabs(static_cast<double>(3.0f - 3.1f)));
  CHECK(sqnr(x, y) == Approx(expected).epsilon(1e-6));
  CHECK_THROWS_AS(sqnr(x, f32({1.0f})), ValueError);
}

// aminmax scans through kernels::f32_aminmax; where the kernel cannot say which element an end is (a zero
// end, whose sign it drops, or NaN) it returns the element a plain left-to-right scan keeping the first of
// equal values returns — checked against that scan, bit for bit, on runs with zeros of both signs and NaN.
TEST_CASE("aminmax returns a plain scan's elements: the first zero's sign, the first NaN", "[quantize]") {
  const auto scan = [](const std::vector<float>& v) {
    MinMax mm{v[0], v[0]};
    for (float x : v) {
      if (std::isnan(x)) return MinMax{x, x};
      mm.min = std::min(mm.min, x);
      mm.max = std::max(mm.max, x);
    }
    return mm;
  };
  const auto bits = [](float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; };
  const float neg_nan = -std::numeric_limits<float>::quiet_NaN();
  std::vector<std::vector<float>> runs = {{-0.0f, 1.0f}, {0.0f, -0.0f, 1.0f}, {-0.0f, 0.0f, 1.0f}, {-1.0f, -0.0f, 0.0f},
                                          {2.0f, kNaN, neg_nan}, {neg_nan, 1.0f, kNaN}, {kInf, -kInf}, {-0.0f}};
  uint32_t seed = 7;
  for (size_t n : {3u, 4u, 5u, 17u, 64u, 1000u}) {  // longer runs: the kernel's lanes and its tail
    std::vector<float> v(n);
    for (float& x : v) {
      seed = seed * 1664525u + 1013904223u;
      const uint32_t r = seed >> 24;
      x = r < 40 ? -0.0f : r < 80 ? 0.0f : r < 82 ? kNaN : static_cast<float>(r % 7) - 6.0f;  // ends at zero often
    }
    runs.push_back(v);
    std::replace_if(v.begin(), v.end(), [](float x) { return std::isnan(x); }, 0.0f);
    runs.push_back(v);
  }
  for (const auto& v : runs) {
    const MinMax ours = aminmax(v), want = scan(v);
    INFO("run of " << v.size());
    CHECK(bits(ours.min) == bits(want.min));
    CHECK(bits(ours.max) == bits(want.max));
  }
}
