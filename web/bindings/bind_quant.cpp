// bind_quant.cpp — Embind for engine/quant: observers and fake-quantize modules by class name,
// quantize / dequantize / choose_qparams / fake_quantize ops, sqnr; plus student_t from core.
// Keyword arguments arrive as a plain JS object and are read by kwargs.h into pt::ObserverArgs, for a
// constructor and for Observer.with_args alike; the JS classes in web/api/quant.js (pt.MinMaxObserver,
// ...) are thin names over one Observer handle, made from the class registry (observer_classes).
#include <emscripten/bind.h>

#include <memory>
#include <optional>

#include "common.h"
#include "kwargs.h"
#include "observer_handle.h"
#include "core/distributions.h"
#include "quant/fake_quantize.h"
#include "quant/observer.h"
#include "quant/qparams.h"
#include "quant/quantize.h"

using emscripten::val;
using pt::Tensor;

namespace {

val qparams_to_js(const pt::QParams& qp) {
  val o = val::object();
  o.set("scale", ptjs::tensor_data_to_js(qp.scale));
  o.set("zero_point", ptjs::tensor_data_to_js(qp.zero_point));
  return o;
}

using Observer = ptjs::ObserverHandle;

pt::FakeQuantizeBase& as_fake_quant(const Observer& o, const char* method) {
  auto* fq = dynamic_cast<pt::FakeQuantizeBase*>(&o.impl());
  if (!fq) throw pt::TypeError(std::string("'") + o.impl().type_name() + "' object has no attribute '" + method + "'");
  return *fq;
}

const Tensor& named_buffer(const Observer& o, const std::string& name) {
  static Tensor found;
  for (auto& [n, t] : o.impl().named_buffers())
    if (n == name) return found = t;
  throw pt::TypeError(std::string("'") + o.impl().type_name() + "' object has no attribute '" + name + "'");
}

Observer make(const std::string& cls, const val& kwargs) {
  return ptjs::guarded([&] { return Observer(pt::make_observer(cls, ptjs::observer_args_from_js(cls, kwargs))); });
}
// Observer.with_args(kwargs): the reader and the keyword check of the constructor, without constructing.
void check_kwargs(const std::string& cls, const val& kwargs) {
  ptjs::guarded([&] {
    pt::check_observer_kwargs(cls, ptjs::observer_args_from_js(cls, kwargs));
    return 0;
  });
}
Tensor forward(Observer& o, const Tensor& x) { return ptjs::guarded([&] { return o.impl().forward(x); }); }
val calculate_qparams(const Observer& o) {
  return ptjs::guarded([&] { return qparams_to_js(o.impl().calculate_qparams()); });
}
Tensor buffer(const Observer& o, const std::string& name) {
  return ptjs::guarded([&] { return named_buffer(o, name); });
}
val buffer_names(const Observer& o) {
  return ptjs::guarded([&] {
    val arr = val::array();
    for (auto& [n, t] : o.impl().named_buffers()) arr.call<void>("push", n);
    return arr;
  });
}
val config(const Observer& o) {
  return ptjs::guarded([&] {
    const pt::ObserverConfig& c = o.impl().config();
    val v = val::object();
    v.set("type", std::string(o.impl().type_name()));
    v.set("dtype", std::string(pt::dtype_name(c.dtype)));
    v.set("torch_dtype", std::string(pt::torch_dtype_name(c.dtype, c.quantized_dtype)));  // as torch prints it
    // An attribute torchao keeps as None (ObserverConfig::none) is null.
    const auto attr = [&](const char* name, val value) { v.set(name, c.is_none(name) ? val::null() : value); };
    attr("qscheme", val(std::string(pt::qscheme_name(c.qscheme))));
    attr("quant_min", val(static_cast<double>(c.quant_min)));
    attr("quant_max", val(static_cast<double>(c.quant_max)));
    v.set("reduce_range", c.reduce_range);
    v.set("eps", c.eps);
    v.set("is_dynamic", c.is_dynamic);
    attr("ch_axis", val(static_cast<double>(c.ch_axis)));
    v.set("averaging_constant", c.averaging_constant);
    v.set("is_fake_quantize", o.impl().is_fake_quantize());
    if (auto* fq = dynamic_cast<pt::FakeQuantize*>(&o.impl()))
      v.set("activation_post_process", std::string(fq->activation_post_process().type_name()));
    return v;
  });
}
void set_flag(Observer& o, const std::string& which, bool on) {
  ptjs::guarded([&] {
    auto& fq = as_fake_quant(o, which == "observer" ? "enable_observer" : "enable_fake_quant");
    which == "observer" ? fq.enable_observer(on) : fq.enable_fake_quant(on);
    return 0;
  });
}
bool same_instance(const Observer& a, const Observer& b) { return a.identity() && a.identity() == b.identity(); }
// [{ name, default_observer }] in registration order (default_observer: '' for an observer).
val observer_classes() {
  val arr = val::array();
  for (const std::string& n : pt::observer_names()) {
    val e = val::object();
    e.set("name", n);
    e.set("default_observer", pt::observer_class(n).default_observer);
    arr.call<void>("push", e);
  }
  return arr;
}
// The keyword table (quant/observer_kwargs.h): [{ name, type, doc }].
val observer_kwargs() {
  val arr = val::array();
  for (const pt::ObserverKwarg& k : pt::observer_kwargs()) {
    val e = val::object();
    e.set("name", std::string(k.name));
    e.set("type", std::string(k.type));
    e.set("doc", std::string(k.doc));
    arr.call<void>("push", e);
  }
  return arr;
}

// ---- ops ----
pt::DType dtype(const std::string& s) { return pt::dtype_from_name(s); }

Tensor quantize_per_tensor(const Tensor& x, double s, double zp, double qmin, double qmax, const std::string& dt) {
  return ptjs::guarded([&] { return pt::quantize_per_tensor(x, s, zp, qmin, qmax, dtype(dt)); });
}
Tensor dequantize_per_tensor(const Tensor& q, double s, double zp, double qmin, double qmax, const std::string& dt) {
  return ptjs::guarded([&] { return pt::dequantize_per_tensor(q, s, zp, qmin, qmax, dtype(dt)); });
}
Tensor quantize_per_channel(const Tensor& x, const Tensor& s, const Tensor& zp, double axis, double qmin, double qmax,
                            const std::string& dt) {
  return ptjs::guarded([&] { return pt::quantize_per_channel(x, s, zp, axis, qmin, qmax, dtype(dt)); });
}
Tensor dequantize_per_channel(const Tensor& q, const Tensor& s, const val& zp, double axis, double qmin, double qmax,
                              const std::string& dt) {
  return ptjs::guarded([&] {
    std::optional<Tensor> z;
    if (!zp.isNull() && !zp.isUndefined()) z = zp.as<Tensor>();
    return pt::dequantize_per_channel(q, s, z, axis, qmin, qmax, dtype(dt));
  });
}
val choose_qparams(const Tensor& x, double qmin, double qmax, double eps, const std::string& dt, bool symmetric) {
  return ptjs::guarded([&] {
    auto f = symmetric ? pt::choose_qparams_symmetric : pt::choose_qparams;
    return qparams_to_js(f(x, qmin, qmax, static_cast<float>(eps), dtype(dt)));
  });
}
Tensor fake_quantize_per_tensor_affine(const Tensor& x, double s, double zp, double qmin, double qmax) {
  return ptjs::guarded([&] { return pt::fake_quantize_per_tensor_affine(x, static_cast<float>(s), zp, qmin, qmax); });
}
Tensor fake_quantize_per_channel_affine(const Tensor& x, const Tensor& s, const Tensor& zp, double axis, double qmin,
                                        double qmax) {
  return ptjs::guarded([&] { return pt::fake_quantize_per_channel_affine(x, s, zp, axis, qmin, qmax); });
}
double sqnr(const Tensor& x, const Tensor& y) { return ptjs::guarded([&] { return double(pt::sqnr(x, y)); }); }
val calculate_qmin_qmax(const val& qmin, const val& qmax, const std::string& dt, bool reduce_range) {
  return ptjs::guarded([&] {
    std::optional<int64_t> lo, hi;
    if (!qmin.isNull() && !qmin.isUndefined()) lo = ptjs::int_arg("calculate_qmin_qmax", "quant_min", qmin);
    if (!qmax.isNull() && !qmax.isUndefined()) hi = ptjs::int_arg("calculate_qmin_qmax", "quant_max", qmax);
    const pt::QRange r = pt::calculate_qmin_qmax(lo, hi, dtype(dt), reduce_range);
    val v = val::object();
    v.set("quant_min", static_cast<double>(r.quant_min));
    v.set("quant_max", static_cast<double>(r.quant_max));
    return v;
  });
}
Tensor student_t(double df, const val& shape) {
  return ptjs::guarded([&] { return pt::student_t(df, ptjs::shape_from_js(shape)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pt_quant) {
  using namespace emscripten;
  class_<Observer>("Observer")
      .function("forward", &forward)
      .function("calculate_qparams", &calculate_qparams)
      .function("buffer", &buffer)
      .function("buffer_names", &buffer_names)
      .function("config", &config)
      .function("set_flag", &set_flag)
      .function("same_instance", &same_instance);
  function("make_observer", &make);
  function("check_observer_kwargs", &check_kwargs);
  function("observer_classes", &observer_classes);
  function("observer_kwargs", &observer_kwargs);
  function("quantize_per_tensor", &quantize_per_tensor);
  function("dequantize_per_tensor", &dequantize_per_tensor);
  function("quantize_per_channel", &quantize_per_channel);
  function("dequantize_per_channel", &dequantize_per_channel);
  function("choose_qparams", &choose_qparams);
  function("fake_quantize_per_tensor_affine", &fake_quantize_per_tensor_affine);
  function("fake_quantize_per_channel_affine", &fake_quantize_per_channel_affine);
  function("sqnr", &sqnr);
  function("calculate_qmin_qmax", &calculate_qmin_qmax);
  function("student_t", &student_t);
}
