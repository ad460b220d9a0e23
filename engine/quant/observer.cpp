// observer.cpp — MinMax / MovingAverage / PerChannel / Placeholder / FixedQParams observers and the
// class registry behind make_observer (see observer.h; docs/algorithms.md, Observers).
#include "quant/observer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quant/fake_quantize.h"
#include "quant/histogram_observer.h"
#include "quant/quantize.h"

namespace pt {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// torch.min / torch.max of two tensors: NaN wins.
float nan_min(float a, float b) { return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<float>::quiet_NaN() : std::min(a, b); }
float nan_max(float a, float b) { return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<float>::quiet_NaN() : std::max(a, b); }

// m + f32(c)·(cur − m), each step rounded to float32 as the tensor ops are.
float moving_average(float m, float cur, float c) { return m + c * (cur - m); }

Tensor as_float(const Tensor& x) { return x.dtype() == DType::Float32 ? x : x.to(DType::Float32); }

// The per-tensor / per-channel classes' first check; a None qscheme (ObserverArgs::none) fails it too.
void check_per_tensor(std::optional<QScheme> q, const char* cls) {
  if (!q || !is_per_tensor(*q))
    throw NotImplementedError(std::string(cls) +
                              "'s qscheme only support torch.per_tensor_symmetric and torch.per_tensor_affine, got " +
                              (q ? qscheme_name(*q) : "None"));
}

void check_per_channel(std::optional<QScheme> q, const char* cls) {
  if (!q || !is_per_channel(*q))
    throw NotImplementedError(std::string(cls) +
                              "'s qscheme only support torch.per_channel_symmetric, torch.per_channel_affine and "
                              "torch.per_channel_affine_float_qparams, got " + (q ? qscheme_name(*q) : "None"));
}

// The qscheme a class is built with: the keyword, its default when left out, nullopt when passed as None.
std::optional<QScheme> given_qscheme(const ObserverArgs& a, QScheme class_default) {
  if (a.is_none("qscheme")) return std::nullopt;
  return a.qscheme.value_or(class_default);
}

void check_symmetric_reduce_range(const ObserverConfig& c) {
  if (is_symmetric(c.qscheme) && c.reduce_range && c.dtype == DType::UInt8 && c.quantized_dtype)
    throw NotImplementedError("Cannot reduce range for symmetric quantization for quint8");
}

// Per-channel statistics of x along ch_axis; PyTorch needs at least 2 dims (it flattens dims 1..).
ChannelMinMax channel_stats(const Tensor& x, int64_t ch_axis, const char* cls) {
  if (x.dim() < 2)
    throw IndexError(std::string(cls) + ": input must have at least 2 dims to flatten channels, got shape " +
                     shape_str(x.shape()));
  return aminmax_per_channel(x, ch_axis);
}

// torch indexes the input's dims with ch_axis; built with ch_axis=None the first forward fails.
void check_ch_axis_given(const ObserverConfig& c, const char* cls) {
  if (c.is_none("ch_axis"))
    throw TypeError(std::string(cls) + ".forward: ch_axis is None (list indices must be integers or slices, not NoneType)");
}

void check_same_channels(const Tensor& running, const Tensor& cur, const char* cls) {
  if (running.numel() != cur.numel())
    throw RuntimeError(std::string(cls) + ": the size of the running min/max (" + std::to_string(running.numel()) +
                       ") must match the number of channels of the input (" + std::to_string(cur.numel()) + ")");
}

// The per-channel classes' running statistics: the first batch's min / max are copied, a later batch's
// are merged channel by channel, running = merge(running, batch).
template <class MergeMin, class MergeMax>
void update_per_channel(Tensor& min_val, Tensor& max_val, const Tensor& x, int64_t ch_axis, const char* cls,
                        MergeMin merge_min, MergeMax merge_max) {
  ChannelMinMax cur = channel_stats(as_float(x), ch_axis, cls);
  if (min_val.numel() == 0) {
    min_val = cur.min;
    max_val = cur.max;
    return;
  }
  check_same_channels(min_val, cur.min, cls);
  float* mn = min_val.data<float>();
  float* mx = max_val.data<float>();
  for (int64_t i = 0; i < min_val.numel(); ++i) {
    mn[i] = merge_min(mn[i], cur.min.data<float>()[i]);
    mx[i] = merge_max(mx[i], cur.max.data<float>()[i]);
  }
}

template <class T> std::unique_ptr<ObserverBase> construct(const ObserverArgs& a) { return std::make_unique<T>(a); }

const std::vector<std::string> kUniformKwargs = {"dtype", "qscheme", "reduce_range", "quant_min", "quant_max",
                                                 "eps", "is_dynamic"};
std::vector<std::string> with(std::vector<std::string> base, std::initializer_list<const char*> more) {
  for (const char* m : more) base.emplace_back(m);
  return base;
}

// torchao's FakeQuantize(observer, quant_min, quant_max, is_dynamic, **observer_kwargs): its own
// keywords; everything else goes to the wrapped observer class.
const std::vector<std::string> kFakeQuantizeKwargs = {"observer", "quant_min", "quant_max", "is_dynamic"};

std::vector<ObserverClass>& registry() {
  static std::vector<ObserverClass> classes = [] {
    std::vector<ObserverClass> v = {
        {"MinMaxObserver", construct<MinMaxObserver>, kUniformKwargs},
        {"MovingAverageMinMaxObserver", construct<MovingAverageMinMaxObserver>,
         with(kUniformKwargs, {"averaging_constant"})},
        {"PerChannelMinMaxObserver", construct<PerChannelMinMaxObserver>, with(kUniformKwargs, {"ch_axis"})},
        {"MovingAveragePerChannelMinMaxObserver", construct<MovingAveragePerChannelMinMaxObserver>,
         with(kUniformKwargs, {"ch_axis", "averaging_constant"})},
        {"PlaceholderObserver", construct<PlaceholderObserver>,
         {"dtype", "qscheme", "quant_min", "quant_max", "eps", "is_dynamic"}},
        {"FixedQParamsObserver", construct<FixedQParamsObserver>,
         {"scale", "zero_point", "dtype", "qscheme", "quant_min", "quant_max", "is_dynamic"}},
        {"FakeQuantize", construct<FakeQuantize>, kFakeQuantizeKwargs, "MovingAverageMinMaxObserver"},
        {"FusedMovingAvgObsFakeQuantize", construct<FusedMovingAvgObsFakeQuantize>, kFakeQuantizeKwargs,
         "MovingAverageMinMaxObserver"},
        // FixedQParamsFakeQuantize(observer): every other keyword is the wrapped FixedQParamsObserver's.
        {"FixedQParamsFakeQuantize", construct<FixedQParamsFakeQuantize>, {"observer"}, "FixedQParamsObserver"},
        histogram_observer_class(),
    };
    return v;
  }();
  return classes;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

// ---- keywords (quant/observer_kwargs.h) ----------------------------------------------------------------

std::vector<std::string> ObserverArgs::set_names() const {
  std::vector<std::string> n;
  for_each_observer_kwarg(*this, [&](const char* name, const auto& field) {
    if (field.has_value()) n.emplace_back(name);
  });
  return n;
}

void ObserverArgs::set_none(const std::string& name) {
  if (!is_observer_kwarg(name)) throw ValueError("ObserverArgs::set_none: '" + name + "' is not an observer keyword");
  for_each_observer_kwarg(*this, [&](const char* n, auto& field) {
    if (name == n) field.reset();
  });
  if (!is_none(name)) none.push_back(name);
}

bool ObserverArgs::is_none(const std::string& name) const { return contains(none, name); }

// ---- ObserverConfig ---------------------------------------------------------------------------------

bool ObserverConfig::is_none(const std::string& attr) const { return contains(none, attr); }

std::optional<QRange> ObserverConfig::quant_range() const {
  if (is_none("quant_min") || is_none("quant_max")) return std::nullopt;
  return QRange{quant_min, quant_max};
}

const std::vector<ObserverKwarg>& observer_kwargs() {
  static const std::vector<ObserverKwarg> rows = {
#define PT_OBSERVER_KWARG_ROW(name, type, doc) {#name, #type, doc},
      PT_OBSERVER_KWARGS(PT_OBSERVER_KWARG_ROW)
#undef PT_OBSERVER_KWARG_ROW
  };
  return rows;
}

bool is_observer_kwarg(const std::string& name) {
  const auto& rows = observer_kwargs();
  return std::any_of(rows.begin(), rows.end(), [&](const ObserverKwarg& k) { return name == k.name; });
}

bool quantized_spelling(const ObserverArgs& a, DType class_default) {
  return a.dtype ? a.quantized_dtype : class_default != DType::Float32;
}

// ---- UniformQuantizationObserverBase ---------------------------------------------------------------

void UniformQuantizationObserverBase::set_range(ObserverConfig& c, const ObserverArgs& a) {
  c.reduce_range = a.reduce_range.value_or(false);
  c.has_customized_qrange = a.quant_min.has_value() && a.quant_max.has_value();
  const QRange r = c.has_customized_qrange ? calculate_qmin_qmax(a.quant_min, a.quant_max, c.dtype, c.reduce_range)
                                           : calculate_qmin_qmax(std::nullopt, std::nullopt, c.dtype, c.reduce_range);
  c.quant_min = r.quant_min;
  c.quant_max = r.quant_max;
  c.eps = a.eps.value_or(kFloat32Eps);
  c.is_dynamic = a.is_dynamic.value_or(false);
}

ObserverConfig UniformQuantizationObserverBase::make_config(const ObserverArgs& a, QScheme default_qscheme,
                                                          const char* cls, DType default_dtype) {
  const std::optional<QScheme> q = given_qscheme(a, default_qscheme);
  if (is_per_tensor(default_qscheme)) check_per_tensor(q, cls);
  else check_per_channel(q, cls);
  ObserverConfig c;
  c.qscheme = *q;
  c.dtype = a.dtype.value_or(default_dtype);
  c.quantized_dtype = quantized_spelling(a, default_dtype);
  if (c.dtype == DType::Float32)
    throw ValueError("Default Observer only works for int8, uint8, int16 and int32 data types, got float32");
  set_range(c, a);
  c.ch_axis = is_per_channel(c.qscheme) ? a.ch_axis.value_or(0) : -1;
  if (is_per_channel(c.qscheme) && a.is_none("ch_axis")) c.none.push_back("ch_axis");
  c.averaging_constant = a.averaging_constant.value_or(0.01);
  return c;
}

UniformQuantizationObserverBase::UniformQuantizationObserverBase(const ObserverConfig& config)
    : ObserverBase(config), eps_(Tensor::full({1}, config.eps)), min_val_(Tensor::scalar(kInf)),
      max_val_(Tensor::scalar(-kInf)) {}

QParams UniformQuantizationObserverBase::calculate_qparams() const {
  return pt::calculate_qparams(min_val_, max_val_, config_.quant_min, config_.quant_max, config_.qscheme,
                               config_.dtype, eps_.data<float>()[0], config_.has_customized_qrange);
}

std::vector<NamedBuffer> UniformQuantizationObserverBase::named_buffers() const {
  return {{"eps", eps_}, {"min_val", min_val_}, {"max_val", max_val_}};
}

void UniformQuantizationObserverBase::set_min_max(const Tensor& min_val, const Tensor& max_val) {
  if (min_val.dtype() != DType::Float32 || max_val.dtype() != DType::Float32 || min_val.shape() != max_val.shape())
    throw ValueError("set_min_max: min_val and max_val must be float32 tensors of one shape, got " +
                     shape_str(min_val.shape()) + " and " + shape_str(max_val.shape()));
  const bool per_channel = pt::is_per_channel(config_.qscheme);
  if (per_channel ? min_val.dim() != 1 : min_val.dim() != 0)
    throw ValueError(std::string("set_min_max: ") + type_name() + " keeps " +
                     (per_channel ? "1-D" : "0-dim") + " min_val / max_val, got shape " + shape_str(min_val.shape()));
  min_val_ = min_val;
  max_val_ = max_val;
}

// ---- MinMaxObserver ---------------------------------------------------------------------------------

MinMaxObserver::MinMaxObserver(const ObserverArgs& args)
    : MinMaxObserver(make_config(args, QScheme::per_tensor_affine, "MinMaxObserver"), "MinMaxObserver") {}

MinMaxObserver::MinMaxObserver(const ObserverConfig& config, const char* cls) : UniformQuantizationObserverBase(config) {
  check_per_tensor(config.qscheme, cls);
  check_symmetric_reduce_range(config);
}

Tensor MinMaxObserver::forward(const Tensor& x) {
  if (x.numel() == 0) return x;
  const MinMax cur = aminmax(as_float(x).span<float>());
  float* mn = min_val_.data<float>();
  float* mx = max_val_.data<float>();
  mn[0] = nan_min(cur.min, mn[0]);
  mx[0] = nan_max(cur.max, mx[0]);
  return x;
}

// ---- MovingAverageMinMaxObserver --------------------------------------------------------------------

namespace {
ObserverConfig moving_average_config(const ObserverArgs& args) {
  ObserverConfig c =
      UniformQuantizationObserverBase::make_config(args, QScheme::per_tensor_affine, "MovingAverageMinMaxObserver");
  if (c.is_dynamic && c.averaging_constant != 1.0)
    throw NotImplementedError(
        "MovingAverageMinMaxObserver doesn't support dynamic quantization for averaging constant of " +
        std::to_string(c.averaging_constant));
  return c;
}
}  // namespace

MovingAverageMinMaxObserver::MovingAverageMinMaxObserver(const ObserverArgs& args)
    : MinMaxObserver(moving_average_config(args), "MovingAverageMinMaxObserver") {}

Tensor MovingAverageMinMaxObserver::forward(const Tensor& x) {
  if (x.numel() == 0) return x;
  const MinMax cur = aminmax(as_float(x).span<float>());
  float* mn = min_val_.data<float>();
  float* mx = max_val_.data<float>();
  if (mn[0] == kInf && mx[0] == -kInf) {
    mn[0] = cur.min;
    mx[0] = cur.max;
  } else {
    const float c = static_cast<float>(config_.averaging_constant);
    mn[0] = moving_average(mn[0], cur.min, c);
    mx[0] = moving_average(mx[0], cur.max, c);
  }
  return x;
}

// ---- PerChannelMinMaxObserver -----------------------------------------------------------------------

PerChannelMinMaxObserver::PerChannelMinMaxObserver(const ObserverArgs& args)
    : PerChannelMinMaxObserver(make_config(args, QScheme::per_channel_affine, "PerChannelMinMaxObserver"),
                               "PerChannelMinMaxObserver") {}

PerChannelMinMaxObserver::PerChannelMinMaxObserver(const ObserverConfig& config, const char* cls)
    : UniformQuantizationObserverBase(config) {
  check_per_channel(config.qscheme, cls);
  check_symmetric_reduce_range(config);
  if (config.is_dynamic) throw NotImplementedError(std::string(cls) + " doesn't support dynamic quantization");
  min_val_ = Tensor::empty({0});
  max_val_ = Tensor::empty({0});
}

Tensor PerChannelMinMaxObserver::forward(const Tensor& x) {
  if (x.numel() == 0) return x;
  check_ch_axis_given(config_, type_name());
  update_per_channel(
      min_val_, max_val_, x, config_.ch_axis, type_name(), [](float run, float cur) { return nan_min(cur, run); },
      [](float run, float cur) { return nan_max(cur, run); });
  return x;
}

// ---- MovingAveragePerChannelMinMaxObserver ----------------------------------------------------------

MovingAveragePerChannelMinMaxObserver::MovingAveragePerChannelMinMaxObserver(const ObserverArgs& args)
    : PerChannelMinMaxObserver(
          make_config(args, QScheme::per_channel_affine, "MovingAveragePerChannelMinMaxObserver"),
          "MovingAveragePerChannelMinMaxObserver") {}

Tensor MovingAveragePerChannelMinMaxObserver::forward(const Tensor& x) {
  if (x.numel() == 0) return x;
  const float c = static_cast<float>(config_.averaging_constant);
  auto average = [c](float run, float cur) { return moving_average(run, cur, c); };
  check_ch_axis_given(config_, type_name());
  update_per_channel(min_val_, max_val_, x, config_.ch_axis, type_name(), average, average);
  return x;
}

// ---- PlaceholderObserver ----------------------------------------------------------------------------

namespace {
// The range attributes as given, None (ObserverConfig::none) when left out or passed as None.
void keep_given_range(const ObserverArgs& a, ObserverConfig& c) {
  c.quant_min = a.quant_min.value_or(0);
  c.quant_max = a.quant_max.value_or(0);
  if (!a.quant_min) c.none.push_back("quant_min");
  if (!a.quant_max) c.none.push_back("quant_max");
}

// torchao observer.py PlaceholderObserver.__init__: quant_min / quant_max kept as given (default None);
// qscheme / eps None mean per_tensor_affine / float32 eps.
ObserverConfig placeholder_config(const ObserverArgs& a) {
  ObserverConfig c;
  c.dtype = a.dtype.value_or(DType::Float32);
  c.quantized_dtype = quantized_spelling(a, DType::Float32);
  c.qscheme = a.qscheme.value_or(QScheme::per_tensor_affine);
  c.eps = a.eps.value_or(kFloat32Eps);
  c.is_dynamic = a.is_dynamic.value_or(false);
  c.has_customized_qrange = a.quant_min.has_value() && a.quant_max.has_value();
  keep_given_range(a, c);
  return c;
}
}  // namespace

PlaceholderObserver::PlaceholderObserver(const ObserverArgs& args) : ObserverBase(placeholder_config(args)) {}

QParams PlaceholderObserver::calculate_qparams() const {
  throw RuntimeError("calculate_qparams should not be called for PlaceholderObserver");
}

// ---- FixedQParamsObserver ---------------------------------------------------------------------------

namespace {
ObserverConfig fixed_qparams_config(const ObserverArgs& a) {
  if (!a.scale || !a.zero_point)
    throw TypeError("FixedQParamsObserver.__init__() missing required arguments: 'scale' and 'zero_point'");
  if (a.is_dynamic.value_or(false))
    throw NotImplementedError("FixedQParamsObserver doesn't support dynamic quantization");
  ObserverConfig c;
  c.dtype = a.dtype.value_or(DType::UInt8);
  c.quantized_dtype = quantized_spelling(a, DType::UInt8);
  c.qscheme = a.qscheme.value_or(QScheme::per_tensor_affine);
  if (a.is_none("qscheme")) c.none.push_back("qscheme");
  // quant_min=0, quant_max=255 unless given; None stays None (FixedQParamsQuantizationSpec's default).
  ObserverArgs range = a;
  if (!a.is_none("quant_min")) range.quant_min = a.quant_min.value_or(0);
  if (!a.is_none("quant_max")) range.quant_max = a.quant_max.value_or(255);
  keep_given_range(range, c);
  return c;
}
}  // namespace

FixedQParamsObserver::FixedQParamsObserver(const ObserverArgs& args)
    : ObserverBase(fixed_qparams_config(args)),
      scale_(Tensor::full({1}, static_cast<float>(*args.scale))),
      zero_point_(Tensor::from<int32_t>({static_cast<int32_t>(*args.zero_point)}, {1})) {}

QParams FixedQParamsObserver::calculate_qparams() const { return {scale_, zero_point_}; }

std::vector<NamedBuffer> FixedQParamsObserver::named_buffers() const {
  return {{"scale", scale_}, {"zero_point", zero_point_}};
}

// ---- registry ---------------------------------------------------------------------------------------

void register_observer(const ObserverClass& cls) {
  if (cls.name.empty() || !cls.make) throw ValueError("register_observer: a class needs a name and a factory");
  for (const std::string& k : cls.kwargs)
    if (!is_observer_kwarg(k))
      throw ValueError("register_observer: " + cls.name + " lists the keyword '" + k +
                       "', which quant/observer_kwargs.h does not declare");
  auto& r = registry();
  for (auto& existing : r)
    if (existing.name == cls.name) {
      existing = cls;
      return;
    }
  r.push_back(cls);
}

const ObserverClass& observer_class(const std::string& name) {
  for (const auto& c : registry())
    if (c.name == name) return c;
  std::string known;
  for (const auto& c : registry()) known += (known.empty() ? "" : ", ") + c.name;
  throw ValueError("unknown observer class '" + name + "': expected one of " + known);
}

void check_observer_kwargs(const std::string& name, const ObserverArgs& args) {
  const ObserverClass& cls = observer_class(name);
  const ObserverClass* wrapped =
      cls.default_observer.empty() ? nullptr : &observer_class(args.observer.value_or(cls.default_observer));
  std::vector<std::string> passed = args.set_names();
  passed.insert(passed.end(), args.none.begin(), args.none.end());
  for (const std::string& key : passed) {
    if (contains(cls.kwargs, key) || (wrapped && contains(wrapped->kwargs, key))) continue;
    throw unexpected_keyword_argument((wrapped ? wrapped->name : name) + ".__init__", key);
  }
}

std::unique_ptr<ObserverBase> make_observer(const std::string& name, const ObserverArgs& args) {
  check_observer_kwargs(name, args);
  return observer_class(name).make(args);
}

std::vector<std::string> observer_names() {
  std::vector<std::string> n;
  for (const auto& c : registry()) n.push_back(c.name);
  return n;
}

}  // namespace pt
