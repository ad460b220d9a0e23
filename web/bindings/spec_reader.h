// spec_reader.h — reading plain JS data (a view's spec, a graph view's nodes, a view's controls)
// into C++ structs, field by field. `where` names the object in messages ("histogram.range",
// "graph view.stages[0].nodes[3]"): a field of the wrong type raises pt::TypeError naming it;
// values are checked by the structs' own validate() (web/views) or the engine.
#pragma once
#include <emscripten/val.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/error.h"

namespace ptjs::spec {

using emscripten::val;

inline bool absent(const val& v) { return v.isUndefined() || v.isNull(); }

inline void require_object(const val& v, const std::string& where) {
  if (absent(v) || v.typeOf().as<std::string>() != "object") throw pt::TypeError(where + " must be an object");
}

inline double number_or(const val& obj, const char* key, double fallback, const std::string& where) {
  const val v = obj[key];
  if (absent(v)) return fallback;
  if (!v.isNumber()) throw pt::TypeError(where + "." + key + " must be a number");
  return v.as<double>();
}

inline std::string string_or(const val& obj, const char* key, const std::string& where) {
  const val v = obj[key];
  if (absent(v)) return "";
  if (!v.isString()) throw pt::TypeError(where + "." + key + " must be a string");
  return v.as<std::string>();
}

inline bool is_list(const val& v) {
  return !absent(v) && (v.isArray() || val::global("ArrayBuffer").call<bool>("isView", v));
}

// An array or typed array of numbers, as a list. A plain array may hold non-numbers, which
// convert to NaN: the first one is named.
inline std::vector<double> number_list(const val& v, const std::string& where) {
  if (!is_list(v)) throw pt::TypeError(where + " must be an array or typed array of numbers");
  std::vector<double> out = emscripten::convertJSArrayToNumberVector<double>(v);
  if (v.isArray())
    for (unsigned i = 0; i < out.size(); ++i)
      if (!v[i].isNumber()) throw pt::TypeError(where + "[" + std::to_string(i) + "] is not a number");
  return out;
}

inline std::vector<double> numbers(const val& obj, const char* key, bool optional, const std::string& where) {
  if (optional && absent(obj[key])) return {};
  return number_list(obj[key], where + "." + key);
}

// Calls f(item, "where.key[i]") for each element of the array obj[key].
template <class F> void each(const val& obj, const char* key, bool optional, const std::string& where, F&& f) {
  const val v = obj[key];
  if (absent(v) && optional) return;
  if (absent(v) || !v.isArray()) throw pt::TypeError(where + "." + key + " must be an array");
  const unsigned n = v["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) f(v[i], where + "." + key + "[" + std::to_string(i) + "]");
}

inline std::vector<std::string> strings(const val& obj, const char* key, const std::string& where) {
  std::vector<std::string> out;
  each(obj, key, true, where, [&](const val& s, const std::string& w) {
    if (!s.isString()) throw pt::TypeError(w + " must be a string");
    out.push_back(s.as<std::string>());
  });
  return out;
}

// An integer-valued number (ValueError naming it otherwise).
inline int64_t integer(const val& obj, const char* key, double fallback, const std::string& where) {
  const double v = number_or(obj, key, fallback, where);
  if (!std::isfinite(v) || v != std::floor(v) || std::abs(v) > 9007199254740992.0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    throw pt::ValueError(where + "." + key + " must be an integer, got " + buf);
  }
  return static_cast<int64_t>(v);
}

}  // namespace ptjs::spec
