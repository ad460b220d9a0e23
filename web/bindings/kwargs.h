// kwargs.h — keyword arguments from JS: a plain object ({ dtype: 'int8', eps: 2 ** -12 }) read as
// Python's keyword arguments. Shared by bind_quant.cpp (observer constructors, Observer.with_args) and
// bind_pt2e.cpp (the kwargs of a spec's observer_or_fake_quant_ctr, config functions' options).
//
//   pt::ObserverArgs a = ptjs::observer_args_from_js("HistogramObserver", kwargs);   // the one reader
//   val shown = ptjs::observer_args_to_js(a);                                         // the one writer
//
// Both walk the table of quant/observer_kwargs.h, so a keyword declared there is read and written here
// with no edit; each C++ type of the table has one read_kwarg / kwarg_to_js overload below. An undefined
// or null value is a keyword not given (Python's None default). Errors name the callable and the key:
// a key the table does not declare is "<Class>.__init__() got an unexpected keyword argument '<key>'"
// (the text make_observer uses for a key the class does not accept), a value of the wrong JS type is
// "<Class>(): argument '<key>' must be ...".
#pragma once
#include <emscripten/val.h>

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/tensor.h"
#include "quant/observer_kwargs.h"
#include "quant/qparams.h"

namespace ptjs {

using emscripten::val;

inline bool given(const val& v) { return !v.isUndefined() && !v.isNull(); }
inline std::string js_type(const val& v) { return v.isNull() ? "null" : v.isArray() ? "list" : v.typeOf().as<std::string>(); }

// ---- one value of a named argument; errors name the function and the argument ----
inline double number_arg(const std::string& fn, const std::string& key, const val& v) {
  if (js_type(v) != "number") throw pt::TypeError(fn + "(): argument '" + key + "' must be a number, got " + js_type(v));
  return v.as<double>();
}
inline int64_t int_arg(const std::string& fn, const std::string& key, const val& v) {
  const double d = number_arg(fn, key, v);
  if (!(std::abs(d) < 0x1p63) || d != std::trunc(d))
    throw pt::TypeError(fn + "(): argument '" + key + "' must be an integer, got " + std::to_string(d));
  return static_cast<int64_t>(d);
}
inline std::string string_arg(const std::string& fn, const std::string& key, const val& v) {
  if (js_type(v) != "string") throw pt::TypeError(fn + "(): argument '" + key + "' must be a string, got " + js_type(v));
  return v.as<std::string>();
}
inline bool bool_arg(const std::string& fn, const std::string& key, const val& v) {
  if (js_type(v) != "boolean") throw pt::TypeError(fn + "(): argument '" + key + "' must be a boolean, got " + js_type(v));
  return v.as<bool>();
}

// Calls f(key, value) for every given key of a plain JS object of keyword arguments, in key order.
// TypeError for anything but a plain object; undefined / null (no keywords) calls nothing.
template <class F>
void for_each_given_key(const std::string& fn, const val& kwargs, F&& f) {
  if (!given(kwargs)) return;
  if (js_type(kwargs) != "object")
    throw pt::TypeError(fn + "(): keyword arguments must be a plain object, got " + js_type(kwargs));
  const val keys = val::global("Object").call<val>("keys", kwargs);
  const unsigned n = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const std::string k = keys[i].as<std::string>();
    const val v = kwargs[k];
    if (given(v)) f(k, v);
  }
}

// ---- the table's C++ types ----
inline void read_kwarg(const std::string& fn, const std::string& k, const val& v, std::optional<pt::DType>& out) {
  out = pt::dtype_from_name(string_arg(fn, k, v));
}
inline void read_kwarg(const std::string& fn, const std::string& k, const val& v, std::optional<pt::QScheme>& out) {
  out = pt::qscheme_from_name(string_arg(fn, k, v));
}
inline void read_kwarg(const std::string& fn, const std::string& k, const val& v, std::optional<bool>& out) {
  out = bool_arg(fn, k, v);
}
inline void read_kwarg(const std::string& fn, const std::string& k, const val& v, std::optional<int64_t>& out) {
  out = int_arg(fn, k, v);
}
inline void read_kwarg(const std::string& fn, const std::string& k, const val& v, std::optional<float>& out) {
  out = static_cast<float>(number_arg(fn, k, v));
}
inline void read_kwarg(const std::string& fn, const std::string& k, const val& v, std::optional<double>& out) {
  out = number_arg(fn, k, v);
}
inline void read_kwarg(const std::string& fn, const std::string& k, const val& v, std::optional<std::string>& out) {
  out = string_arg(fn, k, v);
}

inline val kwarg_to_js(pt::DType d) { return val(std::string(pt::dtype_name(d))); }
inline val kwarg_to_js(pt::QScheme q) { return val(std::string(pt::qscheme_name(q))); }
inline val kwarg_to_js(bool b) { return val(b); }
inline val kwarg_to_js(int64_t i) { return val(static_cast<double>(i)); }
inline val kwarg_to_js(float f) { return val(static_cast<double>(f)); }
inline val kwarg_to_js(double d) { return val(d); }
inline val kwarg_to_js(const std::string& s) { return val(s); }

// ---- observer keyword arguments ----

// Reads the kwargs of observer class `cls` (constructor or with_args). Which keys the class accepts is
// checked by pt::check_observer_kwargs (make_observer runs it).
inline pt::ObserverArgs observer_args_from_js(const std::string& cls, const val& kwargs) {
  pt::ObserverArgs a;
  for_each_given_key(cls, kwargs, [&](const std::string& key, const val& v) {
    bool declared = false;
    pt::for_each_observer_kwarg(a, [&](const char* name, auto& field) {
      if (key == name) {
        read_kwarg(cls, key, v, field);
        declared = true;
        if (key == "dtype") a.quantized_dtype = pt::is_quantized_dtype_name(v.as<std::string>());  // as written
      }
    });
    if (!declared) throw pt::unexpected_keyword_argument(cls + ".__init__", key);
  });
  return a;
}

// The set fields as a plain JS object, as a spec shows its constructor's kwargs.
inline val observer_args_to_js(const pt::ObserverArgs& a) {
  val o = val::object();
  pt::for_each_observer_kwarg(a, [&](const char* name, const auto& field) {
    if (field) o.set(name, kwarg_to_js(*field));
  });
  if (a.dtype) o.set("dtype", std::string(pt::torch_dtype_name(*a.dtype, a.quantized_dtype)));
  return o;
}

}  // namespace ptjs
