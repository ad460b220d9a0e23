// observer.h — observers: modules that watch tensors flow by and turn what they saw into
// (scale, zero_point) (docs/algorithms.md, Observers). Names and defaults are torchao's.
//
//   pt::ObserverArgs args;                       // torchao keyword arguments; unset = class default
//   args.dtype = pt::DType::Int8;
//   args.qscheme = pt::QScheme::per_tensor_affine;
//   args.eps = 0x1p-12f;
//   std::unique_ptr<pt::ObserverBase> obs = pt::make_observer("MinMaxObserver", args);
//   obs->forward(x);                             // records min/max, returns x unchanged
//   pt::QParams qp = obs->calculate_qparams();   // scale float32 [1], zero_point int32 [1]
//   for (auto& [name, t] : obs->named_buffers()) ...   // "eps", "min_val", "max_val"
//
// Every class can also be constructed directly (pt::MinMaxObserver obs(args);). make_observer is
// how prepare_pt2e builds an observer from a QuantizationSpec: the spec fills dtype, quant_min,
// quant_max, qscheme, ch_axis, is_dynamic into the args of the spec's observer constructor (class
// name + its own kwargs such as eps), and make_observer checks that the class accepts every kwarg
// that is set (TypeError otherwise, as Python's "unexpected keyword argument"). The keywords
// themselves (ObserverArgs) are declared once in quant/observer_kwargs.h.
//
// Registry: register_observer adds a class at run time (a new class's .cpp can register itself from a
// static initializer: the engine's libraries are linked whole, see CMakeLists.txt). HistogramObserver
// lives in histogram_observer.{h,cpp}; its entry, `ObserverClass histogram_observer_class();`, is part
// of the built-in table so that the classes keep torchao's listing order.
//
// Errors follow PyTorch: an unsupported qscheme for the class is NotImplementedError, a bad range
// or a bad dtype is ValueError, a ch_axis outside the input's dims is IndexError. Input data: empty
// tensors are ignored; NaN propagates into min_val/max_val as torch.aminmax does (calculate_qparams
// then raises ValueError, because NaN <= NaN is false and PyTorch asserts min_val <= max_val).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "quant/observer_kwargs.h"
#include "quant/qparams.h"

namespace pt {

// The resolved configuration an observer runs with (torchao attribute names).
// How a class's dtype is spelled (core/tensor.h): as given, else the class default's, which is torch's quantized
// spelling (torch.quint8 / qint8) except for a float32 default (PlaceholderObserver's).
bool quantized_spelling(const ObserverArgs& a, DType class_default);

struct ObserverConfig {
  DType dtype = DType::UInt8;
  bool quantized_dtype = true;        // spelled torch.quint8 (the classes' default), not torch.uint8 (core/tensor.h)
  QScheme qscheme = QScheme::per_tensor_affine;
  bool reduce_range = false;
  int64_t quant_min = 0;              // effective range after calculate_qmin_qmax
  int64_t quant_max = 255;
  bool has_customized_qrange = false;
  float eps = kFloat32Eps;
  bool is_dynamic = false;
  int64_t ch_axis = -1;               // per-channel classes only; -1 elsewhere (as FakeQuantize's)
  double averaging_constant = 0.01;   // moving-average classes only
  // Attributes that are None in torchao, where the class keeps a None it was given (the field above then
  // holds a placeholder): "quant_min" / "quant_max" (PlaceholderObserver by default; FixedQParamsObserver,
  // DerivedObserverOrFakeQuantize when given None), "qscheme" (FixedQParamsObserver,
  // DerivedObserverOrFakeQuantize), "ch_axis" (a per-channel observer built with ch_axis=None).
  std::vector<std::string> none;
  bool is_none(const std::string& attr) const;
  // quant_min and quant_max, or nullopt when either is None.
  std::optional<QRange> quant_range() const;
};

using NamedBuffer = std::pair<std::string, Tensor>;

class ObserverBase {
 public:
  explicit ObserverBase(const ObserverConfig& config) : config_(config) {}
  virtual ~ObserverBase() = default;
  ObserverBase(const ObserverBase&) = delete;
  ObserverBase& operator=(const ObserverBase&) = delete;

  virtual const char* type_name() const = 0;           // "MinMaxObserver", ...
  // Records statistics of x and returns x itself (a fake-quantize module returns its output).
  virtual Tensor forward(const Tensor& x) = 0;
  virtual QParams calculate_qparams() const = 0;
  // The module's buffers in registration order, sharing storage (nested ones prefixed as torch
  // does, e.g. "activation_post_process.min_val").
  virtual std::vector<NamedBuffer> named_buffers() const = 0;
  virtual bool is_fake_quantize() const { return false; }

  const ObserverConfig& config() const { return config_; }
  DType dtype() const { return config_.dtype; }
  QScheme qscheme() const { return config_.qscheme; }
  int64_t quant_min() const { return config_.quant_min; }
  int64_t quant_max() const { return config_.quant_max; }
  bool reduce_range() const { return config_.reduce_range; }
  bool is_dynamic() const { return config_.is_dynamic; }
  int64_t ch_axis() const { return config_.ch_axis; }

 protected:
  ObserverConfig config_;
};

// Shared base of the observers that compute qparams from min_val / max_val with calculate_qparams
// (UniformQuantizationObserverBase in torchao). Buffers: eps [1], min_val, max_val.
class UniformQuantizationObserverBase : public ObserverBase {
 public:
  // torch's constructor checks: the class `cls` takes the qscheme (per tensor when default_qscheme is,
  // else per channel; a None qscheme is NotImplementedError), dtype is int8/uint8/int32, a given range
  // is validated, then calculate_qmin_qmax. ch_axis / averaging_constant are copied if set; ch_axis=None
  // is kept as ObserverConfig::none (the first forward is then a TypeError, as torch's indexing).
  // default_dtype: the class's dtype when none is given (torch.quint8 for torchao's classes).
  static ObserverConfig make_config(const ObserverArgs& args, QScheme default_qscheme, const char* cls,
                                    DType default_dtype = DType::UInt8);
  // The keywords read once c.dtype is set: reduce_range, quant_min / quant_max (calculate_qmin_qmax, a customized
  // range when both are given), eps (float32's by default) and is_dynamic. make_config and JsObserver use it.
  static void set_range(ObserverConfig& c, const ObserverArgs& a);

  explicit UniformQuantizationObserverBase(const ObserverConfig& config);
  QParams calculate_qparams() const override;   // calculate_qparams on (min_val, max_val)
  std::vector<NamedBuffer> named_buffers() const override;
  const Tensor& eps() const { return eps_; }
  const Tensor& min_val() const { return min_val_; }
  const Tensor& max_val() const { return max_val_; }
  // Overwrites the running statistics, as assigning torch's min_val / max_val buffers does (used by
  // FusedMovingAvgObsFakeQuantize). float32 of one shape: 0-dim per tensor, 1-D per channel.
  void set_min_max(const Tensor& min_val, const Tensor& max_val);

 protected:
  Tensor eps_;      // float32 [1]
  Tensor min_val_;  // float32, 0-dim (+inf) per tensor, [C] per channel (empty until the first forward)
  Tensor max_val_;
};

// Running min / max over every batch (per tensor only).
class MinMaxObserver : public UniformQuantizationObserverBase {
 public:
  explicit MinMaxObserver(const ObserverArgs& args = {});
  const char* type_name() const override { return "MinMaxObserver"; }
  Tensor forward(const Tensor& x) override;

 protected:
  MinMaxObserver(const ObserverConfig& config, const char* cls);
};

// First batch's min / max, then m <- m + f32(c)·(batch_m - m).
class MovingAverageMinMaxObserver : public MinMaxObserver {
 public:
  explicit MovingAverageMinMaxObserver(const ObserverArgs& args = {});
  const char* type_name() const override { return "MovingAverageMinMaxObserver"; }
  Tensor forward(const Tensor& x) override;
  double averaging_constant() const { return config_.averaging_constant; }
};

// Running min / max per slice along ch_axis.
class PerChannelMinMaxObserver : public UniformQuantizationObserverBase {
 public:
  explicit PerChannelMinMaxObserver(const ObserverArgs& args = {});
  const char* type_name() const override { return "PerChannelMinMaxObserver"; }
  Tensor forward(const Tensor& x) override;

 protected:
  PerChannelMinMaxObserver(const ObserverConfig& config, const char* cls);
};

// Per-channel moving average (first batch copies, then EMA with c).
class MovingAveragePerChannelMinMaxObserver : public PerChannelMinMaxObserver {
 public:
  explicit MovingAveragePerChannelMinMaxObserver(const ObserverArgs& args = {});
  const char* type_name() const override { return "MovingAveragePerChannelMinMaxObserver"; }
  Tensor forward(const Tensor& x) override;
  double averaging_constant() const { return config_.averaging_constant; }
};

// Holds a config only (dynamic activations, float weights): identity forward, no buffers, and
// calculate_qparams raises. quant_min / quant_max: as given, else None (torchao keeps None; convert_pt2e
// then cannot build a quantize op from it). qscheme / eps None: per_tensor_affine / float32 eps.
class PlaceholderObserver : public ObserverBase {
 public:
  explicit PlaceholderObserver(const ObserverArgs& args = {});
  const char* type_name() const override { return "PlaceholderObserver"; }
  Tensor forward(const Tensor& x) override { return x; }
  QParams calculate_qparams() const override;  // RuntimeError
  std::vector<NamedBuffer> named_buffers() const override { return {}; }
};

// Returns the fixed (scale, zero_point) it was built with; identity forward. Buffers: scale, zero_point.
// quant_min / quant_max default to 0 / 255; given as None they stay None, as qscheme does.
class FixedQParamsObserver : public ObserverBase {
 public:
  explicit FixedQParamsObserver(const ObserverArgs& args);
  const char* type_name() const override { return "FixedQParamsObserver"; }
  Tensor forward(const Tensor& x) override { return x; }
  QParams calculate_qparams() const override;
  std::vector<NamedBuffer> named_buffers() const override;

 private:
  Tensor scale_;       // float32 [1]
  Tensor zero_point_;  // int32 [1]
};

// ---- registry ------------------------------------------------------------------------------------
using ObserverFactory = std::function<std::unique_ptr<ObserverBase>(const ObserverArgs&)>;  // may capture (a JS class)

struct ObserverClass {
  std::string name;                 // "MinMaxObserver"
  ObserverFactory make;
  std::vector<std::string> kwargs;  // the keywords this class accepts (names from quant/observer_kwargs.h)
  // A fake-quantize class wraps an observer: the class it wraps by default. Every keyword the wrapped
  // class (args.observer, else this) accepts is accepted too and forwarded to it, as torchao's
  // FakeQuantize(observer=..., **observer_kwargs). Empty for an observer.
  std::string default_observer = {};
};

// Adds or replaces a class by name. ValueError for a class without a name or factory, or one that lists
// a keyword quant/observer_kwargs.h does not declare.
void register_observer(const ObserverClass& cls);
std::unique_ptr<ObserverBase> make_observer(const std::string& name, const ObserverArgs& args = {});
// The check make_observer runs first (and Observer.with_args, see web/api/quant.js): every set keyword
// is one the class accepts, else TypeError "<Class>.__init__() got an unexpected keyword argument '<key>'"
// naming the class that refuses it (for a fake-quantize class: its wrapped observer).
void check_observer_kwargs(const std::string& name, const ObserverArgs& args);
const ObserverClass& observer_class(const std::string& name);  // ValueError for an unknown name
std::vector<std::string> observer_names();                     // registration order

}  // namespace pt
