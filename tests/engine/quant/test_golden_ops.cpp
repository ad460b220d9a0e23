// test_golden_ops.cpp — quantize / dequantize (per tensor and per channel), choose_qparams,
// fake_quantize_per_tensor / per_channel (output and STE mask) and sqnr against torch 1.13
// (tests/golden/quant/cases.json). Quantized ints and dequantized / fake-quantized floats are
// compared byte for byte; sqnr to 1e-4 dB (torch's float32 norm reduction order is not ours).
#include "golden.h"

#include "quant/quantize.h"

using namespace pt;
using namespace golden;

namespace {

Tensor float_tensor(const std::vector<uint32_t>& bit_patterns) {
  Tensor t = Tensor::empty({static_cast<int64_t>(bit_patterns.size())});
  for (size_t i = 0; i < bit_patterns.size(); ++i) t.data<float>()[i] = from_bits(bit_patterns[i]);
  return t;
}

Tensor int32_tensor(const std::vector<int64_t>& values) {
  std::vector<int32_t> v(values.begin(), values.end());
  return Tensor::from<int32_t>(v, {static_cast<int64_t>(v.size())});
}

}  // namespace

TEST_CASE("quantize and dequantize match torch 1.13 byte for byte", "[quantize][golden]") {
  const Json& cases = quant_golden()["quantize"];
  REQUIRE(cases.size() >= 15);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    INFO("case " << i << ": " << c["op"].str << " on " << c["input"].str << " " << c["dtype"].str << " "
                 << c["quant_min"].i64() << ".." << c["quant_max"].i64());
    const Tensor x = golden_data(c["input"].str);
    const DType dtype = dtype_from_name(c["dtype"].str);
    const int64_t qmin = c["quant_min"].i64(), qmax = c["quant_max"].i64();
    Tensor q, dq;
    if (c["op"].str == "per_tensor") {
      const double scale = from_bits(c["scale_bits"].u32());
      const int64_t zp = c["zero_point"].i64();
      q = quantize_per_tensor(x, scale, zp, qmin, qmax, dtype);
      dq = dequantize_per_tensor(q, scale, zp, qmin, qmax, dtype);
    } else {
      const Tensor scales = float_tensor(json_u32(c["scales_bits"]));
      const Tensor zps = int32_tensor(json_i64(c["zero_points"]));
      const int64_t axis = c["axis"].i64();
      q = quantize_per_channel(x, scales, zps, axis, qmin, qmax, dtype);
      dq = dequantize_per_channel(q, scales, zps, axis, qmin, qmax, dtype);
    }
    CHECK(q.dtype() == dtype);
    CHECK(q.shape() == x.shape());
    CHECK(byte_mismatches(q, c["q"].str) == 0);
    CHECK(byte_mismatches(dq, c["dq"].str) == 0);
  }
}

TEST_CASE("choose_qparams matches torch 1.13's determine_qparams", "[quantize][golden]") {
  const Json& cases = quant_golden()["choose_qparams"];
  REQUIRE(cases.size() >= 40);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    INFO("case " << i << ": " << c["input"].str << " " << c["dtype"].str << " " << c["quant_min"].i64() << ".."
                 << c["quant_max"].i64() << (c["symmetric"].b ? " symmetric" : " affine") << " eps " << c["eps"].num);
    const Tensor x = golden_data(c["input"].str);
    const DType dtype = dtype_from_name(c["dtype"].str);
    const float eps = static_cast<float>(c["eps"].num);
    const QParams qp = c["symmetric"].b
                           ? choose_qparams_symmetric(x, c["quant_min"].i64(), c["quant_max"].i64(), eps, dtype)
                           : choose_qparams(x, c["quant_min"].i64(), c["quant_max"].i64(), eps, dtype);
    REQUIRE(qp.scale.numel() == 1);
    CHECK(bits(qp.scale.data<float>()[0]) == c["scale_bits"].u32());
    CHECK(qp.zero_point.data<int32_t>()[0] == c["zero_point"].i64());
  }
}

TEST_CASE("fake_quantize ops match torch 1.13 in output and STE mask", "[fake_quant][golden]") {
  const Json& cases = quant_golden()["fake_quantize_ops"];
  REQUIRE(cases.size() >= 9);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    INFO("case " << i << ": " << c["op"].str << " on " << c["input"].str);
    const Tensor x = golden_data(c["input"].str);
    const int64_t qmin = c["quant_min"].i64(), qmax = c["quant_max"].i64();
    FakeQuantOutput r;
    if (c["op"].str == "per_tensor") {
      r = fake_quantize_per_tensor_affine_cachemask(x, from_bits(c["scale_bits"].u32()), c["zero_point"].i64(), qmin,
                                                    qmax);
      CHECK(tensor_bits(fake_quantize_per_tensor_affine(x, from_bits(c["scale_bits"].u32()), c["zero_point"].i64(),
                                                        qmin, qmax)) == tensor_bits(r.output));
    } else {
      r = fake_quantize_per_channel_affine_cachemask(x, float_tensor(json_u32(c["scales_bits"])),
                                                     int32_tensor(json_i64(c["zero_points"])), c["axis"].i64(), qmin,
                                                     qmax);
    }
    CHECK(byte_mismatches(r.output, c["output"].str) == 0);
    CHECK(byte_mismatches(r.mask, c["mask"].str) == 0);
    // The STE backward passes the gradient exactly where the mask is set.
    const Tensor g = fake_quantize_backward(Tensor::full(x.shape(), 1.0f), r.mask);
    for (int64_t k = 0; k < x.numel(); ++k) CHECK(g.data<float>()[k] == static_cast<float>(r.mask.data<uint8_t>()[k]));
  }
}

TEST_CASE("sqnr is torchao's 20·log10(‖x‖/‖x−y‖)", "[sqnr][golden]") {
  const Json& cases = quant_golden()["sqnr"];
  REQUIRE(cases.size() == 3);
  for (const Json& c : cases.arr) {
    const Tensor x = golden_data(c["x"].str);
    const Tensor y = fake_quantize_per_tensor_affine(x, static_cast<float>(c["scale"].num), c["zero_point"].i64(), -128, 127);
    INFO(c["x"].str << " torch " << c["sqnr"].num);
    CHECK(sqnr(x, y) == Approx(c["sqnr"].num).margin(1e-4));
  }
}
