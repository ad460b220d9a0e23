// test_golden_fidelity.cpp — the quant room's parts of issue #13, each against the upstream function it
// follows: FBGEMM's ChooseQuantizationParams (the fused fake quant's qparams on x86 torch), the fused op
// on an empty input, FakeQuantize with float qparams, FixedQParamsFakeQuantize, and the observers'
// handling of keywords passed as None (torchao's prepare passes every spec field). Golden data:
// tests/golden/fidelity/cases.json from tests/golden/gen_fidelity.py.
#include "golden.h"

#include "quant/fake_quantize.h"

using namespace pt;
using namespace golden;

namespace {

Tensor from_bits_tensor(const Json& arr, const Json& shape) {
  Shape s;
  for (const Json& d : shape.arr) s.push_back(d.i64());
  Tensor t = Tensor::empty(s);
  REQUIRE(static_cast<size_t>(t.numel()) == arr.size());
  for (size_t i = 0; i < arr.size(); ++i) t.data<float>()[i] = from_bits(arr[i].u32());
  return t;
}

Tensor from_bits_1d(const Json& arr) {
  Tensor t = Tensor::empty({static_cast<int64_t>(arr.size())});
  for (size_t i = 0; i < arr.size(); ++i) t.data<float>()[i] = from_bits(arr[i].u32());
  return t;
}

void check_bits(const Tensor& t, const Json& expected, const char* what) {
  REQUIRE(static_cast<size_t>(t.numel()) == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO(what << " [" << i << "]");
    CHECK(bits(t.data<float>()[i]) == expected[i].u32());
  }
}

}  // namespace

TEST_CASE("fused fake quant qparams follow FBGEMM QuantUtils.cc ChooseQuantizationParams, not ATen's fallback",
          "[fake_quant][golden][fidelity]") {
  // Before #13 the engine ran ATen's quant_utils::ChooseQuantizationParams (double scale, error terms
  // |q| - |m/s|), which is what Debian's torch 1.13 (no FBGEMM) returns: the aten_* columns.
  const Json& cases = fidelity_golden()["fbgemm_qparams"];
  REQUIRE(cases.size() > 500);
  size_t ties_apart = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    const float mn = from_bits(c["min_bits"].u32()), mx = from_bits(c["max_bits"].u32());
    const auto qmin = static_cast<int32_t>(c["quant_min"].i64()), qmax = static_cast<int32_t>(c["quant_max"].i64());
    INFO("case " << i << ": [" << mn << ", " << mx << "] " << qmin << ".." << qmax << " symmetric " << c["symmetric"].b);
    const TensorQuantizationParams p = choose_quantization_params(mn, mx, qmin, qmax, c["symmetric"].b);
    CHECK(bits(p.scale) == c["scale_bits"].u32());
    CHECK(p.zero_point == c["zero_point"].i64());
    ties_apart += c["aten_zero_point"].i64() != c["zero_point"].i64();
  }
  CHECK(ties_apart > 20);  // the cases reach the .5 ties where the two formulas part
}

TEST_CASE("fused fake quant returns a copy of an empty input (ATen fused_moving_avg_obs_fake_quant)",
          "[fake_quant][golden][fidelity]") {
  const Json& g = fidelity_golden()["fused_empty"];
  ObserverArgs a;
  a.quant_min = 0;
  a.quant_max = 255;
  FusedMovingAvgObsFakeQuantize fq(a);
  const Tensor y = fq.forward(Tensor::empty({0, 3}));  // threw RuntimeError before #13
  CHECK(y.shape() == Shape{g["shape"][0].i64(), g["shape"][1].i64()});
  const auto& apm = static_cast<const UniformQuantizationObserverBase&>(fq.activation_post_process());
  CHECK(std::isinf(apm.min_val().item()) == g["min_val_is_inf"].b);
  check_bits(fq.scale(), g["scale_bits"], "scale");
  CHECK(fq.zero_point().data<int32_t>()[0] == g["zero_point"].i64());
}

TEST_CASE("FakeQuantize with per_channel_affine_float_qparams follows torchao fake_quantize.py FakeQuantize.forward",
          "[fake_quant][golden][fidelity]") {
  const Json& g = fidelity_golden()["float_qparams"];
  ObserverArgs a;
  a.observer = "PerChannelMinMaxObserver";
  a.qscheme = QScheme::per_channel_affine_float_qparams;
  a.dtype = DType::UInt8;
  a.quant_min = 0;
  a.quant_max = 255;
  a.ch_axis = 0;
  FakeQuantize fq(a);  // NotImplementedError before #13
  REQUIRE(fq.zero_point().dtype() == DType::Float32);
  for (size_t i = 0; i < g["steps"].size(); ++i) {
    const Json& s = g["steps"][i];
    INFO("step " << i);
    const Tensor y = fq.forward(from_bits_tensor(s["input_bits"], s["shape"]));
    check_bits(y, s["output_bits"], "output");
    check_bits(fq.scale(), s["scale_bits"], "scale");
    check_bits(fq.zero_point(), s["zero_point_bits"], "zero_point");
  }
  // The op alone (ATen fake_quant_per_channel_cachemask_cpu, float zero point): zp added before rounding.
  const Json& op = g["op"];
  const FakeQuantOutput r = fake_quantize_per_channel_affine_cachemask(
      from_bits_tensor(op["input_bits"], op["shape"]), from_bits_1d(op["scale_bits"]), from_bits_1d(op["zero_point_bits"]),
      op["axis"].i64(), op["quant_min"].i64(), op["quant_max"].i64());
  check_bits(r.output, op["output_bits"], "op output");
  for (size_t i = 0; i < op["mask"].size(); ++i) CHECK(r.mask.data<uint8_t>()[i] == op["mask"][i].i64());
}

TEST_CASE("FixedQParamsFakeQuantize follows torchao fake_quantize.py FixedQParamsFakeQuantize",
          "[fake_quant][golden][fidelity]") {
  const Json& g = fidelity_golden()["fixed_qparams"];
  ObserverArgs a;
  a.scale = 1.0 / 256.0;
  a.zero_point = 0;
  a.dtype = DType::UInt8;
  a.quant_min = 0;
  a.quant_max = 255;
  std::unique_ptr<ObserverBase> fq = make_observer("FixedQParamsFakeQuantize", a);
  REQUIRE(fq->is_fake_quantize());
  const Json& in = g["input_bits"];
  Tensor x = Tensor::empty({static_cast<int64_t>(in.size())});
  for (size_t i = 0; i < in.size(); ++i) x.data<float>()[i] = from_bits(in[i].u32());
  check_bits(fq->forward(x), g["output_bits"], "output");
  const QParams qp = fq->calculate_qparams();
  check_bits(qp.scale, g["scale_bits"], "scale");
  CHECK(qp.zero_point.data<int32_t>()[0] == g["zero_point"].i64());
  // Its observer must be a FixedQParamsObserver, and a None range fails at forward as torch's op does.
  ObserverArgs other = a;
  other.observer = "MinMaxObserver";
  CHECK_THROWS_AS(make_observer("FixedQParamsFakeQuantize", other), TypeError);  // MinMaxObserver takes no scale
  ObserverArgs none = a;
  none.set_none("quant_min");
  none.set_none("quant_max");
  std::unique_ptr<ObserverBase> open = make_observer("FixedQParamsFakeQuantize", none);
  CHECK_FALSE(open->config().quant_range().has_value());
  CHECK_THROWS_AS(open->forward(x), TypeError);
}

TEST_CASE("observers take keywords passed as None as torchao observer.py's constructors do", "[observer][fidelity]") {
  // qscheme=None: the per-tensor / per-channel classes' first check fails (MinMaxObserver.__init__ ...).
  for (const char* cls : {"MinMaxObserver", "MovingAverageMinMaxObserver", "HistogramObserver",
                          "PerChannelMinMaxObserver", "MovingAveragePerChannelMinMaxObserver"}) {
    INFO(cls);
    ObserverArgs a;
    a.dtype = DType::Int8;
    a.set_none("qscheme");
    CHECK_THROWS_WITH(make_observer(cls, a), Catch::Contains("got None"));
  }
  // quant_min=None is the default for the uniform classes: the dtype's range.
  ObserverArgs r;
  r.dtype = DType::Int8;
  r.set_none("quant_min");
  r.set_none("quant_max");
  CHECK(make_observer("MinMaxObserver", r)->config().quant_range() == QRange{-128, 127});
  // PlaceholderObserver keeps None (row 13 of #13: it used to default to the dtype range).
  ObserverArgs ph;
  ph.dtype = DType::Int8;
  ph.is_dynamic = true;
  CHECK_FALSE(make_observer("PlaceholderObserver", ph)->config().quant_range().has_value());
  ph.quant_min = -128;
  ph.quant_max = 127;
  CHECK(make_observer("PlaceholderObserver", ph)->config().quant_range() == QRange{-128, 127});
  // ch_axis=None on a per-channel class: built, then its forward fails as torch's indexing does.
  ObserverArgs pc;
  pc.dtype = DType::Int8;
  pc.qscheme = QScheme::per_channel_symmetric;
  pc.set_none("ch_axis");
  std::unique_ptr<ObserverBase> obs = make_observer("PerChannelMinMaxObserver", pc);
  CHECK_THROWS_AS(obs->forward(Tensor::full({2, 3}, 1.0f)), TypeError);
  // A class that does not take the keyword refuses it even as None.
  ObserverArgs bad;
  bad.set_none("ch_axis");
  CHECK_THROWS_AS(make_observer("MinMaxObserver", bad), TypeError);
}
