// kernels.h — the kernel room: small hot loops, each with a scalar reference and per-ISA variants,
// behind one dispatch point that the rest of the engine calls.
//
//   #include "kernels/kernels.h"
//   const pt::kernels::AMinMax s = pt::kernels::f32_aminmax(x.data(), x.size());   // the dispatch point
//   pt::kernels::f32_aminmax.variants[0].fn(x.data(), x.size());                  // the scalar reference
//
// The room sits just above core/ (core → kernels → ops → quant → ...): a kernel sees raw pointers and
// plain structs, never a Tensor, a graph or an error type; its caller (the operator: shapes, checks,
// scratch memory) lives in the room above and hands it valid arguments.
//
// A kernel is a Kernel<Fn>: its name and its variants, one per ISA, each a plain function in
// engine/kernels/<kernel>/<isa>.cpp that CMake compiles with that ISA's flags:
//   scalar.cpp     the reference: plain C++, the kernel's contract written as a loop;
//   wasmsimd.cpp   SIMD128 (<wasm_simd128.h>): real SIMD128 in the wasm build, and the same source
//                  natively through simde (kernels/simd128.h), so native tests, sanitizers and
//                  fuzzers run the code the browser runs;
//   x86 variants (avx2.cpp, ...) may be added for native builds; none exist yet.
// A kernel never throws (its type says noexcept, so a call from a function with cleanups stays inside
// wasm: engine/core/hot.h). Every variant returns the reference's bits on every input — NaN, ±inf, −0, subnormals, any size —
// which tests/engine/kernels/ checks in both builds. Variants are listed in registry.cpp from the
// reference (first) to the one this build calls (last); wasm has no run-time feature detection (a
// module that holds one SIMD instruction needs SIMD128), so the choice is made when compiling. A
// variant is a function of its own reached through a pointer, never inlined into a big caller, so V8
// optimises it alone (engine/core/hot.h says why that matters in the browser).
//
// engine/kernels/README.md maps the room: files, ISA flags, the tester, and the four steps of adding a
// kernel (its types and `extern const Kernel<...>` here, its variant files, registry.cpp, a tester row).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace pt::kernels {

// ---- the mechanism ---------------------------------------------------------------------------------

template <typename Fn> struct Variant {
  std::string_view isa;  // "scalar", "wasmsimd", ...: the file it lives in
  Fn* fn;
  size_t lanes;          // elements per step, so the tester tries sizes around it
};

template <typename Fn> struct Kernel;
template <typename R, typename... A, bool Nothrow> struct Kernel<R(A...) noexcept(Nothrow)> {
  using Fn = R(A...) noexcept(Nothrow);
  std::string_view name;
  std::span<const Variant<Fn>> variants;  // [0] the scalar reference, back() what this build runs

  R operator()(A... a) const noexcept(Nothrow) { return variants.back().fn(a...); }  // the dispatch point
  const Variant<Fn>& reference() const { return variants.front(); }
};

// The names of every kernel in the room (registry.cpp), so the tester can check it covers them all.
std::vector<std::string_view> kernel_names();

// ---- f32_aminmax: torch.aminmax over a float32 run, NaN skipped and reported --------------------------
// min / max of the elements that are not NaN, and whether a NaN was seen. A zero min or max is +0
// whatever the signs of the zeros in the run (which of +0 / −0 a scan keeps depends on the order it
// visits them in; quantization never looks at the sign of a zero range end). An empty run (or all
// NaN) gives {+inf, −inf}.
struct AMinMax {
  float min = std::numeric_limits<float>::infinity();
  float max = -std::numeric_limits<float>::infinity();
  bool nan = false;

  // One element: the scalar reference's step.
  void add(float v) {
    min = v < min ? v : min;
    max = v > max ? v : max;
    nan |= v != v;
  }
  // The result once every element is added: zero ends as +0.
  AMinMax positive_zeros() const {
    return {min == 0.0f ? 0.0f : min, max == 0.0f ? 0.0f : max, nan};
  }
};
using AMinMaxFn = AMinMax(const float* x, size_t n) noexcept;
extern const Kernel<AMinMaxFn> f32_aminmax;

// ---- f32_histc_aminmax: torch.histc's bin counts and aminmax, in one pass ---------------------------
// Counts every element of x into the bin torch.histc gives it on [lo, lo + width] (HistcRange::bin),
// as if every element lay inside (outside ones land in the edge bins, NaN in bin 0: the caller checks
// the returned AMinMax and drops the counts if the run reaches outside). Element i adds 1 to
// counts[(i % 4) · bins + bin]: four interleaved count arrays, so that neighbours falling into the
// same bin do not wait on one counter; the caller sums them. Returns f32_aminmax of the same run.
struct HistcRange {
  float lo;       // histc's first edge
  float width;    // f32(hi − lo) ≥ 0: 0, subnormal and +inf included
  int64_t bins;   // 1 ≤ bins < 2^31

  // trunc(f32(e − lo) · f32(bins) / width), clamped to [0, bins − 1]; NaN gives 0.
  int64_t bin(float e) const {
    const float fbins = static_cast<float>(bins);
    const float q = (e - lo) * fbins / width;
    if (!(q >= 0.0f)) return 0;
    return q >= fbins ? bins - 1 : std::min(static_cast<int64_t>(q), bins - 1);
  }
};
using HistcAMinMaxFn = AMinMax(const float* x, size_t n, HistcRange range, uint32_t* counts) noexcept;
extern const Kernel<HistcAMinMaxFn> f32_histc_aminmax;

// ---- f32_gemm: C += A · B in float32, each output's sum taken in k order ------------------------------
// The matrix product behind the gradients of conv2d (over im2col's columns) and linear.
// C is M x N with row stride ldc; B is K x N with row stride ldb; A is M x K read through two strides,
// A[m, k] = A[m · a_row + k · a_col], so one kernel takes A as stored (a_row = K, a_col = 1) or
// transposed (a_row = 1, a_col = M). Every output is one float32 chain, the reference's loop:
//   c = accumulate ? C[m, n] : +0;  for k = 0 .. K - 1:  c = c + A[m, k] · B[k, n]
//   (product rounded, then the sum);  C[m, n] = c
// so a variant may visit the outputs in any tiling and vectorise across m or n, but never splits or
// reorders a chain (no fused multiply-add: SIMD128 has none, and the build does not contract a·b + c).
// A caller that wants a bias writes it into C first and accumulates; without, C need not be cleared. NaN payloads are not part of the
// contract (a NaN anywhere in a chain gives some NaN); every other bit is, ±0 and subnormals included.
struct GemmArgs {
  size_t M, N, K;
  const float* A;
  size_t a_row, a_col;
  const float* B;
  size_t ldb;
  float* C;
  size_t ldc;
  bool accumulate;  // start each chain at C's value (true) or at +0 (false: C is only written)
};
using GemmFn = void(const GemmArgs& g) noexcept;
extern const Kernel<GemmFn> f32_gemm;

}  // namespace pt::kernels
