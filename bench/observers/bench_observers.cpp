// bench_observers.cpp — a tiny wasm module for bench/observers/run.js: C exports around one
// HistogramObserver and one input tensor, so that JavaScript drives every timed call (V8 only
// optimises a wasm function on its next call; a loop inside one call would stay in the baseline tier).
//
//   const M = await createBench({ wasmBinary });           // built by bench/CMakeLists.txt
//   const ptr = M._bench_input(n);                          // float* into a pt::Tensor of n floats
//   M.HEAPF32.set(data, ptr >> 2);
//   M._bench_reset();            // two fresh observers: both see the input once
//   M._bench_forward();          // one more batch into the first (the calibration loop's call)
//   M._bench_calculate_qparams(); // the search on the second, which holds exactly one batch
//   M.HEAPF32[M._bench_result() >> 2]                       // scale; zero_point as int32 at +4
//   M._bench_evaluations()                                  // quant_error evaluations of the search
//
// The observer is the int8 per_tensor_affine HistogramObserver of the XNNPACK configs
// (quant_min -128, quant_max 127, eps 2^-12, 2048 bins).
#include <emscripten/emscripten.h>

#include <memory>

#include "quant/histogram_observer.h"

namespace {

pt::Tensor g_input;
std::unique_ptr<pt::HistogramObserver> g_streaming;  // takes every bench_forward
std::unique_ptr<pt::HistogramObserver> g_searched;   // one batch, searched by bench_calculate_qparams
alignas(8) unsigned char g_result[8];  // float scale, int32 zero_point

pt::ObserverArgs xnnpack_activation_args() {
  pt::ObserverArgs a;
  a.dtype = pt::DType::Int8;
  a.qscheme = pt::QScheme::per_tensor_affine;
  a.quant_min = -128;
  a.quant_max = 127;
  a.eps = 0x1p-12f;
  return a;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE float* bench_input(int n) {
  g_input = pt::Tensor::zeros({n});
  return g_input.data<float>();
}

EMSCRIPTEN_KEEPALIVE void bench_reset() {
  g_streaming = std::make_unique<pt::HistogramObserver>(xnnpack_activation_args());
  g_searched = std::make_unique<pt::HistogramObserver>(xnnpack_activation_args());
  g_streaming->forward(g_input);
  g_searched->forward(g_input);
}

EMSCRIPTEN_KEEPALIVE void bench_forward() { g_streaming->forward(g_input); }

EMSCRIPTEN_KEEPALIVE void bench_calculate_qparams() {
  const pt::QParams qp = g_searched->calculate_qparams();
  const float scale = qp.scale.data<float>()[0];
  const int zero_point = qp.zero_point.to(pt::DType::Int32).data<int32_t>()[0];
  __builtin_memcpy(g_result, &scale, 4);
  __builtin_memcpy(g_result + 4, &zero_point, 4);
}

EMSCRIPTEN_KEEPALIVE int bench_evaluations() {
  return static_cast<int>(g_searched->non_linear_param_search().quant_error_evaluations);
}

EMSCRIPTEN_KEEPALIVE unsigned char* bench_result() { return g_result; }

}  // extern "C"
