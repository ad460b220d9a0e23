// test_fake_quantize.cpp — FakeQuantize / FusedMovingAvgObsFakeQuantize behaviour: buffers, flags,
// constructor errors, state left unchanged by a failed forward, fbgemm's ChooseQuantizationParams
// corner cases against torch 1.13 (cases.json "fused_first_step"), and (checked on torch 1.13) the fused
// training-time scale differs from the convert-time observer scale on a 4×3×3×3 weight.
#include "golden.h"

#include <cmath>

#include "quant/fake_quantize.h"

using namespace pt;
using namespace golden;

namespace {
std::vector<std::string> buffer_names(const ObserverBase& o) {
  std::vector<std::string> n;
  for (const auto& b : o.named_buffers()) n.push_back(b.first);
  return n;
}
ObserverArgs int8_args(int64_t qmin = -128, int64_t qmax = 127) {
  ObserverArgs a;
  a.dtype = DType::Int8;
  a.quant_min = qmin;
  a.quant_max = qmax;
  return a;
}
}  // namespace

TEST_CASE("FakeQuantize wraps an observer with torchao's buffers and defaults", "[fake_quant]") {
  FakeQuantize fq;
  CHECK(std::string(fq.activation_post_process().type_name()) == "MovingAverageMinMaxObserver");
  CHECK((fq.quant_min() == 0 && fq.quant_max() == 255));
  CHECK(fq.dtype() == DType::UInt8);
  CHECK(fq.ch_axis() == -1);
  CHECK(buffer_names(fq) == std::vector<std::string>{"fake_quant_enabled", "observer_enabled", "scale", "zero_point",
                                                     "activation_post_process.eps",
                                                     "activation_post_process.min_val",
                                                     "activation_post_process.max_val"});
  CHECK(fq.named_buffers()[0].second.dtype() == DType::UInt8);
  CHECK(fq.scale().data<float>()[0] == 1.0f);
  CHECK(fq.zero_point().data<int32_t>()[0] == 0);
  FusedMovingAvgObsFakeQuantize fused;
  CHECK(fused.named_buffers()[0].second.dtype() == DType::Int32);
  CHECK((fused.quant_min() == 0 && fused.quant_max() == 255));
}

TEST_CASE("FakeQuantize flags switch observing and fake quantization", "[fake_quant]") {
  FakeQuantize fq(int8_args());
  const Tensor x = golden_data("gauss");
  fq.disable_fake_quant();
  CHECK_FALSE(fq.fake_quant_enabled());
  FakeQuantOutput r = fq.forward_cachemask(x);
  CHECK(r.output.same_storage(x));  // FakeQuantize returns X itself
  for (uint8_t m : r.mask.span<uint8_t>()) CHECK(m == 1);
  const std::vector<uint32_t> scale = tensor_bits(fq.scale());
  CHECK(scale != tensor_bits(Tensor::full({1}, 1.0f)));  // the observer ran and updated the buffers
  fq.disable_observer();
  fq.enable_fake_quant();
  r = fq.forward_cachemask(golden_data("t3"));
  CHECK(tensor_bits(fq.scale()) == scale);  // no observer: scale kept
  CHECK_FALSE(r.output.same_storage(x));

  FusedMovingAvgObsFakeQuantize fused(int8_args());
  fused.disable_fake_quant();
  r = fused.forward_cachemask(x);
  CHECK_FALSE(r.output.same_storage(x));  // the fused op returns a copy
  CHECK(tensor_bits(r.output) == tensor_bits(x));
  CHECK(fused.scale().data<float>()[0] == 1.0f);  // fake quant off: scale / zero_point not updated
}

TEST_CASE("fake-quantize constructors reject what torchao rejects", "[fake_quant][errors]") {
  CHECK_THROWS_AS(FakeQuantize(int8_args(10, -10)), ValueError);
  ObserverArgs u8;
  u8.quant_min = -1;
  u8.quant_max = 255;
  CHECK_THROWS_WITH(FakeQuantize(u8), Catch::Contains("quant_min out of bound"));
  ObserverArgs i8;
  i8.dtype = DType::Int8;
  CHECK_THROWS_WITH(FusedMovingAvgObsFakeQuantize(i8), Catch::Contains("quant_max out of bound"));  // default 0..255
  ObserverArgs mm = int8_args();
  mm.observer = "MinMaxObserver";
  CHECK_NOTHROW(FakeQuantize(mm));
  CHECK_THROWS_AS(FusedMovingAvgObsFakeQuantize(mm), ValueError);
  ObserverArgs nested;
  nested.observer = "FakeQuantize";
  CHECK_THROWS_AS(FakeQuantize(nested), ValueError);
  ObserverArgs axis = mm;
  axis.ch_axis = 0;
  CHECK_THROWS_AS(FakeQuantize(axis), TypeError);  // MinMaxObserver has no ch_axis
  ObserverArgs fq_float;
  fq_float.observer = "PerChannelMinMaxObserver";
  fq_float.qscheme = QScheme::per_channel_affine_float_qparams;
  // Row 17 of #13: torchao's FakeQuantize takes float qparams (fake_quantize.py _is_float_qparams: a float
  // zero_point buffer); this line used to expect NotImplementedError.
  CHECK(FakeQuantize(fq_float).zero_point().dtype() == DType::Float32);
}

TEST_CASE("a failed fused forward leaves the module unchanged", "[fake_quant][errors]") {
  ObserverArgs pc = int8_args(-127, 127);
  pc.observer = "MovingAveragePerChannelMinMaxObserver";
  pc.qscheme = QScheme::per_channel_symmetric;
  pc.ch_axis = 1;
  FusedMovingAvgObsFakeQuantize axis1(pc);
  CHECK_THROWS_WITH(axis1.forward(golden_data("w4d")), Catch::Contains("only supported on axis == 0"));
  const auto& apm = static_cast<const UniformQuantizationObserverBase&>(axis1.activation_post_process());
  CHECK(apm.min_val().numel() == 0);
  CHECK(axis1.scale().numel() == 1);

  FusedMovingAvgObsFakeQuantize never_observed(int8_args());
  never_observed.disable_observer();
  CHECK_THROWS_AS(never_observed.forward(golden_data("gauss")), RuntimeError);  // min +inf > max -inf
  CHECK(never_observed.scale().data<float>()[0] == 1.0f);
  CHECK_THROWS_AS(FusedMovingAvgObsFakeQuantize(int8_args()).forward(Tensor::zeros({4}, DType::Int8)), TypeError);
}

TEST_CASE("fused first step matches torch 1.13's ChooseQuantizationParams corner cases", "[fake_quant][golden]") {
  const Json& cases = quant_golden()["fused_first_step"];
  REQUIRE(cases.size() == 35);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    INFO("case " << i << ": " << c["input"].str << " " << describe(c["kwargs"]));
    FusedMovingAvgObsFakeQuantize f(observer_args(c["kwargs"]));
    f.forward(golden_data(c["input"].str));
    CHECK(bits(f.scale().data<float>()[0]) == c["scale_bits"].u32());
    CHECK(f.zero_point().data<int32_t>()[0] == c["zero_point"].i64());
  }
  CHECK_THROWS_AS(choose_quantization_params(1.0f, -1.0f, -128, 127, false), RuntimeError);
  CHECK_THROWS_AS(choose_quantization_params(-1.0f, 1.0f, 5, 5, false), RuntimeError);
}

TEST_CASE("fused training scale vs convert-time observer scale", "[fake_quant][seed-independent]") {
  const Tensor w = golden_data("w4d");  // 4×3×3×3
  ObserverArgs a = int8_args(-127, 127);
  a.observer = "MovingAveragePerChannelMinMaxObserver";
  a.qscheme = QScheme::per_channel_symmetric;
  a.ch_axis = 0;
  a.eps = 0x1p-12f;
  FusedMovingAvgObsFakeQuantize fused(a);
  fused.forward(w);
  const auto& apm = static_cast<const UniformQuantizationObserverBase&>(fused.activation_post_process());
  const QParams convert_qp = fused.calculate_qparams();
  REQUIRE(fused.scale().numel() == 4);
  for (int64_t c = 0; c < 4; ++c) {
    INFO("channel " << c);
    const float mn = apm.min_val().data<float>()[c], mx = apm.max_val().data<float>()[c];
    REQUIRE(mn < 0.0f);
    REQUIRE(mx > 0.0f);
    const float train = fused.scale().data<float>()[c];
    const float deploy = convert_qp.scale.data<float>()[c];
    // Training: max(|min|/128, max/127)·255/254; deployment: absmax/127.
    const double expected_train = std::max(std::fabs(mn) / 128.0, mx / 127.0) * 255.0 / 254.0;
    CHECK(train == Approx(expected_train).epsilon(1e-6));
    CHECK(bits(deploy) == bits(std::max(-mn, mx) / 127.0f));
    CHECK(train != deploy);
    CHECK(std::fabs(train / deploy - 1.0f) < 0.01f);
    CHECK(fused.zero_point().data<int32_t>()[c] == 0);
    CHECK(convert_qp.zero_point.data<int32_t>()[c] == 0);
  }
  // Affine activations: both formulas agree on this data.
  ObserverArgs act = int8_args();
  act.eps = 0x1p-12f;
  FusedMovingAvgObsFakeQuantize fused_act(act);
  fused_act.forward(golden_data("gauss"));
  const QParams act_qp = fused_act.calculate_qparams();
  CHECK(fused_act.scale().data<float>()[0] == Approx(act_qp.scale.data<float>()[0]).epsilon(1e-6));
  CHECK(fused_act.zero_point().data<int32_t>()[0] == act_qp.zero_point.data<int32_t>()[0]);
}
