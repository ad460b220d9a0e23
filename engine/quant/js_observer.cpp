// js_observer.cpp — JsObserver (js_observer.h): the configuration from the keywords, the callbacks, and
// the checks on what calculate_qparams returns.
#include "quant/js_observer.h"

#include <cmath>

namespace pt {

namespace {

ObserverConfig js_config(const std::string& name, const ObserverArgs& a) {
  ObserverConfig c;
  c.dtype = a.dtype.value_or(DType::Int8);
  c.quantized_dtype = quantized_spelling(a, DType::Int8);
  if (c.dtype == DType::Float32) throw ValueError(name + ": an observer needs an integer dtype, got float32");
  c.qscheme = a.qscheme.value_or(QScheme::per_tensor_affine);
  UniformQuantizationObserverBase::set_range(c, a);
  if (a.ch_axis) c.ch_axis = *a.ch_axis;
  else if (is_per_channel(c.qscheme)) c.ch_axis = 0;
  return c;
}

// An error from the observer's own code, prefixed with its name (typed as it was thrown).
template <class F> auto named(const std::string& who, const char* method, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    rethrow_with_message(e, who + "." + method + "(): " + e.what());
  }
}

}  // namespace

JsObserver::JsObserver(std::string name, const ObserverArgs& args, Callbacks callbacks)
    : ObserverBase(js_config(name, args)), name_(std::move(name)), cb_(std::move(callbacks)) {
  if (!cb_.forward || !cb_.calculate_qparams)
    throw TypeError(name_ + ": an observer class must define forward(x) and calculate_qparams()");
}

JsObserver::~JsObserver() {
  if (cb_.release) cb_.release();
}

Tensor JsObserver::forward(const Tensor& x) {
  named(name_, "forward", [&] { cb_.forward(x); });
  if (is_per_channel(config_.qscheme) && x.dim() > 0) {
    const int64_t axis = config_.ch_axis < 0 ? config_.ch_axis + x.dim() : config_.ch_axis;
    if (axis < 0 || axis >= x.dim())
      throw IndexError(name_ + ".forward(): ch_axis " + std::to_string(config_.ch_axis) + " is outside the input's " +
                       std::to_string(x.dim()) + " dims");
    channels_ = x.size(axis);
  }
  return x;
}

QParams JsObserver::calculate_qparams() const {
  QParams qp = named(name_, "calculate_qparams", [&] { return cb_.calculate_qparams(); });
  check_observer_qparams(name_, config_, channels_, qp);
  return qp;
}

std::vector<NamedBuffer> JsObserver::named_buffers() const {
  if (!cb_.named_buffers) return {};
  return named(name_, "named_buffers", [&] { return cb_.named_buffers(); });
}

void check_observer_qparams(const std::string& who, const ObserverConfig& config, int64_t channels, const QParams& qp) {
  const std::string fn = who + ".calculate_qparams() returned ";
  const bool per_channel = is_per_channel(config.qscheme);
  const int64_t n = qp.scale.numel();
  if (qp.scale.dtype() != DType::Float32 || qp.scale.dim() != 1)
    throw ValueError(fn + "a scale of " + dtype_name(qp.scale.dtype()) + " " + shape_str(qp.scale.shape()) +
                     "; expected a float32 list");
  if (!per_channel && n != 1)
    throw ValueError(fn + std::to_string(n) + " scales; a " + qscheme_name(config.qscheme) + " observer returns one");
  if (per_channel && channels >= 0 && n != channels)
    throw ValueError(fn + std::to_string(n) + " scales for the " + std::to_string(channels) +
                     " channels forward saw along ch_axis " + std::to_string(config.ch_axis));
  if (qp.zero_point.numel() != n)
    throw ValueError(fn + std::to_string(n) + " scales and " + std::to_string(qp.zero_point.numel()) + " zero points");
  const Tensor zp = qp.zero_point.to(DType::Float32);
  for (int64_t i = 0; i < n; ++i) {
    const float s = qp.scale.data<float>()[i];
    if (!std::isfinite(s) || !(s > 0.0f))
      throw ValueError(fn + "scale[" + std::to_string(i) + "] = " + std::to_string(s) + "; a scale must be finite and > 0");
    const double z = zp.data<float>()[i];
    if (z != std::floor(z) || z < static_cast<double>(config.quant_min) || z > static_cast<double>(config.quant_max))
      throw ValueError(fn + "zero_point[" + std::to_string(i) + "] = " + std::to_string(z) + "; expected an integer in [" +
                       std::to_string(config.quant_min) + ", " + std::to_string(config.quant_max) + "]");
  }
}

}  // namespace pt
