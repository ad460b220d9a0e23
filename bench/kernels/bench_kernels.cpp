// bench_kernels.cpp — the wasm module bench/kernels/run.js times: C exports that set up one int8 op of a
// lowered graph (engine/lower) or a whole model, and run it once per call, so that JavaScript drives every
// timed call (V8 optimises a wasm function only on its next call: a loop inside one call stays slow).
//
//   const M = await createBench({ wasmBinary });
//   M._bench_conv_setup(C, O, H, W, k, pad, x86);  M._bench_run();   // int8.conv2d on codes -> codes
//   M._bench_linear_setup(M, K, N, x86);           M._bench_run();   // int8.linear (GEMM M×K·K×N + requant)
//   M._bench_gemm_setup(M, K, N);                  M._bench_run();   // i16_gemm alone, operands packed
//   M._bench_tiny_setup(lowered, batch);           M._bench_run();   // tiny: lowered int8, or float
//   M._bench_checksum()                                              // of the last output, so work is not dropped
// Ops run as the interpreter calls them (the op function on the node's argument values), on
// deterministic pseudo-random codes; the weights are packed once in setup, as lowering does.
#include <emscripten/emscripten.h>

#include <functional>
#include <memory>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"
#include "kernels/kernels.h"
#include "lower/int8_ops.h"
#include "lower/lower.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"

using namespace pt;

namespace {

std::function<double()> g_run;  // one timed call; returns a checksum of its output
double g_checksum = 0;
uint32_t g_seed = 1;

uint32_t next() { return g_seed = g_seed * 1664525u + 1013904223u; }

Tensor random_codes(const Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  for (std::byte& b : std::span<std::byte>(t.bytes(), t.nbytes())) b = static_cast<std::byte>(next() >> 24);
  return t;
}

double checksum_of(const Tensor& t) {
  double s = 0;
  const auto* b = reinterpret_cast<const uint8_t*>(t.bytes());
  for (size_t i = 0; i < t.nbytes(); i += 61) s += b[i];
  return s;
}

// The converted pattern dq(x) → conv2d / linear(dq(w), bias) → q, lowered; the int8 op kept with its values.
struct OneOp {
  GraphModule gm;
  Node* node = nullptr;
  std::vector<Value> values;
};
std::unique_ptr<OneOp> g_op;

void lower_pattern(const Shape& x_shape, const Shape& w_shape, bool conv, int64_t pad, bool x86) {
  const DType act = x86 ? DType::UInt8 : DType::Int8;
  const int64_t qmin = x86 ? 0 : -128, qmax = x86 ? 255 : 127, zp = x86 ? 128 : 0;
  GraphModule gm;
  Graph& g = gm.graph;
  Node* x = g.placeholder("x");
  Node* dq = g.call_function(target::dequantize_per_tensor, qdq_arg_list({x, 0.02, zp, std::nullopt, qmin, qmax, act}));
  const int64_t O = w_shape[0];
  gm.set_tensor("w", random_codes(w_shape, DType::Int8));
  Tensor scales = Tensor::empty({O});
  for (int64_t o = 0; o < O; ++o) scales.data<float>()[o] = 0.001f + 0.0001f * static_cast<float>(o % 7);
  gm.set_tensor("w_scale", scales, true);
  gm.set_tensor("w_zero_point", Tensor::zeros({O}, DType::Int32), true);
  gm.set_tensor("bias", Tensor::full({O}, 0.05f));
  Node* wdq = g.call_function(target::dequantize_per_channel,
                              qdq_arg_list({g.get_attr("w"), g.get_attr("w_scale"), g.get_attr("w_zero_point"),
                                            int64_t{0}, -128, 127, DType::Int8}));
  Node* op = conv ? g.call_function(target::conv2d, {dq, wdq, g.get_attr("bias"), std::vector<int64_t>{1, 1},
                                                     std::vector<int64_t>{pad, pad}})
                  : g.call_function(target::linear, {dq, wdq, g.get_attr("bias")});
  Node* q = g.call_function(target::quantize_per_tensor, qdq_arg_list({op, 0.05, zp, std::nullopt, qmin, qmax, act}));
  g.output({g.call_function(target::dequantize_per_tensor, qdq_arg_list({q, 0.05, zp, std::nullopt, qmin, qmax, act}))});
  Lowered l = lower(gm, {x86 ? LowerBackend::x86 : LowerBackend::xnnpack});
  auto one = std::make_unique<OneOp>();
  one->gm = std::move(l.gm);
  for (Node* n : one->gm.graph.nodes())
    if (node_kind(*n) == NodeKind::delegate) one->node = n;
  const auto a = int8_args(*one->node);
  one->values.push_back(Value(std::vector<Tensor>{random_codes(x_shape, act)}));
  for (Node* p : {a->params, a->weight, a->bias, a->scale})
    one->values.push_back(p ? Value(one->gm.get_tensor(p->target)) : Value());
  g_op = std::move(one);
  const OpFn* fn = find_op(g_op->node->target);
  g_run = [fn] { return checksum_of(std::get<Tensor>((*fn)(OpArgs{g_op->values, *g_op->node}).v)); };
}

std::vector<int16_t> g_a, g_b;
std::vector<int32_t> g_c;
std::unique_ptr<GraphModule> g_model;
Tensor g_input;

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void bench_conv_setup(int C, int O, int H, int W, int k, int pad, int x86) {
  lower_pattern({1, C, H, W}, {O, C, k, k}, true, pad, x86 != 0);
}

EMSCRIPTEN_KEEPALIVE void bench_linear_setup(int M, int K, int N, int x86) { lower_pattern({M, K}, {N, K}, false, 0, x86 != 0); }

// i16_gemm alone: C[M][N8] = A[M][K] · B[K][N] on operands packed once (weights as A rows, activations as B panels).
EMSCRIPTEN_KEEPALIVE void bench_gemm_setup(int M, int K, int N) {
  g_a.assign(static_cast<size_t>(M * K), 0);
  g_b.assign(static_cast<size_t>(K * ((N + 7) / 8 * 8)), 0);
  g_c.assign(static_cast<size_t>(M * ((N + 7) / 8 * 8)), 0);
  for (auto& v : g_a) v = static_cast<int16_t>(static_cast<int8_t>(next() >> 24));
  for (auto& v : g_b) v = static_cast<int16_t>(static_cast<int8_t>(next() >> 24));
  g_run = [M, K, N] {
    kernels::i16_gemm(kernels::I16Gemm{static_cast<size_t>(M), static_cast<size_t>((N + 7) / 8), static_cast<size_t>(K / 2),
                                       g_a.data(), static_cast<size_t>(K), g_b.data(), g_c.data(),
                                       static_cast<size_t>((N + 7) / 8 * 8)});
    return static_cast<double>(g_c[0] + g_c.back());
  };
}

// TinyConvNet: XNNPACK-quantized (ExecuTorch's quantizer, per-channel, 4 calibration batches) and lowered,
// or the float model; one input batch, float in, float out.
EMSCRIPTEN_KEEPALIVE void bench_tiny_setup(int lowered, int batch) {
  manual_seed(0);
  Model m = get_model("tiny");
  GraphModule gm = export_module(m, example_inputs(m, 4));
  if (lowered) {
    executorch::XNNPACKQuantizer q;
    q.set_global(executorch::get_symmetric_quantization_config({.is_per_channel = true}));
    GraphModule prepared = prepare_pt2e(gm, q);
    for (const Batch& b : calibration_batches(16, 4, m.input_shape)) prepared.forward({b.x});
    g_model = std::make_unique<GraphModule>(lower(convert_pt2e(prepared), {}).gm);
  } else {
    g_model = std::make_unique<GraphModule>(std::move(gm));
  }
  g_input = calibration_batches(batch, batch, m.input_shape)[0].x;
  g_run = [] { return checksum_of(g_model->forward({g_input})[0]); };
}

EMSCRIPTEN_KEEPALIVE void bench_run() { g_checksum += g_run(); }
EMSCRIPTEN_KEEPALIVE double bench_checksum() { return g_checksum; }

}  // extern "C"
