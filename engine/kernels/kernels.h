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


// ---- integer kernels: what engine/lower/ runs a lowered int8 graph with ------------------------------
// Integer arithmetic is exact, so a variant may sum in any order: every sum below wraps modulo 2^32
// (unsigned arithmetic), which makes the result one value whatever the order.

// i16_gemm: C = A · B in int32, the heart of int8 conv2d / linear (engine/lower/int8_ops.h). The int8 / uint8
// operands arrive widened to int16 with their zero points subtracted (so u8·s8 and s8·s8 are one
// kernel), K a multiple of 2 (the packer pads a zero row):
//   A: m rows of 2·k_pairs int16, row i at a + i·a_stride              (the weights, packed once)
//   B: `panels` panels of 8 columns; panel p holds, for each pair kk, the 16 values
//      B[2kk][8p], B[2kk+1][8p], B[2kk][8p+1], B[2kk+1][8p+1], ..., B[2kk+1][8p+7]
//      at b + (p·k_pairs + kk)·16                                      (im2col writes this layout)
//   C: m rows of 8·panels int32, row i at c + i·c_stride:  C[i][j] = Σ_k A[i][k]·B[k][j]  (mod 2^32).
// The pair layout is what SIMD128's i32x4.dot_i16x8_s multiplies: two k at a time, four columns a
// vector (a straightforward 4×8 tile; XNNPACK packs its qs8 weights along the same lines, src/packing.c).
struct I16Gemm {
  size_t m, panels, k_pairs;
  const int16_t* a;
  size_t a_stride;
  const int16_t* b;
  int32_t* c;
  size_t c_stride;
};
using I16GemmFn = void(const I16Gemm& g) noexcept;
extern const Kernel<I16GemmFn> i16_gemm;

// i16_gemm_offsets: i16_gemm with B read where it lies instead of packed: the 16 values of pair kk in panel p
// (the layout above: B[2kk][8p + j] at 2j, B[2kk + 1][8p + j] at 2j + 1) start at b + pair_offsets[kk] +
// panel_offsets[p] (counted in int16; any alignment, offsets may overlap):
//   C[i][8p + j] = Σ_kk A[i][2kk]·b[o + 2j] + A[i][2kk + 1]·b[o + 2j + 1],  o = pair_offsets[kk] + panel_offsets[p]
// (mod 2^32). int8.conv2d at stride 1 lays its input as channel pairs interleaved (value of channel 2q at 2w, of
// 2q + 1 at 2w + 1 along each padded row), so a pair (channels 2q, 2q + 1 at kernel tap (i, j)) over eight
// neighbouring outputs is one run of 16: the GEMM reads the input in place, with no im2col.
struct I16GemmOffsets {
  size_t m, panels, k_pairs;
  const int16_t* a;
  size_t a_stride;
  const int16_t* b;
  const size_t* pair_offsets;   // k_pairs of them
  const size_t* panel_offsets;  // panels of them
  int32_t* c;
  size_t c_stride;
};
using I16GemmOffsetsFn = void(const I16GemmOffsets& g) noexcept;
extern const Kernel<I16GemmOffsetsFn> i16_gemm_offsets;

// Integer Winograd F(2×2, 3×3) (Lavin & Gray 2016; int8.conv2d's 3×3 stride-1 path, engine/lower/int8_ops.cpp):
// a 2×2 block of outputs from a 4×4 tile d of input as Y = Aᵀ [U ⊙ (Bᵀ d B)] A, with
//   Bᵀ = [1 0 −1 0; 0 1 1 0; 0 −1 1 0; 0 1 0 −1],   Aᵀ = [1 1 1 0; 0 1 −1 −1],
// and U = G' g G'ᵀ from the 3×3 weights g, G' = [2 0 0; 1 1 1; 1 −1 1; 0 0 2] (twice the usual G, so U is
// integer and Y comes out 4 times the convolution). The 16 positions ξ = 4u + v of the 4×4 transform are 16
// independent GEMMs over the channels (i16_gemm, one a position); these two kernels are the transforms around them.
//
// i16_winograd_input: V = Bᵀ d B for 8 tiles a panel, both channels of a pair, into i16_gemm's panel layout.
// Tile j (< 8) of panel p, channel pair q (< pairs): d[r][a] (r, a < 4) is the pair of int16 at
//   in + q·plane_stride + panel_offsets[p] + r·row_stride + 4j + 2a          (channel 2q, then 2q + 1),
// and out[ξ·xi_stride + (p·pairs + q)·16 + 2j + h] = (Bᵀ d_h B)[u][v] cast to int16 (the exact sum wrapped),
// h = 0, 1 the pair's channels. Each tile row read is the 40 int16 from in + q·plane_stride + panel_offsets[p] +
// r·row_stride on (4 more than the 8 tiles cover): the caller keeps them inside its buffer.
struct WinogradInput {
  const int16_t* in;
  size_t pairs, plane_stride, row_stride;
  size_t panels;
  const size_t* panel_offsets;  // panels of them, in int16
  int16_t* out;
  size_t xi_stride;
};
using WinogradInputFn = void(const WinogradInput& w) noexcept;
extern const Kernel<WinogradInputFn> i16_winograd_input;

// i32_winograd_output: Y = Aᵀ M A of `tiles` tiles in `rows` rows (output channels), divided by 4. M[u][v] of
// row i, tile t is m[(4u + v)·xi_stride + i·m_stride + t]; the 2×2 outputs go to
//   y[i·y_stride + e·y_row + 2t + f] = int32(Σ_uv Aᵀ[e][u]·M[u][v]·Aᵀ[f][v] mod 2^32) >> 2   (e, f ∈ {0, 1}),
// an arithmetic shift: exact when the sum is 4 times an int32 (the caller's bound), as a multiple of 4's is.
struct WinogradOutput {
  const int32_t* m;
  size_t rows, tiles, xi_stride, m_stride;
  int32_t* y;
  size_t y_stride, y_row;
};
using WinogradOutputFn = void(const WinogradOutput& w) noexcept;
extern const Kernel<WinogradOutputFn> i32_winograd_output;

// i16_pack_pairs: two int16 rows of B (k and k + 1) into i16_gemm's panel layout, from column p0 on —
//   out[((p0 + t) / 8)·panel_stride + ((p0 + t) % 8)·2]     = row0[t]
//   out[((p0 + t) / 8)·panel_stride + ((p0 + t) % 8)·2 + 1] = row1[t]        for t < n,
// out pointing at the pair's slots in panel 0 (b + kk·16) and panel_stride = 16·k_pairs. im2col calls it per
// pair of kernel taps and output row; nothing else of out is written.
using PackPairsFn = void(const int16_t* row0, const int16_t* row1, size_t n, size_t p0, int16_t* out,
                         size_t panel_stride) noexcept;
extern const Kernel<PackPairsFn> i16_pack_pairs;

// Requantization: an int32 accumulator (bias included) to the output's int8 / uint8 code. The kind is
// chosen per lowered op; the three are the ways backends do it:
//   fp32         XNNPACK's fp32 requantization (src/qs8-qc8w-gemm/gen/*-fp32-scalar-fmagic.c):
//                v = f32(acc)·scale, clamped to [qmin − zp, qmax − zp] in float, rounded to nearest even
//                with the magic number 1.5·2^23, + zp;
//   fixed_point  gemmlowp / TFLite (fixedpoint.h, kernels/internal/common.h MultiplyByQuantizedMultiplier):
//                SaturatingRoundingDoublingHighMul(acc·2^max(shift,0), multiplier), then
//                RoundingDivideByPOT by max(−shift, 0) (half away from zero), + zp, clamped;
//   shift        a pure arithmetic shift by `shift` ≥ 0 bits after adding 2^(shift−1) (half up: the
//                rounding of XNNPACK's qs8-vadd, src/qs8-vadd/scalar.c.in), + zp, clamped;
//   shift_even   a power-of-two multiplier 2^-shift as the VPU applies it (engine/lower/vpu.h): shift > 0
//                an arithmetic shift right rounding half to even (what quantize's round, nearbyint, does
//                to acc·2^-shift, so a power-of-two graph's integer run equals its fake-quant run bit for
//                bit), shift ≤ 0 a left shift by −shift (exact), + zp, clamped;
//   f32_output   no code: the float32 output of onednn's qconv2d_pointwise / qlinear_pointwise with
//                output_dtype float32 (what torchao v0.18.0 inductor_passes/x86.py qconv_weight_prepack /
//                qlinear_weight_prepack make of dq → conv / linear with no quantize after): v = f32(acc)·scale
//                + bias_f32 — the accumulator scaled by s_in·s_w[c] first, the float bias added after, as
//                oneDNN's int8 convolution applies its source and weight scales before the bias — then
//                max(v, min_f32) (0 for a fused relu, −inf without); out_bytes 4, the float's bits. zero_point,
//                qmin and qmax are not read. Two roundings (the product, the sum); no fused multiply-add.
// Additions (and shift_even's left shift) wrap modulo 2^32 (as SIMD lanes do); lowering keeps
// accumulators far from the ends.
enum class RequantKind : int32_t { fp32 = 0, fixed_point = 1, shift = 2, shift_even = 3, f32_output = 4 };
struct Requantization {
  RequantKind kind = RequantKind::fp32;
  float scale = 1.0f;      // fp32: the real multiplier s_in·s_w / s_out (finite, > 0); f32_output: s_in·s_w[c]
  int32_t multiplier = 0;  // fixed_point: Q0.31, in [2^30, 2^31)
  int32_t shift = 0;       // fixed_point: exponent in [−31, 30]; shift: right shift in [0, 31];
                           // shift_even: right shift in [0, 31], or a left shift by −shift in [1, 31]
  int32_t zero_point = 0;
  int32_t qmin = -128, qmax = 127;  // the output code's range (a fused relu raises qmin to zero_point)
  int32_t out_bytes = 1;   // the code's width: 1 (int8 / uint8), 2 (int16, the VPU's Q3.12 output), 4 (f32_output)
  float bias_f32 = 0.0f;   // f32_output: the channel's float bias, added after the scale
  float min_f32 = -std::numeric_limits<float>::infinity();  // f32_output: 0 for a fused relu

  // The scalar step every variant reproduces (f32_output: the float's bits).
  int32_t apply(int32_t acc) const {
    int32_t v;
    if (kind == RequantKind::f32_output) {
      const float scaled = static_cast<float>(acc) * scale;
      return __builtin_bit_cast(int32_t, std::max(scaled + bias_f32, min_f32));
    }
    if (kind == RequantKind::fp32) {
      float f = static_cast<float>(acc) * scale;
      f = std::max(f, static_cast<float>(qmin - zero_point));
      f = std::min(f, static_cast<float>(qmax - zero_point));
      f += 12582912.0f;  // 1.5·2^23: the low mantissa bits now hold rne(f)
      return static_cast<int32_t>(__builtin_bit_cast(uint32_t, f) - (0x4B400000u - static_cast<uint32_t>(zero_point)));
    }
    if (kind == RequantKind::fixed_point) {
      const int32_t left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
      v = rounding_divide_by_pot(srdhm(static_cast<int32_t>(static_cast<uint32_t>(acc) << left), multiplier), right);
    } else if (kind == RequantKind::shift_even) {
      v = shift > 0 ? shift_half_even(acc, shift) : static_cast<int32_t>(static_cast<uint32_t>(acc) << -shift);
    } else {
      const uint32_t round = shift > 0 ? uint32_t{1} << (shift - 1) : 0;
      v = static_cast<int32_t>(static_cast<uint32_t>(acc) + round) >> shift;
    }
    v = static_cast<int32_t>(static_cast<uint32_t>(v) + static_cast<uint32_t>(zero_point));
    return std::min(std::max(v, qmin), qmax);
  }
  // x / 2^s rounded half to even, s in [1, 31]: the floor, plus one above the half or at the half of an odd floor.
  static int32_t shift_half_even(int32_t x, int32_t s) {
    const int32_t q = x >> s;
    const uint32_t rem = static_cast<uint32_t>(x) & ((uint32_t{1} << s) - 1), half = uint32_t{1} << (s - 1);
    return q + ((rem > half || (rem == half && (q & 1))) ? 1 : 0);
  }
  // gemmlowp SaturatingRoundingDoublingHighMul: round(a·b / 2^31), the one overflow saturated.
  static int32_t srdhm(int32_t a, int32_t b) {
    if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
    const int64_t p = static_cast<int64_t>(a) * b;
    const int64_t nudge = p >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
    return static_cast<int32_t>((p + nudge) / (int64_t{1} << 31));
  }
  // gemmlowp RoundingDivideByPOT: x / 2^n rounded half away from zero.
  static int32_t rounding_divide_by_pot(int32_t x, int32_t n) {
    const int32_t mask = static_cast<int32_t>((int64_t{1} << n) - 1);
    const int32_t rem = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> n) + (rem > threshold ? 1 : 0);
  }
};

// i32_requantize: out[i · out_stride] = r.apply(acc[i] + bias) for i < n, the code's low r.out_bytes
// bytes (an int8 or uint8 value, or an int16 one or f32_output's float in the machine's byte order, as
// the output tensor's dtype reads it), out_stride counted in codes; bias adds modulo 2^32.
using RequantizeFn = void(const int32_t* acc, size_t n, int32_t bias, const Requantization& r, uint8_t* out,
                          size_t out_stride) noexcept;
extern const Kernel<RequantizeFn> i32_requantize;

// q8_add: XNNPACK's integer add (src/qs8-vadd/scalar.c.in; parameters as microparams-init.c
// xnn_init_qs8_add_minmax_scalar_params makes them, engine/lower/ restates that):
//   out[i] = clamp(asr(bias + a[i]·a_multiplier + b[i]·b_multiplier, shift) + zero_point, qmin, qmax)
// with a, b read as int8 (is_signed) or uint8, int32 arithmetic modulo 2^32, shift in [0, 31].
struct AddParams {
  int32_t bias = 0, a_multiplier = 0, b_multiplier = 0;
  int32_t shift = 0;
  int32_t zero_point = 0, qmin = -128, qmax = 127;
  bool is_signed = true;

  int32_t apply(int32_t a, int32_t b) const {
    const uint32_t acc = static_cast<uint32_t>(bias) + static_cast<uint32_t>(a) * static_cast<uint32_t>(a_multiplier) +
                         static_cast<uint32_t>(b) * static_cast<uint32_t>(b_multiplier);
    const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int32_t>(acc) >> shift) +
                                           static_cast<uint32_t>(zero_point));
    return std::min(std::max(v, qmin), qmax);
  }
  int32_t load(uint8_t byte) const { return is_signed ? static_cast<int8_t>(byte) : byte; }
};
using Q8AddFn = void(const uint8_t* a, const uint8_t* b, size_t n, const AddParams& p, uint8_t* out) noexcept;
extern const Kernel<Q8AddFn> q8_add;

// q8_max: out[i] = the larger of a[i] and b[i], codes read as int8 (is_signed) or uint8 — max pooling's step:
// int8.max_pool2d folds a window's input rows into one with it (engine/lower/int8_ops.cpp). out may be a.
using Q8MaxFn = void(const uint8_t* a, const uint8_t* b, size_t n, bool is_signed, uint8_t* out) noexcept;
extern const Kernel<Q8MaxFn> q8_max;

// q8_widen_pairs: rows × n codes of two planes (read as int8 when is_signed, else uint8; row r at r·in_stride)
// minus the zero point, interleaved into int16 rows (row r at out + r·out_stride) with `pad` pairs of zeros on
// either side — the padded rows of int8.conv2d's channel pairs (engine/lower/), a plane a call:
//   out[r·out_stride + 2(pad + t)]     = a[r·in_stride + t] − zero_point
//   out[r·out_stride + 2(pad + t) + 1] = b[r·in_stride + t] − zero_point (0 when b is null)      for t < n,
//   out[r·out_stride + 2u + {0, 1}]    = 0                          for u < pad and pad + n ≤ u < n + 2·pad,
// each value cast to int16 (wrapping); nothing else of out is written.
struct WidenPairs {
  const uint8_t* a;
  const uint8_t* b;  // null: the pairs' second halves are 0
  size_t rows, n, in_stride, pad;
  bool is_signed;
  int32_t zero_point;
  int16_t* out;
  size_t out_stride;
};
using Q8WidenPairsFn = void(const WidenPairs& w) noexcept;
extern const Kernel<Q8WidenPairsFn> q8_widen_pairs;

// q8_sum: Σ x[i] for i < n, codes read as int8 (is_signed) or uint8, modulo 2^32 — average pooling's sum
// (int8.mean, one call per plane; XNNPACK's global average pooling sums the same way before requantizing).
using Q8SumFn = int32_t(const uint8_t* x, size_t n, bool is_signed) noexcept;
extern const Kernel<Q8SumFn> q8_sum;
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

// ---- f32_max_pool2d: max_pool2d's windows and the index each takes ------------------------------------
// planes images of H x W at x (one after another) to planes outputs of OH x OW at y, and per output the
// flat index ih · W + iw (within its plane) of the input it took. Window (oh, ow) covers the rows
// oh · sh − ph + i · dh (i < kh) and columns ow · sw − pw + j · dw (j < kw) that lie inside the image,
// scanned rows first as torch's cpu_max_pool (aten/src/ATen/native/cpu/MaxPoolKernel.cpp): the first
// element, then each later one that is greater or NaN (MaxPool2d::window); a window with no element
// inside gives −inf and index −1. The caller keeps a plane below 2^31 elements.
struct MaxPool2d {
  const float* x;
  size_t planes;
  int64_t H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw;
  float* y;
  int32_t* indices;

  // Output (oh, ow) of the plane at xp: the reference's step.
  void window(const float* xp, int64_t oh, int64_t ow, float& best, int32_t& at) const {
    best = -std::numeric_limits<float>::infinity();
    at = -1;
    bool first = true;
    for (int64_t i = 0; i < kh; ++i) {
      const int64_t ih = oh * sh - ph + i * dh;
      if (ih < 0 || ih >= H) continue;
      for (int64_t j = 0; j < kw; ++j) {
        const int64_t iw = ow * sw - pw + j * dw;
        if (iw < 0 || iw >= W) continue;
        const float v = xp[ih * W + iw];
        if (first || v > best || v != v) {
          best = v;
          at = static_cast<int32_t>(ih * W + iw);
          first = false;
        }
      }
    }
  }
};
using MaxPool2dFn = void(const MaxPool2d& p) noexcept;
extern const Kernel<MaxPool2dFn> f32_max_pool2d;

// ---- f32_fake_quant: fake quantization with an integer zero point, and its clamp mask ------------------
// out[i], mask[i] = FakeQuant::apply(x[i]) for i < n: ATen's fake_quantize_per_tensor_affine_cachemask
// CPU kernel (aten/src/ATen/native/quantized/cpu/kernels/QuantizedOpKernels.cpp,
// fake_quantize_tensor_cachemask_kernel): qf = zp + rne(x · inv_scale) in float, y = (clamp(qf) − zp) ·
// scale, mask = quant_min ≤ qf ≤ quant_max; NaN clamps to quant_min. inv_scale is the caller's 1 / scale
// (the per-channel caller applies one channel's FakeQuant element by element).
struct FakeQuant {
  float scale, inv_scale;
  int64_t zero_point, quant_min, quant_max;

  void apply(float v, float& out, uint8_t& mask) const {
    const float qf = static_cast<float>(zero_point) + std::nearbyint(v * inv_scale);
    // clamp in compares (std::fmin / std::fmax are calls into libc in wasm)
    const double d = static_cast<double>(qf);
    const int64_t q = !(d >= static_cast<double>(quant_min)) ? quant_min
                      : d >= static_cast<double>(quant_max)  ? quant_max  // >=: INT64_MAX rounds up to 2^63
                                                             : static_cast<int64_t>(d);
    // q − zero_point in double, as ATen subtracts after fmin / fmax (exact below 2^53; int64_t could overflow
    // for a range reaching INT64_MIN)
    out = static_cast<float>(static_cast<double>(q) - static_cast<double>(zero_point)) * scale;
    mask = (quant_min <= qf && qf <= quant_max) ? 1 : 0;
  }
};
using FakeQuantFn = void(const float* x, size_t n, const FakeQuant& p, float* out, uint8_t* mask) noexcept;
extern const Kernel<FakeQuantFn> f32_fake_quant;

// ---- f32_affine_fma: y = fma(x, a, c) over a run, one multiplier and one offset --------------------------
// y[i] = std::fma(x[i], a, c) for i < n: batch_norm's training transform (torch's AVX2 kernel contracts
// y = x · alpha + beta into one fused multiply-add). SIMD128 has no fused multiply-add and std::fma is a
// call into libc in wasm (which rounds twice); the reference computes core/fma.h's fma_f32, and a variant may
// too (r = f64(x) · a + c rounded to float, except where fma_f32_needs_exact(r): those elements go to the
// reference). y may be x (in place).
using AffineFmaFn = void(const float* x, size_t n, float a, float c, float* y) noexcept;
extern const Kernel<AffineFmaFn> f32_affine_fma;

// ---- f64_chain_sums: up to eight channels' serial double sums side by side (batch_norm's statistics) -------
// For each channel j < m: acc[j] += t_j(x[j · stride + i]) for i = 0 .. n − 1, in that order, each addition in double
// (one serial chain per channel: torch's batch_norm_cpu_collect_stats_contiguous_impl, whose bits depend on the
// order), where t_j(v) = v, or with `mean` given, t_j(v) = d · d with d = v − mean[j], both in float. The caller
// walks the batch: one call per image, the chains carried over in acc. A variant runs the m chains side by side
// (each addition then waits only on its own channel's last one).
struct ChainSums {
  const float* x;
  size_t stride, n, m;  // m <= kMaxChains
  const float* mean;    // nullptr: plain sums; else m means (squared deviations)
  double* acc;          // m running sums
  static constexpr size_t kMaxChains = 8;
  static double term(float v, const float* mean, size_t j) {
    if (!mean) return static_cast<double>(v);
    const float d = v - mean[j];
    return static_cast<double>(d * d);
  }
};
using ChainSumsFn = void(const ChainSums& c) noexcept;
extern const Kernel<ChainSumsFn> f64_chain_sums;

// ---- float Winograd F(2×2, 3×3) and F(3×3, 2×2): conv2d's gradients at 3×3, stride 1, padding 1 ------------
// (Lavin & Gray 2016, as the integer pair above; engine/ops/backward.cpp makes the 16 GEMMs, one a position ξ = 4u + v
// of the 4×4 transformed tile, and the weight side's transforms.) Bᵀ = [1 0 −1 0; 0 1 1 0; 0 −1 1 0; 0 1 0 −1],
// Aᵀ = [1 1 1 0; 0 1 −1 −1]. Every sum below is in float, in the order written, so a variant's bits are the reference's
// (NaN payloads aside).
//
// f32_winograd_input: V = Bᵀ d B of the 4×4 tiles, two apart, of zero-padded planes. Tile (ty, tx) of plane p:
//   d[r][a] = in[p·plane_stride + (2ty + r)·row_stride + 2tx + a]                        (r, a < 4),
//   h[r] = (d[r][0] − d[r][2], d[r][1] + d[r][2], d[r][2] − d[r][1], d[r][1] − d[r][3])     (each row times B),
//   V[0] = h[0] − h[2], V[1] = h[1] + h[2], V[2] = h[2] − h[1], V[3] = h[1] − h[3]          (Bᵀ times those rows),
//   out[(4u + v)·xi_stride + p·out_plane + ty·tw + tx] = V[u][v].
// A variant may read each tile row up to column 2·tw + 3 (two past the last tile): the caller's buffer holds them.
struct F32WinogradInput {
  const float* in;
  size_t planes, plane_stride, row_stride, th, tw;
  float* out;
  size_t xi_stride, out_plane;
};
using F32WinogradInputFn = void(const F32WinogradInput& w) noexcept;
extern const Kernel<F32WinogradInputFn> f32_winograd_input;

// f32_winograd_output: Y = Aᵀ m A, the 2×2 outputs of each tile, written where they fall inside H × W planes.
// m[u][v] of plane p, tile t = ty·tw + tx is m[(4u + v)·xi_stride + p·m_plane + t];
//   s[0][v] = (m[0][v] + m[1][v]) + m[2][v],  s[1][v] = (m[1][v] − m[2][v]) − m[3][v],
//   y[p·y_plane + (2ty + e)·W + 2tx + f] = f == 0 ? (s[e][0] + s[e][1]) + s[e][2] : (s[e][1] − s[e][2]) − s[e][3]
// for 2ty + e < H and 2tx + f < W (th = ⌈H / 2⌉, tw = ⌈W / 2⌉).
struct F32WinogradOutput {
  const float* m;
  size_t planes, th, tw, xi_stride, m_plane;
  float* y;
  size_t y_plane, H, W;
};
using F32WinogradOutputFn = void(const F32WinogradOutput& w) noexcept;
extern const Kernel<F32WinogradOutputFn> f32_winograd_output;

// f32_winograd_grad: A g Aᵀ of the 2×2 tiles of planes of even size (conv2d's output gradient, the "filter" of the
// weight gradient's F(3×3, 2×2)), channels side by side: tile (ty, tx) of plane p is g[e][f] = in[p·plane_stride +
// (2ty + e)·row_stride + 2tx + f];
//   r[e] = (g[e][0], g[e][0] + g[e][1], g[e][0] − g[e][1], −g[e][1]),
//   out[(4u + v)·xi_stride + (ty·tw + tx)·tile_stride + p] = (r[0][v], r[0][v] + r[1][v], r[0][v] − r[1][v], −r[1][v])[u].
struct F32WinogradGrad {
  const float* in;
  size_t planes, plane_stride, row_stride, th, tw;
  float* out;
  size_t xi_stride, tile_stride;
};
using F32WinogradGradFn = void(const F32WinogradGrad& w) noexcept;
extern const Kernel<F32WinogradGradFn> f32_winograd_grad;

}  // namespace pt::kernels
