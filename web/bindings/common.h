// common.h — the few helpers every Embind file shares. Bindings are thin translation, no logic.
//
// Errors: a bound function never lets a C++ exception escape into JS (it would arrive as an opaque
// WebAssembly.Exception, its object never freed). `guarded(f)` runs f, and on a pt::Error (or
// any std::exception) records {kind, message} in one slot and returns a default value; the JS
// wrapper (web/api/engine.js) calls `take_error()` after every call and throws the matching
// JS Error subclass (ValueError, TypeError, ...). The module stays usable after any error.
//
// Arrays: shapes and small lists cross as JS arrays (emscripten::val); tensor data crosses as a
// typed-array copy.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/tensor.h"

namespace ptjs {

// The slot's strings are allocated once, up front: recording an error must work when the heap is full
// (the error may be that very exhaustion), so a message longer than the room kept is cut, never grown.
struct ErrorSlot {
  static constexpr size_t kRoom = 4096;
  bool set = false;
  std::string kind, message;
  ErrorSlot() {
    kind.reserve(32);
    message.reserve(kRoom);
  }
  void record(const char* k, const char* m) noexcept {
    kind.assign(k, std::min(std::strlen(k), kind.capacity()));
    message.assign(m, std::min(std::strlen(m), message.capacity()));
    set = true;
  }
};
inline ErrorSlot& error_slot() {
  static ErrorSlot slot;
  return slot;
}

// Set when operator new refuses an allocation (heap_limit.cpp) and cleared as each guarded() call begins: a C++
// exception that reaches JS past guarded() (Embind's own allocation of a result's wrapper, on a full heap) arrives
// there as an opaque WebAssembly.Exception, and this tells engine.js whether it was that out-of-memory
// (bind_core.cpp's take_escaped_bad_alloc) or an engine bug.
inline bool& bad_alloc_thrown() {
  static bool thrown = false;
  return thrown;
}

template <class F> auto guarded(F&& f) -> decltype(f()) {
  using R = decltype(f());
  ErrorSlot& slot = error_slot();
  bad_alloc_thrown() = false;
  try {
    return f();
  } catch (const pt::Error& e) {
    slot.record(e.kind_name(), e.what());
  } catch (const std::bad_alloc&) {
    slot.record("RuntimeError", "out of memory: the engine's heap (at most 2 GiB) is full; free tensors and models no longer needed (.delete() or pt.scope)");
  } catch (const std::exception& e) {
    slot.record("RuntimeError", e.what());
  }
  if constexpr (std::is_same_v<R, emscripten::val>) return emscripten::val::undefined();
  else if constexpr (!std::is_void_v<R>) return R{};
}

// Reads a JS array of integers (`what` names it in the messages: "shape", "indices"). The JS wrapper validates
// first; this check stands behind it (a double outside int64 would be undefined behaviour to convert):
// TypeError for a non-array, a non-number or a fraction, ValueError for a value that is not exact (beyond 2^53).
inline std::vector<int64_t> int64s_from_js(const emscripten::val& arr, const std::string& what) {
  if (!arr.isArray()) throw pt::TypeError(what + " must be a list of integers, got " + arr.typeOf().as<std::string>());
  std::vector<int64_t> s;
  const unsigned n = arr["length"].as<unsigned>();
  s.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    const emscripten::val d = arr[i];
    if (d.typeOf().as<std::string>() != "number") throw pt::TypeError(what + ": element " + std::to_string(i) + " is not a number");
    const double v = d.as<double>();
    if (!std::isfinite(v) || v != std::trunc(v)) throw pt::TypeError(what + ": element " + std::to_string(i) + " (" + std::to_string(v) + ") is not an integer");
    if (std::abs(v) > 0x1p53) throw pt::ValueError(what + ": element " + std::to_string(i) + " (" + std::to_string(v) + ") is too large to be exact");
    s.push_back(static_cast<int64_t>(v));
  }
  return s;
}

// A Shape from a JS array of integers (int64s_from_js); then pt::Tensor's own checks (negative, too many
// elements or bytes) name the shape.
inline pt::Shape shape_from_js(const emscripten::val& arr) { return int64s_from_js(arr, "shape"); }

inline emscripten::val shape_to_js(const pt::Shape& s) {
  emscripten::val arr = emscripten::val::array();
  for (int64_t d : s) arr.call<void>("push", static_cast<double>(d));
  return arr;
}

// Lists as JS arrays: list_to_js(items, f) pushes f(item) for each; list_from_js(arr, f) collects f(arr[i]).
// Tensors cross as Embind Tensor objects sharing storage.
template <class T, class F> emscripten::val list_to_js(const std::vector<T>& items, F&& f) {
  emscripten::val arr = emscripten::val::array();
  for (const T& x : items) arr.call<void>("push", f(x));
  return arr;
}
template <class F> auto list_from_js(const emscripten::val& arr, F&& f) {
  std::vector<decltype(f(arr))> out;
  const unsigned n = arr["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) out.push_back(f(arr[i]));
  return out;
}
inline std::vector<pt::Tensor> tensors_from_js(const emscripten::val& arr) {
  return list_from_js(arr, [](const emscripten::val& v) { return v.as<pt::Tensor>(); });
}
inline emscripten::val tensors_to_js(const std::vector<pt::Tensor>& ts) {
  return list_to_js(ts, [](const pt::Tensor& t) { return emscripten::val(t); });
}
inline std::vector<std::string> strings_from_js(const emscripten::val& arr) {
  return list_from_js(arr, [](const emscripten::val& v) { return v.as<std::string>(); });
}
inline emscripten::val strings_to_js(const std::vector<std::string>& v) {
  return list_to_js(v, [](const std::string& s) { return emscripten::val(s); });
}

// A JS typed array holding a copy of the tensor's data (Float32Array, Int8Array, ...).
emscripten::val tensor_data_to_js(const pt::Tensor& t);
// A tensor of `dtype` and `shape` filled from a JS array or typed array of numbers.
pt::Tensor tensor_from_js(const emscripten::val& values, const pt::Shape& shape, pt::DType dtype);

}  // namespace ptjs
