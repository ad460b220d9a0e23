// test_observers.cpp — observer construction errors, data edge cases and the registry, as torchao
// behaves: unsupported qschemes, reduce_range with symmetric quint8, is_dynamic rules, bad
// ch_axis, empty inputs (ignored), NaN (propagates, then calculate_qparams raises), state left
// unchanged by a failed forward, PlaceholderObserver / FixedQParamsObserver, make_observer kwargs.
#include "golden.h"

#include <cmath>
#include <limits>

#include "quant/observer.h"

using namespace pt;
using golden::bits;

namespace {
ObserverArgs with_qscheme(QScheme q, DType d = DType::Int8) {
  ObserverArgs a;
  a.qscheme = q;
  a.dtype = d;
  return a;
}
std::vector<std::string> buffer_names(const ObserverBase& o) {
  std::vector<std::string> n;
  for (const auto& b : o.named_buffers()) n.push_back(b.first);
  return n;
}
}  // namespace

TEST_CASE("reduce_range with a symmetric scheme and plain torch.uint8 is accepted, as in torchao", "[observer]") {
  // torchao v0.18.0 observer.py: the NotImplementedError checks `self.dtype == torch.quint8`; for torch.uint8,
  // calculate_qmin_qmax gives 0..127 and _calculate_qparams the symmetric uint8 zero point 128 (no customized
  // range; only the affine branch clamps it, so it stays outside 0..127); scale = max(-min, max) / (127 / 2).
  ObserverArgs a = with_qscheme(QScheme::per_tensor_symmetric, DType::UInt8);
  a.reduce_range = true;
  MinMaxObserver o(a);
  CHECK(o.config().quant_min == 0);
  CHECK(o.config().quant_max == 127);
  o.forward(Tensor::from<float>({-2.0f, 0.5f, 3.0f}, {3}));
  const QParams qp = o.calculate_qparams();
  CHECK(qp.scale.data<float>()[0] == 3.0f / 63.5f);
  CHECK(qp.zero_point.data<int32_t>()[0] == 128);
  ObserverArgs pc = with_qscheme(QScheme::per_channel_symmetric, DType::UInt8);
  pc.reduce_range = true;
  CHECK_NOTHROW(PerChannelMinMaxObserver(pc));
}

TEST_CASE("observers reject qschemes, dtypes and flags as torchao does", "[observer][errors]") {
  CHECK_THROWS_AS(MinMaxObserver(with_qscheme(QScheme::per_channel_affine)), NotImplementedError);
  CHECK_THROWS_AS(MovingAverageMinMaxObserver(with_qscheme(QScheme::per_channel_symmetric)), NotImplementedError);
  CHECK_THROWS_AS(PerChannelMinMaxObserver(with_qscheme(QScheme::per_tensor_affine)), NotImplementedError);
  CHECK_THROWS_AS(MovingAveragePerChannelMinMaxObserver(with_qscheme(QScheme::per_tensor_symmetric)),
                  NotImplementedError);

  // torchao observer.py MinMaxObserver.__init__ / PerChannelMinMaxObserver.__init__: reduce_range with a symmetric
  // qscheme raises for dtype torch.quint8 (also the default) only; torch.uint8 is accepted.
  ObserverArgs sym_u8 = with_qscheme(QScheme::per_tensor_symmetric, DType::UInt8);
  sym_u8.quantized_dtype = true;
  sym_u8.reduce_range = true;
  CHECK_THROWS_WITH(MinMaxObserver(sym_u8), "Cannot reduce range for symmetric quantization for quint8");
  ObserverArgs sym_default = with_qscheme(QScheme::per_tensor_symmetric);
  sym_default.dtype.reset();  // the class default, torch.quint8
  sym_default.reduce_range = true;
  CHECK_THROWS_AS(MinMaxObserver(sym_default), NotImplementedError);
  ObserverArgs sym_u8_pc = with_qscheme(QScheme::per_channel_symmetric, DType::UInt8);
  sym_u8_pc.quantized_dtype = true;
  sym_u8_pc.reduce_range = true;
  CHECK_THROWS_AS(PerChannelMinMaxObserver(sym_u8_pc), NotImplementedError);

  ObserverArgs dyn;
  dyn.is_dynamic = true;
  CHECK_THROWS_AS(MovingAverageMinMaxObserver(dyn), NotImplementedError);  // c = 0.01
  dyn.averaging_constant = 1.0;
  CHECK(MovingAverageMinMaxObserver(dyn).is_dynamic());
  CHECK(MinMaxObserver(dyn).is_dynamic());
  ObserverArgs dyn_pc;
  dyn_pc.is_dynamic = true;
  CHECK_THROWS_AS(PerChannelMinMaxObserver(dyn_pc), NotImplementedError);

  ObserverArgs f32;
  f32.dtype = DType::Float32;
  CHECK_THROWS_AS(MinMaxObserver(f32), ValueError);
  ObserverArgs bad_range;
  bad_range.dtype = DType::Int8;
  bad_range.quant_min = 3;
  bad_range.quant_max = 100;
  CHECK_THROWS_AS(MinMaxObserver(bad_range), ValueError);
}

TEST_CASE("observer defaults and buffers follow torchao", "[observer]") {
  MinMaxObserver o;
  CHECK(o.dtype() == DType::UInt8);
  CHECK(o.qscheme() == QScheme::per_tensor_affine);
  CHECK((o.quant_min() == 0 && o.quant_max() == 255));
  CHECK(buffer_names(o) == std::vector<std::string>{"eps", "min_val", "max_val"});
  CHECK(bits(o.eps().data<float>()[0]) == bits(1.1920928955078125e-07f));
  CHECK(o.min_val().dim() == 0);
  CHECK(o.min_val().data<float>()[0] == std::numeric_limits<float>::infinity());
  CHECK(o.max_val().data<float>()[0] == -std::numeric_limits<float>::infinity());

  PerChannelMinMaxObserver pc;
  CHECK(pc.ch_axis() == 0);
  CHECK(pc.min_val().numel() == 0);
  CHECK(pc.qscheme() == QScheme::per_channel_affine);
  MovingAverageMinMaxObserver ma;
  CHECK(ma.averaging_constant() == 0.01);
}

TEST_CASE("empty inputs are ignored and returned", "[observer]") {
  MinMaxObserver o;
  const Tensor e = Tensor::empty({0, 3});
  CHECK(o.forward(e).same_storage(e));
  CHECK(o.min_val().data<float>()[0] == std::numeric_limits<float>::infinity());
  PerChannelMinMaxObserver pc;
  pc.forward(e);
  CHECK(pc.min_val().numel() == 0);
  MovingAverageMinMaxObserver ma;
  ma.forward(e);
  ma.forward(Tensor::from<float>({1.0f, -2.0f}, {2}));
  CHECK(ma.min_val().data<float>()[0] == -2.0f);  // the first non-empty batch is taken as is
}

TEST_CASE("NaN propagates into min_val / max_val as aminmax does", "[observer][nan]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  MinMaxObserver o;
  o.forward(Tensor::from<float>({1.0f, nan, -3.0f}, {3}));
  CHECK(std::isnan(o.min_val().data<float>()[0]));
  CHECK(std::isnan(o.max_val().data<float>()[0]));
  o.forward(Tensor::from<float>({5.0f}, {1}));
  CHECK(std::isnan(o.min_val().data<float>()[0]));  // stays NaN
  CHECK_THROWS_AS(o.calculate_qparams(), ValueError);

  PerChannelMinMaxObserver pc;
  pc.forward(Tensor::from<float>({1.0f, 2.0f, nan, 4.0f}, {2, 2}));
  CHECK(pc.min_val().data<float>()[0] == 1.0f);  // only the channel holding NaN is NaN
  CHECK(std::isnan(pc.max_val().data<float>()[1]));
  CHECK_THROWS_AS(pc.calculate_qparams(), ValueError);

  MinMaxObserver i;
  i.forward(Tensor::from<float>({1.0f, std::numeric_limits<float>::infinity()}, {2}));
  CHECK(std::isinf(i.max_val().data<float>()[0]));
  CHECK_THROWS_AS(i.calculate_qparams(), ValueError);  // decided: inf has no finite scale
}

TEST_CASE("integer inputs are observed as float32", "[observer]") {
  MinMaxObserver o;
  o.forward(Tensor::from<int8_t>({-7, 3, 12}, {3}));
  CHECK(o.min_val().data<float>()[0] == -7.0f);
  CHECK(o.max_val().data<float>()[0] == 12.0f);
}

TEST_CASE("per-channel observers check ch_axis and channel counts without changing state", "[observer][errors]") {
  ObserverArgs a;
  a.ch_axis = 2;
  PerChannelMinMaxObserver o(a);
  CHECK_THROWS_AS(o.forward(Tensor::zeros({2, 3})), IndexError);
  CHECK(o.min_val().numel() == 0);
  a.ch_axis = -1;  // negative axes count from the end, as torch's permute does
  PerChannelMinMaxObserver last(a);
  last.forward(Tensor::from<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  CHECK(last.min_val().numel() == 3);
  CHECK(last.min_val().data<float>()[0] == 1.0f);
  CHECK(last.max_val().data<float>()[0] == 4.0f);
  CHECK_THROWS_AS(last.forward(Tensor::zeros({2, 4})), RuntimeError);
  CHECK(last.max_val().data<float>()[0] == 4.0f);
  CHECK_THROWS_AS(last.forward(Tensor::zeros({3})), IndexError);  // torch flattens dims 1..: needs 2 dims
  MovingAveragePerChannelMinMaxObserver ma;
  ma.forward(Tensor::zeros({3, 2}));
  CHECK_THROWS_AS(ma.forward(Tensor::zeros({4, 2})), RuntimeError);
  CHECK(ma.min_val().numel() == 3);
}

TEST_CASE("PlaceholderObserver holds a config, no buffers, and refuses calculate_qparams", "[observer]") {
  ObserverArgs a;
  a.dtype = DType::Int8;
  a.quant_min = -128;
  a.quant_max = 127;
  a.is_dynamic = true;
  std::unique_ptr<ObserverBase> p = make_observer("PlaceholderObserver", a);
  CHECK(p->named_buffers().empty());
  CHECK(p->is_dynamic());
  CHECK((p->quant_min() == -128 && p->quant_max() == 127));
  const Tensor x = Tensor::full({4}, 2.0f);
  CHECK(p->forward(x).same_storage(x));
  CHECK_THROWS_AS(p->calculate_qparams(), RuntimeError);
  CHECK_THROWS_WITH(p->calculate_qparams(), "calculate_qparams should not be called for PlaceholderObserver");
  PlaceholderObserver fp;
  CHECK(fp.dtype() == DType::Float32);
}

TEST_CASE("FixedQParamsObserver returns its fixed qparams", "[observer]") {
  ObserverArgs a;
  CHECK_THROWS_AS(FixedQParamsObserver(a), TypeError);
  a.scale = 1.0 / 256.0;
  a.zero_point = 0;
  FixedQParamsObserver f(a);
  f.forward(Tensor::full({3}, 100.0f));
  const QParams qp = f.calculate_qparams();
  CHECK(qp.scale.data<float>()[0] == 1.0f / 256.0f);
  CHECK(qp.zero_point.data<int32_t>()[0] == 0);
  CHECK((f.quant_min() == 0 && f.quant_max() == 255));
  CHECK(buffer_names(f) == std::vector<std::string>{"scale", "zero_point"});
}

namespace {
std::unique_ptr<ObserverBase> make_int8_minmax(const ObserverArgs& a) {
  ObserverArgs b = a;
  b.dtype = DType::Int8;
  return std::make_unique<MinMaxObserver>(b);
}
}  // namespace

TEST_CASE("make_observer builds by class name and checks kwargs", "[observer][registry]") {
  for (const char* name : {"MinMaxObserver", "MovingAverageMinMaxObserver", "PerChannelMinMaxObserver",
                           "MovingAveragePerChannelMinMaxObserver", "PlaceholderObserver", "FakeQuantize",
                           "FusedMovingAvgObsFakeQuantize"}) {
    INFO(name);
    CHECK(std::string(make_observer(name)->type_name()) == name);
  }
  const std::vector<std::string> names = observer_names();
  CHECK(std::find(names.begin(), names.end(), "FixedQParamsObserver") != names.end());
  CHECK_THROWS_AS(make_observer("MinMaxObserverr"), ValueError);

  ObserverArgs a;
  a.ch_axis = 1;
  CHECK_THROWS_AS(make_observer("MinMaxObserver", a), TypeError);
  CHECK_THROWS_WITH(make_observer("MinMaxObserver", a), Catch::Contains("unexpected keyword argument 'ch_axis'"));
  CHECK(make_observer("PerChannelMinMaxObserver", a)->ch_axis() == 1);
  ObserverArgs eps;
  eps.eps = 0x1p-12f;
  eps.dtype = DType::Int8;
  auto o = make_observer("MinMaxObserver", eps);
  CHECK(static_cast<UniformQuantizationObserverBase&>(*o).eps().data<float>()[0] == 0x1p-12f);

  register_observer({"Int8MinMaxObserver", make_int8_minmax, {"eps"}});
  CHECK(make_observer("Int8MinMaxObserver")->dtype() == DType::Int8);
  CHECK_THROWS_AS(make_observer("Int8MinMaxObserver", a), TypeError);
  CHECK_THROWS_AS(register_observer({"", make_int8_minmax, {}}), ValueError);
}

TEST_CASE("the keyword table: set names, equality, the classes' keywords and the fake-quantize forward",
          "[observer][registry]") {
  ObserverArgs a;
  CHECK(a.set_names().empty());
  a.observer = "HistogramObserver";
  a.dtype = DType::Int8;
  a.bins = 64;
  CHECK(a.set_names() == std::vector<std::string>{"dtype", "bins", "observer"});  // table order
  ObserverArgs b = a;
  CHECK(a == b);
  b.bins = 65;
  CHECK_FALSE(a == b);

  // Every class lists only declared keywords; register_observer refuses an undeclared one.
  for (const std::string& name : observer_names())
    for (const std::string& k : observer_class(name).kwargs) CHECK(is_observer_kwarg(k));
  CHECK_THROWS_WITH(register_observer({"Typo", observer_class("MinMaxObserver").make, {"binz"}}),
                    Catch::Contains("'binz'"));

  // A fake-quantize class accepts its own keywords and those of the observer it wraps (torchao's
  // **observer_kwargs), and the refusal names the class that refuses.
  CHECK_NOTHROW(check_observer_kwargs("FakeQuantize", a));  // bins: the wrapped HistogramObserver's
  ObserverArgs bins;
  bins.bins = 64;
  CHECK_THROWS_WITH(check_observer_kwargs("FakeQuantize", bins),
                    "MovingAverageMinMaxObserver.__init__() got an unexpected keyword argument 'bins'");
  CHECK_THROWS_WITH(make_observer("FakeQuantize", bins),
                    "MovingAverageMinMaxObserver.__init__() got an unexpected keyword argument 'bins'");
  CHECK_THROWS_WITH(check_observer_kwargs("MinMaxObserver", bins),
                    "MinMaxObserver.__init__() got an unexpected keyword argument 'bins'");
  ObserverArgs averaging;
  averaging.averaging_constant = 0.5;
  CHECK_NOTHROW(check_observer_kwargs("FusedMovingAvgObsFakeQuantize", averaging));
  CHECK(observer_class("FakeQuantize").default_observer == "MovingAverageMinMaxObserver");
  CHECK(observer_class("HistogramObserver").default_observer.empty());
}
