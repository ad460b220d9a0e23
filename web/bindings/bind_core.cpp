// bind_core.cpp — Embind for engine/core: Tensor, the torch-exact generator, the error slot.
// The public, validated JS API over these raw bindings is web/api/ (engine.js, index.js).
#include <emscripten/bind.h>

#include <utility>

#include <malloc.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <typeinfo>

#include "common.h"
#include "core/generator.h"

using emscripten::val;
using pt::DType;
using pt::Tensor;

namespace ptjs {

val tensor_data_to_js(const Tensor& t) {
  const char* ctor = "Float32Array";
  switch (t.dtype()) {
    case DType::Float32: ctor = "Float32Array"; break;
    case DType::Int8: ctor = "Int8Array"; break;
    case DType::UInt8: ctor = "Uint8Array"; break;
    case DType::Int16: ctor = "Int16Array"; break;
    case DType::Int32: ctor = "Int32Array"; break;
  }
  val out = val::global(ctor).new_(static_cast<double>(t.numel()));
  // Copy through a byte view: the typed-array constructor above owns fresh JS memory.
  val bytes = val::global("Uint8Array").new_(out["buffer"]);
  bytes.call<void>("set", val(emscripten::typed_memory_view(t.nbytes(), reinterpret_cast<const uint8_t*>(t.bytes()))));
  return out;
}

Tensor tensor_from_js(const val& values, const pt::Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  const double len = values["length"].as<double>();
  if (len != static_cast<double>(t.numel()))
    throw pt::ValueError("tensor: data has " + std::to_string(static_cast<int64_t>(len)) + " values but shape " +
                         pt::shape_str(shape) + " needs " + std::to_string(t.numel()));
  // A typed-array view of the tensor's memory; TypedArray.set converts each value as JS does
  // (the JS wrapper has already checked types and integer ranges).
  val view = val::undefined();
  switch (dtype) {
    case DType::Float32: view = val(emscripten::typed_memory_view(t.numel(), t.data<float>())); break;
    case DType::Int8: view = val(emscripten::typed_memory_view(t.numel(), t.data<int8_t>())); break;
    case DType::UInt8: view = val(emscripten::typed_memory_view(t.numel(), t.data<uint8_t>())); break;
    case DType::Int16: view = val(emscripten::typed_memory_view(t.numel(), t.data<int16_t>())); break;
    case DType::Int32: view = val(emscripten::typed_memory_view(t.numel(), t.data<int32_t>())); break;
  }
  view.call<void>("set", values);
  return t;
}

}  // namespace ptjs

namespace {

val take_error() {
  ptjs::ErrorSlot& slot = ptjs::error_slot();
  if (!slot.set) return val::null();
  val e = val::object();
  // As C strings: a std::string would cross through a malloc'd copy, and the heap may be full.
  e.set("kind", val(slot.kind.c_str()));
  e.set("message", val(slot.message.c_str()));
  slot.set = false;
  return e;
}

// Seeds cross as decimal strings so every uint64 survives (JS numbers stop at 2^53).
void js_manual_seed(const std::string& seed) {
  ptjs::guarded([&] {
    pt::manual_seed(std::stoull(seed));
    return 0;
  });
}

Tensor js_randn(const val& shape) { return ptjs::guarded([&] { return pt::randn(ptjs::shape_from_js(shape)); }); }
Tensor js_rand(const val& shape) { return ptjs::guarded([&] { return pt::rand(ptjs::shape_from_js(shape)); }); }
Tensor make_tensor(const val& values, const val& shape, const std::string& dtype) {
  return ptjs::guarded([&] { return ptjs::tensor_from_js(values, ptjs::shape_from_js(shape), pt::dtype_from_name(dtype)); });
}

// The canonical name of a dtype name or alias (pt::dtype_from_name holds the one list), for every JS
// function that takes a dtype (web/api/engine.js check.dtype); the TypeError names the function and argument.
std::string canonical_dtype(const std::string& fn, const std::string& arg, const val& v) {
  return ptjs::guarded([&] {
    const std::string prefix = fn + "(): argument '" + arg + "'";
    if (!v.isString()) throw pt::TypeError(prefix + " must be a dtype name, got " + v.typeOf().as<std::string>());
    try {
      return std::string(pt::dtype_name(pt::dtype_from_name(v.as<std::string>())));
    } catch (const pt::TypeError& e) {
      throw pt::TypeError(prefix + ": " + e.what());
    }
  });
}

// The bytes the allocator has handed out and not had back (mallinfo), everything in the heap included; the wasm
// memory itself (which only grows) is read in JS. For pt.memory_stats() (web/api/engine.js) and the soak.
double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

// Whether operator new has refused an allocation since the last guarded() call began (common.h), and clears it:
// engine.js asks when a C++ exception escaped past guarded() — Embind's own allocation of a result's wrapper, on a
// full heap — and raises the typed out-of-memory error for it.
bool take_escaped_bad_alloc() { return std::exchange(ptjs::bad_alloc_thrown(), false); }

val tensor_shape(const Tensor& t) { return ptjs::shape_to_js(t.shape()); }
std::string tensor_dtype(const Tensor& t) { return pt::dtype_name(t.dtype()); }
val tensor_data(const Tensor& t) { return ptjs::guarded([&] { return ptjs::tensor_data_to_js(t); }); }
double tensor_numel(const Tensor& t) { return static_cast<double>(t.numel()); }

}  // namespace

EMSCRIPTEN_BINDINGS(pt_core) {
  using namespace emscripten;
  class_<Tensor>("Tensor")
      .function("shape", &tensor_shape)
      .function("dtype", &tensor_dtype)
      .function("data", &tensor_data)
      .function("numel", &tensor_numel);
  function("take_error", &take_error);
  function("manual_seed", &js_manual_seed);
  function("randn", &js_randn);
  function("rand", &js_rand);
  function("tensor", &make_tensor);
  function("canonical_dtype", &canonical_dtype);
  function("heap_in_use", &heap_in_use);
  function("take_escaped_bad_alloc", &take_escaped_bad_alloc);
}
