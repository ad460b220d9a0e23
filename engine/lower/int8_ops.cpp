// int8_ops.cpp — the int8 ops (int8_ops.h): packing, requantization parameters (or the float output
// stage), and the op functions over engine/kernels (i16_gemm, i16_gemm_offsets, i16_pack_pairs, q8_widen_pairs,
// i32_requantize, q8_add, q8_max, q8_sum); cat and flatten copy bytes.
#include "lower/int8_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/hot.h"
#include "core/op_budget.h"
#include "graph/targets.h"

namespace pt {

namespace kn = pt::kernels;

namespace {
// A float as the shortest decimal that reads back as it (a power of two such as 2^-12 shows as 0.000244140625).
std::string float_str(float f) {
  char buf[48];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  return buf;
}
}  // namespace

// ---- parameters --------------------------------------------------------------------------------------

Tensor Int8Params::to_tensor() const {
  Tensor t = Tensor::empty({static_cast<int64_t>(kInt8ParamCount)}, DType::Int32);
  int32_t* d = t.data<int32_t>();
#define PT_WRITE(name, dflt) *d++ = name;
  PT_INT8_PARAMS(PT_WRITE)
#undef PT_WRITE
  return t;
}

Int8Params Int8Params::from(const Tensor& t) {
  if (t.dtype() != DType::Int32 || t.shape() != Shape{static_cast<int64_t>(kInt8ParamCount)})
    throw ValueError("int8 op params: expected int32 [" + std::to_string(kInt8ParamCount) + "], got " +
                     dtype_name(t.dtype()) + " " + shape_str(t.shape()));
  Int8Params p;
  const int32_t* d = t.data<int32_t>();
#define PT_READ(name, dflt) p.name = *d++;
  PT_INT8_PARAMS(PT_READ)
#undef PT_READ
  if (p.out_bits != 8 && p.out_bits != 16 && p.out_bits != 32)
    throw ValueError("int8 op params: out_bits must be 8, 16 or 32 (float32), got " + std::to_string(p.out_bits));
  // The window's geometry divides by the stride and sizes buffers by kernel and padding (an edited params tensor).
  if (p.stride_h < 1 || p.stride_w < 1 || p.kernel_h < 1 || p.kernel_w < 1 || p.groups < 1 || p.pad_h < 0 || p.pad_w < 0)
    throw ValueError("int8 op params: expected stride, kernel and groups >= 1 and padding >= 0, got stride " +
                     std::to_string(p.stride_h) + "x" + std::to_string(p.stride_w) + ", kernel " +
                     std::to_string(p.kernel_h) + "x" + std::to_string(p.kernel_w) + ", padding " +
                     std::to_string(p.pad_h) + "x" + std::to_string(p.pad_w) + ", groups " + std::to_string(p.groups));
  if (p.weight_layout != static_cast<int32_t>(WeightLayout::taps) && p.weight_layout != static_cast<int32_t>(WeightLayout::channel_pairs))
    throw ValueError("int8 op params: weight_layout must be 0 (taps) or 1 (channel pairs), got " + std::to_string(p.weight_layout));
  return p;
}

std::vector<Arg> int8_arg_list(const Int8Args& a) { return {Arg(a.inputs), a.params, a.weight, a.bias, a.scale}; }

std::optional<Int8Args> int8_args(const Node& n) {
  if (!is_call(&n, group::int8) || n.args().size() != 5) return std::nullopt;
  const auto* inputs = std::get_if<std::vector<Node*>>(&n.args()[0].v);
  if (!inputs || !n.args()[1].node()) return std::nullopt;
  return Int8Args{*inputs, n.args()[1].node(), n.args()[2].node(), n.args()[3].node(), n.args()[4].node()};
}

WeightPacking conv_packing(const Int8Params& p, int64_t Cg) {
  return {static_cast<WeightLayout>(p.weight_layout), Cg, int64_t{p.kernel_h} * p.kernel_w};
}

WeightPacking linear_packing(int64_t K) { return {WeightLayout::taps, K, 1}; }

WeightLayout conv_weight_layout(const Int8Params& p, int64_t Cg) {
  return p.stride_h == 1 && p.stride_w == 1 && (Cg % 2 == 0 || Cg >= 9) ? WeightLayout::channel_pairs : WeightLayout::taps;
}

Tensor pack_weight(const Tensor& w, WeightLayout layout) {
  if (w.dtype() != DType::Int8 || w.dim() < 2) throw ValueError("pack_weight: expected an int8 weight [O, ...], got " +
                                                                 std::string(dtype_name(w.dtype())) + " " + shape_str(w.shape()));
  if (layout != WeightLayout::taps && w.dim() != 4)
    throw ValueError("pack_weight: channel pairs need a conv weight [O, Cg, kH, kW], got " + shape_str(w.shape()));
  const int64_t O = w.size(0), K = w.numel() / std::max<int64_t>(O, 1);
  const WeightPacking pk = w.dim() == 4 ? WeightPacking{layout, w.size(1), w.size(2) * w.size(3)} : linear_packing(K);
  const int64_t row = pk.row();
  Tensor out = Tensor::zeros({O, row}, DType::Int16);
  const int8_t* src = w.data<int8_t>();
  int16_t* dst = out.data<int16_t>();
  for (int64_t o = 0; o < O; ++o)
    for (int64_t k = 0; k < K; ++k) dst[o * row + pk.column(k)] = src[o * K + k];
  return out;
}

kn::Requantization requantization(kn::RequantKind kind, float multiplier, int32_t zero_point, int32_t qmin,
                                  int32_t qmax) {
  if (!(multiplier > 0.0f) || !std::isfinite(multiplier))
    throw ValueError("requantization: the multiplier must be finite and > 0, got " + std::to_string(multiplier));
  kn::Requantization r;
  r.kind = kind;
  r.scale = multiplier;
  r.zero_point = zero_point;
  r.qmin = qmin;
  r.qmax = qmax;
  if (kind == kn::RequantKind::fixed_point) {
    // TFLite quantization_util.cc QuantizeMultiplier: M = q·2^e, q in [0.5, 1); round(q·2^31) half away from 0.
    int e = 0;
    const double q = std::frexp(static_cast<double>(multiplier), &e);
    int64_t q_fixed = static_cast<int64_t>(std::round(q * 2147483648.0));
    if (q_fixed == (int64_t{1} << 31)) q_fixed /= 2, ++e;
    if (e > 30 || e < -31)
      throw ValueError("requantization: multiplier " + std::to_string(multiplier) +
                       " is outside the fixed-point range 2^-32 … 2^30");
    r.multiplier = static_cast<int32_t>(q_fixed);
    r.shift = e;
  } else if (kind == kn::RequantKind::shift || kind == kn::RequantKind::shift_even) {
    const int lowest = kind == kn::RequantKind::shift ? 0 : -31;  // shift_even shifts left too
    int e = 0;
    const double q = std::frexp(static_cast<double>(multiplier), &e);
    if (q != 0.5 || 1 - e < lowest || 1 - e > 31)
      throw ValueError("requantization: a shift needs a multiplier 2^-s with s in [" + std::to_string(lowest) +
                       ", 31], got " + float_str(multiplier) + (q != 0.5 ? " (not a power of two)" : ""));
    r.shift = 1 - e;
  }
  return r;
}

void set_shift_add_params(Int8Params& p, float a_scale, float b_scale, float out_scale) {
  if (a_scale != b_scale)
    throw ValueError("add: inputs of scales " + float_str(a_scale) + " and " + float_str(b_scale) +
                     " cannot be added as codes; a shift add needs one input scale (a SharedQuantizationSpec)");
  p.add_shift = requantization(kn::RequantKind::shift_even, a_scale / out_scale, 0, -128, 127).shift;
}

void set_add_params(Int8Params& p, float a_scale, float b_scale, float out_scale) {
  const float a_ratio = a_scale / out_scale, b_ratio = b_scale / out_scale;
  for (float ratio : {a_ratio, b_ratio})
    if (!(ratio >= 0x1.0p-10f && ratio < 0x1.0p+8f))
      throw NotImplementedError("add: input / output scale ratio " + std::to_string(ratio) +
                                " is outside [2^-10, 2^8), which XNNPACK's integer add supports");
  const float max_ratio = std::max(a_ratio, b_ratio);
  const int32_t exponent = static_cast<int32_t>(__builtin_bit_cast(uint32_t, max_ratio) >> 23) - 127;
  const int32_t shift = 20 - exponent;  // multipliers of 21 bits: the largest in [2^20, 2^21)
  const auto multiplier = [shift](float ratio) {  // lrintf(ratio · 2^shift), the exponent raised bitwise
    return static_cast<int32_t>(std::lrint(
        __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, ratio) + (static_cast<uint32_t>(shift) << 23))));
  };
  p.add_a_multiplier = multiplier(a_ratio);
  p.add_b_multiplier = multiplier(b_ratio);
  p.add_shift = shift;
  p.add_bias = static_cast<int32_t>((uint32_t{1} << (shift - 1)) - static_cast<uint32_t>(p.add_a_multiplier * p.in_zero_point) -
                                    static_cast<uint32_t>(p.add_b_multiplier * p.in2_zero_point));
}

OutputStage output_stage(const Int8Params& p, const Tensor& scale, const Tensor& bias, int64_t channel) {
  OutputStage st;
  st.r = requantization(static_cast<kn::RequantKind>(p.requant), scale.data<float>()[channel], p.out_zero_point,
                        p.out_qmin, p.out_qmax);
  st.r.out_bytes = p.out_bits / 8;
  if (st.r.kind == kn::RequantKind::f32_output) {
    st.r.bias_f32 = bias.data<float>()[channel];
    if (p.relu) st.r.min_f32 = 0.0f;
  } else {
    st.bias = bias.data<int32_t>()[channel];
  }
  return st;
}

// ---- the ops -----------------------------------------------------------------------------------------

namespace {

const Tensor& codes(const Tensor& t, DType want, const char* op) {
  if (t.dtype() != want)
    throw TypeError(std::string(op) + ": expected " + dtype_name(want) + " codes, got " + dtype_name(t.dtype()));
  return t;
}

int32_t code_at(const std::byte* base, int64_t i, bool is_signed) {
  const uint8_t b = static_cast<uint8_t>(base[i]);
  return is_signed ? static_cast<int8_t>(b) : b;
}

std::vector<OutputStage> output_stages(const Tensor& scale, const Tensor& bias, const Int8Params& p, int64_t O,
                                       const char* op) {
  const bool float_out = static_cast<kn::RequantKind>(p.requant) == kn::RequantKind::f32_output;
  if (float_out != (p.out_bits == 32))
    throw RuntimeError(std::string(op) + ": params pair requant " + std::to_string(p.requant) + " with out_bits " +
                       std::to_string(p.out_bits) + "; a float output takes requant f32_output and out_bits 32 together");
  const DType bias_dtype = float_out ? DType::Float32 : DType::Int32;
  if (scale.dtype() != DType::Float32 || scale.numel() != O || bias.dtype() != bias_dtype || bias.numel() != O)
    throw RuntimeError(std::string(op) + ": expected " + std::to_string(O) + " float32 multipliers and " + std::to_string(O) +
                       " " + dtype_name(bias_dtype) + " biases, got " + dtype_name(scale.dtype()) + " " +
                       shape_str(scale.shape()) + " and " + dtype_name(bias.dtype()) + " " + shape_str(bias.shape()));
  std::vector<OutputStage> st;
  st.reserve(static_cast<size_t>(O));
  for (int64_t o = 0; o < O; ++o) st.push_back(output_stage(p, scale, bias, o));
  return st;
}

struct Gemm {  // C[O][N8] = W16[O][K2] · B, B in panels of 8 columns
  int64_t O, K2, N;
  int64_t k_pairs() const { return K2 / 2; }
  int64_t N8() const { return (N + 7) / 8 * 8; }
};

// One image's group of channels as int16 codes minus the zero point, inside a border of zeros (the
// padding: 0 once the zero point is subtracted), plane by plane [Cg][H + 2·ph][W + 2·pw].
struct ConvShape {
  int64_t C, H, W, Cg, KH, KW, OH, OW, sh, sw, ph, pw;
  int64_t Hp() const { return H + 2 * ph; }
  int64_t Wp() const { return W + 2 * pw; }
  // im2col_panels' columns. At stride 1 a kernel tap's inputs for every output position are one run of the
  // padded planes if each output row is computed over the padded width (its last KW − 1 columns are no
  // outputs and are left out at requantization); otherwise the columns are the outputs, OW a row.
  bool runs() const { return sh == 1 && sw == 1; }
  int64_t row_stride() const { return runs() ? Wp() : OW; }
  int64_t columns() const { return (OH - 1) * row_stride() + OW; }
};
template <bool Signed>
PT_HOT_LOOP void padded_planes(const std::byte* x, const ConvShape& s, int32_t zp, int16_t* out) {
  using Code = std::conditional_t<Signed, int8_t, uint8_t>;
  const Code* in = reinterpret_cast<const Code*>(x);
  std::fill(out, out + s.Cg * s.Hp() * s.Wp(), int16_t{0});
  for (int64_t c = 0; c < s.Cg; ++c)
    for (int64_t h = 0; h < s.H; ++h) {
      const Code* src = in + (c * s.H + h) * s.W;
      int16_t* dst = out + (c * s.Hp() + h + s.ph) * s.Wp() + s.pw;
      for (int64_t w = 0; w < s.W; ++w) dst[w] = static_cast<int16_t>(src[w] - zp);
    }
}

// im2col into i16_gemm's panels (s.columns() of them), its rows in the packed weight's order (pk.tap_at): at
// stride 1 one i16_pack_pairs call per pair of rows over the whole run, otherwise one per pair and output row,
// gathered at the stride.
void im2col_panels(const int16_t* padded, const ConvShape& s, const WeightPacking& pk, int16_t* cols) {
  const int64_t P = s.columns(), row_len = s.runs() ? P : s.OW, rows = s.runs() ? 1 : s.OH, k_pairs = pk.row() / 2;
  if (P % 8) std::fill(cols + (P / 8) * k_pairs * 16, cols + (P / 8 + 1) * k_pairs * 16, int16_t{0});
  // The row of the layout's padding zeros, and the rows a stride gathers into, only where needed.
  const std::vector<int16_t> zero(pk.row() > pk.K() ? static_cast<size_t>(row_len) : 0, 0);
  std::vector<int16_t> gather0(s.sw == 1 ? 0 : static_cast<size_t>(row_len)), gather1(gather0.size());
  const auto tap_row = [&](int64_t m, int64_t oh, std::vector<int16_t>& gather) -> const int16_t* {
    const int64_t k = pk.tap_at(m);
    if (k < 0) return zero.data();
    const int64_t c = k / (s.KH * s.KW), i = k / s.KW % s.KH, j = k % s.KW;
    const int16_t* row = padded + (c * s.Hp() + oh * s.sh + i) * s.Wp() + j;
    if (s.sw == 1) return row;
    for (int64_t ow = 0; ow < s.OW; ++ow) gather[ow] = row[ow * s.sw];
    return gather.data();
  };
  for (int64_t kk = 0; kk < k_pairs; ++kk)
    for (int64_t oh = 0; oh < rows; ++oh)
      kn::i16_pack_pairs(tap_row(2 * kk, oh, gather0), tap_row(2 * kk + 1, oh, gather1), static_cast<size_t>(row_len),
                         static_cast<size_t>(oh * s.OW), cols + kk * 16, static_cast<size_t>(k_pairs * 16));
}

// Activation rows [N][K] as i16_gemm's B: panel p holds rows 8p … 8p + 7 as its columns, so each row's
// pair kk (two codes minus the zero point) lands at slot j of the panel's pair kk. Rows past N in the last
// panel, and the odd K's pad, are zeros.
template <bool Signed>
PT_HOT_LOOP void rows_to_panels(const std::byte* x, int64_t N, int64_t K, int64_t k_pairs, int32_t zp, int16_t* cols) {
  using Code = std::conditional_t<Signed, int8_t, uint8_t>;
  const Code* in = reinterpret_cast<const Code*>(x);
  if (N % 8) std::fill(cols + (N / 8) * k_pairs * 16, cols + (N / 8 + 1) * k_pairs * 16, int16_t{0});
  // A pair is one 32-bit word of the panel (low half k, high half k + 1, as the machine's byte order lays
  // out two int16), written whole.
  const auto pair = [zp](int32_t lo, int32_t hi) {
    return static_cast<uint32_t>(static_cast<uint16_t>(lo - zp)) | static_cast<uint32_t>(static_cast<uint16_t>(hi - zp)) << 16;
  };
  for (int64_t n = 0; n < N; ++n) {
    const Code* row = in + n * K;
    int16_t* slot = cols + (n / 8) * k_pairs * 16 + (n % 8) * 2;
    int64_t kk = 0;
    for (; 2 * kk + 1 < K; ++kk) {
      const uint32_t word = pair(row[2 * kk], row[2 * kk + 1]);
      std::memcpy(slot + kk * 16, &word, sizeof word);
    }
    if (K & 1) slot[kk * 16] = static_cast<int16_t>(row[2 * kk] - zp), slot[kk * 16 + 1] = 0;
  }
}

// codes [O][N] (a row per channel, Bytes a code; 4: the float output stage's floats) -> out [N][O], in
// blocks of 64 output rows so the rows written and the codes read stay in L1. One-byte codes go four
// channels at a time: each output row gets the four codes as one 32-bit word (in memory order, channel o
// first); the channels left over (O % 4) and wider codes one by one.
template <int Bytes>
PT_HOT_LOOP void channels_to_rows(const uint8_t* codes, int64_t O, int64_t N, uint8_t* out) {
  using Word = std::conditional_t<Bytes == 4, uint32_t, std::conditional_t<Bytes == 2, uint16_t, uint8_t>>;
  const Word* src = reinterpret_cast<const Word*>(codes);
  Word* dst = reinterpret_cast<Word*>(out);
  for (int64_t n0 = 0; n0 < N; n0 += 64) {
    const int64_t n1 = std::min(n0 + 64, N);
    int64_t o = 0;
    if constexpr (Bytes == 1)
      for (; o + 4 <= O; o += 4) {
        const uint8_t *r0 = codes + o * N, *r1 = r0 + N, *r2 = r1 + N, *r3 = r2 + N;
        for (int64_t n = n0; n < n1; ++n) {
          const uint32_t word = r0[n] | uint32_t{r1[n]} << 8 | uint32_t{r2[n]} << 16 | uint32_t{r3[n]} << 24;
          std::memcpy(out + n * O + o, &word, 4);  // little-endian, as wasm and x86-64 are
        }
      }
    for (; o < O; ++o)
      for (int64_t n = n0; n < n1; ++n) dst[n * O + o] = src[o * N + n];
  }
}

void run_gemm(const Gemm& g, const int16_t* a, const int16_t* cols, int32_t* acc) {
  kn::i16_gemm(kn::I16Gemm{static_cast<size_t>(g.O), static_cast<size_t>(g.N8() / 8), static_cast<size_t>(g.k_pairs()),
                           a, static_cast<size_t>(g.K2), cols, acc, static_cast<size_t>(g.N8())});
}

// ---- stride 1: the input read in place, as channel pairs -------------------------------------------------
// At stride 1 the GEMM needs no im2col: with the input of one image's group laid out as channel pairs, plane q
// holding channels 2q and 2q + 1 interleaved along each padded row ([⌈Cg/2⌉][Hp][Wp][2], values minus the zero
// point, the padding's border 0), the GEMM's pair (channels 2q, 2q + 1 at tap (i, j)) over eight neighbouring
// outputs is one run of 16 values, which i16_gemm_offsets reads where it lies. The weight rows come packed to
// match (WeightLayout::channel_pairs, pair kk = q·T + tap, T = KH·KW; lowering picks it, conv_weight_layout).
struct alignas(16) Block16 { std::byte b[16]; };  // scratch carved into 16-byte-aligned parts

// The planes (q8_widen_pairs a plane: its rows with their left and right borders; the top and bottom borders
// filled here), then 16 zeros: the last panel of an output row reads up to 16 values past the last plane.
PT_HOT_LOOP void pair_planes(const std::byte* x, const ConvShape& s, bool is_signed, int32_t zp, int16_t* out) {
  const auto* in = reinterpret_cast<const uint8_t*>(x);
  const int64_t Cp = (s.Cg + 1) / 2, row = 2 * s.Wp(), plane = s.Hp() * row;
  for (int64_t q = 0; q < Cp; ++q) {
    const uint8_t* c0 = in + 2 * q * s.H * s.W;
    int16_t* dst = out + q * plane;
    std::fill(dst, dst + s.ph * row, int16_t{0});
    kn::q8_widen_pairs(kn::WidenPairs{c0, 2 * q + 1 < s.Cg ? c0 + s.H * s.W : nullptr, static_cast<size_t>(s.H),
                                      static_cast<size_t>(s.W), static_cast<size_t>(s.W), static_cast<size_t>(s.pw),
                                      is_signed, zp, dst + s.ph * row, static_cast<size_t>(row)});
    std::fill(dst + (s.H + s.ph) * row, dst + plane + (q + 1 == Cp ? 16 : 0), int16_t{0});
  }
}

// The columns of a channel-pairs GEMM: `panels` of 8, output (oh, ow) at column oh·row_stride + ow. Either
// every output row in panels of its own (row_stride = 8·⌈OW/8⌉: no wasted column when OW is a multiple of 8),
// or the padded width's runs (row_stride = Wp, each row's last KW − 1 columns no outputs), whichever needs fewer.
struct PairColumns {
  int64_t panels, row_stride;
  bool by_row;
  explicit PairColumns(const ConvShape& s) {
    const int64_t per_row = (s.OW + 7) / 8, runs = ((s.OH - 1) * s.Wp() + s.OW + 7) / 8;
    by_row = s.OH * per_row <= runs;
    panels = by_row ? s.OH * per_row : runs;
    row_stride = by_row ? 8 * per_row : s.Wp();
  }
  // Where panel p's first pair starts in a plane, in int16.
  size_t offset(const ConvShape& s, int64_t p) const {
    if (!by_row) return static_cast<size_t>(16 * p);
    const int64_t per_row = row_stride / 8;
    return static_cast<size_t>(2 * ((p / per_row) * s.Wp() + 8 * (p % per_row)));
  }
};

// Each channel's accumulators (columns of row_stride a row) requantized into y [OH][OW]: straight in when the
// columns are the outputs, else into a row of codes over every column whose output runs are then copied.
void requantize_channel(const int32_t* acc, const ConvShape& s, int64_t row_stride, const OutputStage& st, int64_t eb,
                        uint8_t* y, uint8_t* row_codes) {
  const int64_t columns = (s.OH - 1) * row_stride + s.OW;
  if (row_stride == s.OW) return kn::i32_requantize(acc, static_cast<size_t>(columns), st.bias, st.r, y, 1);
  kn::i32_requantize(acc, static_cast<size_t>(columns), st.bias, st.r, row_codes, 1);
  for (int64_t r = 0; r < s.OH; ++r)
    std::memcpy(y + r * s.OW * eb, row_codes + r * row_stride * eb, static_cast<size_t>(s.OW * eb));
}

// ---- 3×3 at stride 1: integer Winograd F(2×2, 3×3) --------------------------------------------------------
// Each 2×2 block of outputs (a tile) from the 4×4 input d around it as Aᵀ [U ⊙ V] A (kernels.h: i16_winograd_input,
// i32_winograd_output), V = Bᵀ d B per channel, U = G' g G'ᵀ per output and input channel: 16 products a tile
// where the direct convolution takes 36, as 16 GEMMs over the channels (i16_gemm, one per position ξ of the 4×4
// transform: [Og × Cg] · [Cg × tiles]). Integer arithmetic keeps it exact. With G' = 2·G every entry of U is an
// integer, |U| ≤ 3·3·max|g| (G's rows sum to at most 3 in magnitude) and |V| ≤ 2·2·max|d| (Bᵀ's rows, 2), both
// int16 for int8 weights and input codes minus a zero point; every later step (i32x4.dot_i16x8_s's products and
// sums, the GEMM's sums, Aᵀ M A) is a ring operation modulo 2^32, so the result is 4·Y modulo 2^32 whatever the sums
// in between — and 4·Y itself while |4·Y| < 2^31, which |Y| ≤ Cg·9·128·max|d| < 2^29 (conv_takes_winograd's bound)
// guarantees; the shift right by 2 then gives Y, the int32 accumulator the GEMM paths compute, bit for bit.
// The tiles go in panels of 8 along each tile row (⌈OW/2 / 8⌉ panels a row; odd OH / OW: a last tile half outside,
// which reads the padded planes' next row or the zeros past them and whose outputs are left out), a run of panels a
// block, so the block's 16 transformed inputs and 16 GEMM results stay in L1 (kWinogradBlockBytes).

// Where the transforms pay (bench A/B against the GEMM path, docs/performance.md): 16 channels a group and more (the
// GEMMs' depth), 256 outputs a plane and more (the weights' transform, per call, is amortised over them), and
// Cg·OH·OW ≥ 6144 (16 channels at 16×16 were 4–9 % slower, 24 at 16×16 and 16 at 32×32 2–5 % faster).
constexpr int64_t kWinogradMinChannels = 16, kWinogradMinOutputs = 256, kWinogradMinWork = 6144;
constexpr int64_t kWinogradBlockBytes = 24 << 10;  // a block's transformed inputs and GEMM results, 512·(Og + Cp) a panel

// The largest |code − zero point| an input code can give.
int64_t max_input_offset(const Int8Params& p) {
  const int64_t lo = p.in_signed ? -128 : 0, hi = p.in_signed ? 127 : 255;
  return std::max(std::abs(lo - p.in_zero_point), std::abs(hi - p.in_zero_point));
}

}  // namespace

bool conv_takes_winograd(const Int8Params& p, int64_t Cg, int64_t OH, int64_t OW) {
  if (p.kernel_h != 3 || p.kernel_w != 3 || p.stride_h != 1 || p.stride_w != 1 || Cg < kWinogradMinChannels ||
      OH * OW < kWinogradMinOutputs || Cg * OH * OW < kWinogradMinWork)
    return false;
  const int64_t d = max_input_offset(p);
  return 4 * d <= 32767 && Cg * 9 * 128 * d < (int64_t{1} << 29);
}

namespace {

// U = G' g G'ᵀ of every output channel o (group o / Og) and input channel c as i16_gemm's A, one per position ξ:
// u[((group·16 + ξ)·Og + o % Og)·2Cp + c] (an odd Cg's last pair padded with 0). Per output channel its weights are
// gathered tap by tap into rows over the channels (g[tap][c], the packing's columns found once), so G' and G'ᵀ are
// adds of whole rows (vectorised) written straight into the 16 rows of u. False when a packed weight lies outside
// int8's range (an edited graph: the bound above then does not hold, the caller takes the GEMM path).
bool winograd_weights(const int16_t* w, const WeightPacking& pk, int64_t O, int64_t Og, int64_t Cp, int16_t* u) {
  const int64_t row = pk.row(), n = 2 * Cp;  // a row of u: the channels, an odd Cg's pad included
  std::vector<int32_t> columns(static_cast<size_t>(9 * pk.Cg));
  for (int64_t t = 0; t < 9; ++t)
    for (int64_t c = 0; c < pk.Cg; ++c) columns[t * pk.Cg + c] = static_cast<int32_t>(pk.column(c * 9 + t));
  std::vector<int16_t> gt(static_cast<size_t>(21 * n), 0);  // g[9][n], then G'·g: t[4][3][n]
  int16_t *g = gt.data(), *t = g + 9 * n;
  int16_t lo = 0, hi = 0;
  for (int64_t o = 0; o < O; ++o) {
    const int16_t* wo = w + o * row;
    for (int64_t k = 0; k < 9; ++k)
      for (int64_t c = 0; c < pk.Cg; ++c) g[k * n + c] = wo[columns[k * pk.Cg + c]];
    for (int64_t i = 0; i < 9 * n; ++i) lo = std::min(lo, g[i]), hi = std::max(hi, g[i]);
    for (int64_t j = 0; j < 3; ++j) {  // t = G'·g, a row of three taps at a time
      const int16_t *g0 = g + j * n, *g1 = g + (3 + j) * n, *g2 = g + (6 + j) * n;
      int16_t *t0 = t + j * n, *t1 = t + (3 + j) * n, *t2 = t + (6 + j) * n, *t3 = t + (9 + j) * n;
      for (int64_t c = 0; c < n; ++c) {
        t0[c] = static_cast<int16_t>(2 * g0[c]);
        t1[c] = static_cast<int16_t>(g0[c] + g1[c] + g2[c]);
        t2[c] = static_cast<int16_t>(g0[c] - g1[c] + g2[c]);
        t3[c] = static_cast<int16_t>(2 * g2[c]);
      }
    }
    int16_t* uo = u + ((o / Og) * 16 * Og + o % Og) * n;
    const int64_t xi_step = Og * n;
    for (int64_t i = 0; i < 4; ++i) {  // U = t·G'ᵀ, row i
      const int16_t *a = t + 3 * i * n, *b = a + n, *c2 = b + n;
      int16_t *u0 = uo + 4 * i * xi_step, *u1 = u0 + xi_step, *u2 = u1 + xi_step, *u3 = u2 + xi_step;
      for (int64_t c = 0; c < n; ++c) {
        u0[c] = static_cast<int16_t>(2 * a[c]);
        u1[c] = static_cast<int16_t>(a[c] + b[c] + c2[c]);
        u2[c] = static_cast<int16_t>(a[c] - b[c] + c2[c]);
        u3[c] = static_cast<int16_t>(2 * c2[c]);
      }
    }
  }
  return lo >= -128 && hi <= 127;
}

struct WinogradConv {
  const ConvShape& s;
  int64_t Cp, TH, TW, per_row, row_stride, rows_even;  // pairs; tile rows and columns; panels a tile row; acc rows
  explicit WinogradConv(const ConvShape& shape)
      : s(shape), Cp((s.Cg + 1) / 2), TH((s.OH + 1) / 2), TW((s.OW + 1) / 2), per_row((TW + 7) / 8), row_stride(16 * per_row),
        rows_even(2 * TH) {}
  int64_t plane() const { return s.Hp() * 2 * s.Wp(); }
  // The planes pair_planes writes (16 zeros after them) and the zeros the last tiles read past them.
  int64_t planes_len() const { return Cp * plane() + 2 * s.Wp() + 32 * per_row + 16; }
};

// The whole conv through the transforms (groups, images); false: a weight outside int8's range, nothing written.
bool winograd_conv(const std::byte* xin, const Tensor& w, const Int8Params& p, const ConvShape& s, const WeightPacking& pk,
                   int64_t N, int64_t groups, const std::vector<OutputStage>& stages, int64_t eb, uint8_t* dst) {
  const WinogradConv wc(s);
  const int64_t O = w.size(0), Og = O / groups, Cp = wc.Cp, P = s.OH * s.OW;
  const int64_t all_panels = wc.TH * wc.per_row,
                block_panels = std::clamp<int64_t>(kWinogradBlockBytes / (512 * (Og + Cp)), 1, all_panels);
  checked_nbytes({groups * 16 * Og, 2 * Cp}, DType::Int16, "int8.conv2d's transformed weights");
  checked_nbytes({Og * wc.rows_even, wc.row_stride}, DType::Int32, "int8.conv2d's accumulators");
  checked_nbytes({16 * Og * block_panels, 8}, DType::Int32, "int8.conv2d's transformed accumulators");
  const auto u = scratch_buffer<int16_t>(groups * 16 * Og * 2 * Cp);
  if (!winograd_weights(w.data<int16_t>(), pk, O, Og, Cp, u.get())) return false;
  const int64_t xi_in = block_panels * Cp * 16, xi_acc = Og * block_panels * 8;
  const auto planes = scratch_buffer<int16_t>(wc.planes_len()), v = scratch_buffer<int16_t>(16 * xi_in);
  const auto m = scratch_buffer<int32_t>(16 * xi_acc), acc = scratch_buffer<int32_t>(Og * wc.rows_even * wc.row_stride);
  const auto row_codes = scratch_buffer<uint8_t>(((s.OH - 1) * wc.row_stride + s.OW) * eb);
  std::vector<size_t> panel_offsets(static_cast<size_t>(block_panels));
  std::fill(planes.get() + Cp * wc.plane(), planes.get() + wc.planes_len(), int16_t{0});
  const int64_t group_in = s.Cg * s.H * s.W;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t gr = 0; gr < groups; ++gr) {
      pair_planes(xin + (n * groups + gr) * group_in, s, p.in_signed != 0, p.in_zero_point, planes.get());
      for (int64_t pn0 = 0; pn0 < all_panels; pn0 += block_panels) {
        const int64_t panels = std::min(block_panels, all_panels - pn0);
        for (int64_t pn = 0; pn < panels; ++pn)  // panel pn0 + pn: tile row (pn0 + pn) / per_row, its 8 tiles from 8·(… % per_row)
          panel_offsets[pn] = static_cast<size_t>(2 * ((pn0 + pn) / wc.per_row) * 2 * s.Wp() + 32 * ((pn0 + pn) % wc.per_row));
        kn::i16_winograd_input(kn::WinogradInput{planes.get(), static_cast<size_t>(Cp), static_cast<size_t>(wc.plane()),
                                                 static_cast<size_t>(2 * s.Wp()), static_cast<size_t>(panels),
                                                 panel_offsets.data(), v.get(), static_cast<size_t>(xi_in)});
        for (int64_t xi = 0; xi < 16; ++xi)
          kn::i16_gemm(kn::I16Gemm{static_cast<size_t>(Og), static_cast<size_t>(panels), static_cast<size_t>(Cp),
                                   u.get() + (gr * 16 + xi) * Og * 2 * Cp, static_cast<size_t>(2 * Cp), v.get() + xi * xi_in,
                                   m.get() + xi * xi_acc, static_cast<size_t>(panels * 8)});
        for (int64_t pn = 0; pn < panels; ++pn)
          kn::i32_winograd_output(kn::WinogradOutput{
              m.get() + pn * 8, static_cast<size_t>(Og), 8, static_cast<size_t>(xi_acc), static_cast<size_t>(panels * 8),
              acc.get() + 2 * ((pn0 + pn) / wc.per_row) * wc.row_stride + 16 * ((pn0 + pn) % wc.per_row),
              static_cast<size_t>(wc.rows_even * wc.row_stride), static_cast<size_t>(wc.row_stride)});
      }
      for (int64_t o = 0; o < Og; ++o) {
        const int64_t oc = gr * Og + o;
        requantize_channel(acc.get() + o * wc.rows_even * wc.row_stride, s, wc.row_stride, stages[oc], eb,
                           dst + (n * O + oc) * P * eb, row_codes.get());
      }
    }
  return true;
}

Value conv2d(const OpArgs& a) {
  const Int8Params p = Int8Params::from(a.tensor(1));
  const Tensor& x = codes(a.tensors(0).at(0), p.in_dtype(), "int8.conv2d");
  const Tensor &w = a.tensor(2), &bias = a.tensor(3);
  if (x.dim() != 4) throw RuntimeError("int8.conv2d: expected a 4-D input, got " + shape_str(x.shape()));
  ConvShape s{x.size(1), x.size(2), x.size(3), x.size(1) / p.groups, p.kernel_h, p.kernel_w, 0, 0,
              p.stride_h, p.stride_w, p.pad_h, p.pad_w};
  s.OH = (s.H + 2 * s.ph - s.KH) / s.sh + 1;
  s.OW = (s.W + 2 * s.pw - s.KW) / s.sw + 1;
  const WeightPacking pk = conv_packing(p, s.Cg);
  const int64_t O = w.size(0), K = pk.K(), groups = p.groups, Og = O / groups;
  if (s.C % groups || O % groups || w.dim() != 2 || w.size(1) != pk.row() || s.OH < 1 || s.OW < 1)
    throw RuntimeError("int8.conv2d: input " + shape_str(x.shape()) + " does not fit the packed weight " +
                       shape_str(w.shape()) + " with groups=" + std::to_string(groups) +
                       (pk.layout == WeightLayout::channel_pairs ? " in channel pairs" : ""));
  const int64_t N = x.size(0), P = s.OH * s.OW;
  check_op_work("int8.conv2d", [&] { return "input " + shape_str(x.shape()) + " and packed weight " + shape_str(w.shape()); },
                {N, O, P, K});
  checked_nbytes({s.Cg + 1, s.Hp(), s.Wp()}, DType::Int16, "int8.conv2d's padded input");
  const auto stages = output_stages(a.tensor(4), bias, p, O, "int8.conv2d");
  Tensor out = Tensor::uninitialized({N, O, s.OH, s.OW}, p.out_dtype());
  auto* dst = reinterpret_cast<uint8_t*>(out.bytes());
  const int64_t eb = p.out_bits / 8;  // bytes a code
  const std::byte* xin = x.bytes();
  const int64_t group_in = s.Cg * s.H * s.W;

  if (conv_takes_winograd(p, s.Cg, s.OH, s.OW) && winograd_conv(xin, w, p, s, pk, N, groups, stages, eb, dst)) return Value(out);

  if (pk.layout == WeightLayout::channel_pairs && s.runs()) {
    const int64_t T = pk.T, Cp = (s.Cg + 1) / 2, k_pairs = Cp * T;
    const PairColumns cols(s);
    checked_nbytes({cols.panels * 8, Og}, DType::Int32, "int8.conv2d's accumulators");
    // One scratch allocation (a small conv's fixed costs count): offsets, accumulators, planes, codes.
    const int64_t n_offsets = k_pairs + cols.panels, n_acc = Og * cols.panels * 8, n_planes = 2 * Cp * s.Hp() * s.Wp() + 16,
                  n_codes = cols.row_stride == s.OW ? 0 : cols.panels * 8 * eb;
    const auto size16 = [](int64_t bytes) { return (bytes + 15) / 16; };
    const auto scratch = scratch_buffer<Block16>(size16(n_offsets * static_cast<int64_t>(sizeof(size_t))) + size16(n_acc * 4) +
                                                       size16(n_planes * 2) + size16(n_codes));
    const auto offsets = reinterpret_cast<size_t*>(scratch.get());
    const auto acc = reinterpret_cast<int32_t*>(scratch.get() + size16(n_offsets * static_cast<int64_t>(sizeof(size_t))));
    const auto planes = reinterpret_cast<int16_t*>(reinterpret_cast<Block16*>(acc) + size16(n_acc * 4));
    const auto row_codes = reinterpret_cast<uint8_t*>(reinterpret_cast<Block16*>(planes) + size16(n_planes * 2));
    const int16_t* weights = w.data<int16_t>();
    for (int64_t q = 0; q < Cp; ++q)
      for (int64_t t = 0; t < T; ++t)
        offsets[q * T + t] = static_cast<size_t>(2 * (q * s.Hp() * s.Wp() + (t / s.KW) * s.Wp() + t % s.KW));
    for (int64_t pn = 0; pn < cols.panels; ++pn) offsets[k_pairs + pn] = cols.offset(s, pn);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t gr = 0; gr < groups; ++gr) {
        pair_planes(xin + (n * groups + gr) * group_in, s, p.in_signed != 0, p.in_zero_point, planes);
        kn::i16_gemm_offsets(kn::I16GemmOffsets{static_cast<size_t>(Og), static_cast<size_t>(cols.panels),
                                                static_cast<size_t>(k_pairs), weights + gr * Og * 2 * k_pairs,
                                                static_cast<size_t>(2 * k_pairs), planes, offsets, offsets + k_pairs, acc,
                                                static_cast<size_t>(cols.panels * 8)});
        for (int64_t o = 0; o < Og; ++o) {
          const int64_t oc = gr * Og + o;
          requantize_channel(acc + o * cols.panels * 8, s, cols.row_stride, stages[oc], eb, dst + (n * O + oc) * P * eb,
                             row_codes);
        }
      }
    return Value(out);
  }

  const Gemm g{Og, pk.row(), s.columns()};
  checked_nbytes({g.N8(), g.K2}, DType::Int16, "int8.conv2d's im2col columns");
  const auto cols = scratch_buffer<int16_t>(g.N8() * g.K2), padded = scratch_buffer<int16_t>(s.Cg * s.Hp() * s.Wp());
  const auto acc = scratch_buffer<int32_t>(Og * g.N8());
  const auto row_codes = scratch_buffer<uint8_t>(g.N * eb);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t gr = 0; gr < groups; ++gr) {
      if (p.in_signed) padded_planes<true>(xin + (n * groups + gr) * group_in, s, p.in_zero_point, padded.get());
      else padded_planes<false>(xin + (n * groups + gr) * group_in, s, p.in_zero_point, padded.get());
      im2col_panels(padded.get(), s, pk, cols.get());
      run_gemm(g, w.data<int16_t>() + gr * Og * g.K2, cols.get(), acc.get());
      for (int64_t o = 0; o < Og; ++o) {
        const int64_t oc = gr * Og + o;
        requantize_channel(acc.get() + o * g.N8(), s, s.row_stride(), stages[oc], eb, dst + (n * O + oc) * P * eb,
                           row_codes.get());
      }
    }
  return Value(out);
}

Value linear(const OpArgs& a) {
  const Int8Params p = Int8Params::from(a.tensor(1));
  const Tensor& x = codes(a.tensors(0).at(0), p.in_dtype(), "int8.linear");
  const Tensor &w = a.tensor(2), &bias = a.tensor(3);
  const int64_t K = x.dim() ? x.size(-1) : 0, O = w.size(0);
  if (x.dim() < 1 || w.dim() != 2 || w.size(1) != linear_packing(K).row() || p.weight_layout != static_cast<int32_t>(WeightLayout::taps))
    throw RuntimeError("int8.linear: input " + shape_str(x.shape()) + " does not fit the packed weight " + shape_str(w.shape()) +
                       (p.weight_layout != static_cast<int32_t>(WeightLayout::taps) ? " (a linear's weight is packed in taps)" : ""));
  const Gemm g{O, w.size(1), K ? x.numel() / K : 0};
  check_op_work("int8.linear", [&] { return "input " + shape_str(x.shape()) + " and packed weight " + shape_str(w.shape()); },
                {g.N, O, K});
  checked_nbytes({g.N8(), g.K2}, DType::Int16, "int8.linear's packed rows");
  const auto stages = output_stages(a.tensor(4), bias, p, O, "int8.linear");
  Shape shape = x.shape();
  shape.back() = O;
  Tensor out = Tensor::empty(shape, p.out_dtype());
  const auto cols = scratch_buffer<int16_t>(g.N8() * g.K2);
  const auto acc = scratch_buffer<int32_t>(O * g.N8());
  if (p.in_signed) rows_to_panels<true>(x.bytes(), g.N, K, g.k_pairs(), p.in_zero_point, cols.get());
  else rows_to_panels<false>(x.bytes(), g.N, K, g.k_pairs(), p.in_zero_point, cols.get());
  run_gemm(g, w.data<int16_t>(), cols.get(), acc.get());
  // Each channel's row of accumulators requantized contiguously, then the codes turned to [N][O].
  const int64_t eb = p.out_bits / 8;
  const auto codes_by_channel = scratch_buffer<uint8_t>(O * g.N * eb);
  for (int64_t o = 0; o < O; ++o)
    kn::i32_requantize(acc.get() + o * g.N8(), static_cast<size_t>(g.N), stages[o].bias, stages[o].r,
                       codes_by_channel.get() + o * g.N * eb, 1);
  auto* dst = reinterpret_cast<uint8_t*>(out.bytes());
  if (eb == 4) channels_to_rows<4>(codes_by_channel.get(), O, g.N, dst);
  else if (eb == 2) channels_to_rows<2>(codes_by_channel.get(), O, g.N, dst);
  else channels_to_rows<1>(codes_by_channel.get(), O, g.N, dst);
  return Value(out);
}

// The VPU's add (set_shift_add_params): codes minus zero points summed in int32, then requantized by a shift.
Value shift_add(const Int8Params& p, const Tensor& x, const Tensor& y) {
  const int64_t n = x.numel();
  std::vector<int32_t> sums(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    sums[i] = code_at(x.bytes(), i, p.in_signed != 0) - p.in_zero_point + code_at(y.bytes(), i, p.in_signed != 0) - p.in2_zero_point;
  kn::Requantization r;
  r.kind = kn::RequantKind::shift_even;
  r.shift = p.add_shift;
  r.zero_point = p.out_zero_point, r.qmin = p.out_qmin, r.qmax = p.out_qmax;
  r.out_bytes = p.out_bits / 8;
  Tensor out = Tensor::empty(x.shape(), p.out_dtype());
  kn::i32_requantize(sums.data(), sums.size(), 0, r, reinterpret_cast<uint8_t*>(out.bytes()), 1);
  return Value(out);
}

Value add(const OpArgs& a) {
  const Int8Params p = Int8Params::from(a.tensor(1));
  const auto& ins = a.tensors(0);
  const Tensor &x = codes(ins.at(0), p.in_dtype(), "int8.add"), &y = codes(ins.at(1), p.in_dtype(), "int8.add");
  if (x.shape() != y.shape())
    throw RuntimeError("int8.add: inputs " + shape_str(x.shape()) + " and " + shape_str(y.shape()) + " differ (no broadcasting)");
  if (static_cast<kn::RequantKind>(p.requant) == kn::RequantKind::shift_even) return shift_add(p, x, y);
  kn::AddParams ap;
  ap.bias = p.add_bias;
  ap.a_multiplier = p.add_a_multiplier;
  ap.b_multiplier = p.add_b_multiplier;
  ap.shift = p.add_shift;
  ap.zero_point = p.out_zero_point;
  ap.qmin = p.out_qmin;
  ap.qmax = p.out_qmax;
  ap.is_signed = p.in_signed != 0;
  Tensor out = Tensor::empty(x.shape(), p.out_dtype());
  kn::q8_add(reinterpret_cast<const uint8_t*>(x.bytes()), reinterpret_cast<const uint8_t*>(y.bytes()),
             static_cast<size_t>(x.numel()), ap, reinterpret_cast<uint8_t*>(out.bytes()));
  return Value(out);
}

// One plane, output row by output row: the window's input rows folded into one by q8_max (the rows a padded
// window leaves out skipped), then each output the largest code of its columns of that row.
PT_HOT_LOOP void max_pool_plane(const std::byte* x, bool is_signed, const ConvShape& s, std::byte* y, uint8_t* folded) {
  const auto* in = reinterpret_cast<const uint8_t*>(x);
  for (int64_t oh = 0; oh < s.OH; ++oh) {
    const int64_t h0 = std::max<int64_t>(oh * s.sh - s.ph, 0), h1 = std::min(oh * s.sh - s.ph + s.KH, s.H);
    if (h0 >= h1) {  // a window of padding only (lowering rejects padding over half the window: not reached)
      std::fill(y + oh * s.OW, y + (oh + 1) * s.OW, std::byte{0});
      continue;
    }
    std::memcpy(folded, in + h0 * s.W, static_cast<size_t>(s.W));
    for (int64_t h = h0 + 1; h < h1; ++h) kn::q8_max(folded, in + h * s.W, static_cast<size_t>(s.W), is_signed, folded);
    const auto* row = reinterpret_cast<const std::byte*>(folded);
    for (int64_t ow = 0; ow < s.OW; ++ow) {
      const int64_t w0 = std::max<int64_t>(ow * s.sw - s.pw, 0), w1 = std::min(ow * s.sw - s.pw + s.KW, s.W);
      int32_t best = INT32_MIN;
      std::byte code{};
      for (int64_t w = w0; w < w1; ++w)
        if (const int32_t v = code_at(row, w, is_signed); v > best) best = v, code = row[w];
      y[oh * s.OW + ow] = code;
    }
  }
}

Value max_pool2d(const OpArgs& a) {
  const Int8Params p = Int8Params::from(a.tensor(1));
  const Tensor& x = codes(a.tensors(0).at(0), p.in_dtype(), "int8.max_pool2d");
  if (x.dim() != 4) throw RuntimeError("int8.max_pool2d: expected a 4-D input, got " + shape_str(x.shape()));
  ConvShape s{x.size(1), x.size(2), x.size(3), 1, p.kernel_h, p.kernel_w, 0, 0, p.stride_h, p.stride_w, p.pad_h, p.pad_w};
  s.OH = (s.H + 2 * s.ph - s.KH) / s.sh + 1;
  s.OW = (s.W + 2 * s.pw - s.KW) / s.sw + 1;
  if (s.OH < 1 || s.OW < 1) throw RuntimeError("int8.max_pool2d: input " + shape_str(x.shape()) + " is smaller than the window");
  // Per output row: the window's rows folded (KH·W), then each output's columns (OW·KW).
  check_op_work("int8.max_pool2d",
                [&] { return "input " + shape_str(x.shape()) + " with a " + std::to_string(s.KH) + "x" + std::to_string(s.KW) + " window"; },
                {x.size(0), s.C, s.OH, s.KH * s.W + s.OW * s.KW});
  Tensor out = Tensor::empty({x.size(0), s.C, s.OH, s.OW}, x.dtype());
  const auto folded = scratch_buffer<uint8_t>(s.W);
  for (int64_t plane = 0; plane < x.size(0) * s.C; ++plane)
    max_pool_plane(x.bytes() + plane * s.H * s.W, p.in_signed != 0, s, out.bytes() + plane * s.OH * s.OW, folded.get());
  return Value(out);
}

// XNNPACK global average pooling: Σ codes + bias (−zp·count), multiplier f32(s_in / f32(s_out · count)).
Value mean(const OpArgs& a) {
  const Int8Params p = Int8Params::from(a.tensor(1));
  const Tensor& x = codes(a.tensors(0).at(0), p.in_dtype(), "int8.mean");
  const Tensor& scales = a.tensor(4);
  if (x.dim() != 4 || scales.numel() != 2) throw RuntimeError("int8.mean: expected a 4-D input, got " + shape_str(x.shape()));
  const int64_t N = x.size(0), C = x.size(1), hw = x.size(2) * x.size(3);
  if (hw < 1) throw RuntimeError("int8.mean: empty spatial size in " + shape_str(x.shape()));
  const float s_in = scales.data<float>()[0], s_out = scales.data<float>()[1];
  kn::Requantization r = requantization(static_cast<kn::RequantKind>(p.requant),
                                              s_in / (s_out * static_cast<float>(hw)), p.out_zero_point, p.out_qmin, p.out_qmax);
  r.out_bytes = p.out_bits / 8;
  std::vector<int32_t> sums(static_cast<size_t>(N * C));
  for (int64_t pl = 0; pl < N * C; ++pl)
    sums[pl] = kn::q8_sum(reinterpret_cast<const uint8_t*>(x.bytes()) + pl * hw, static_cast<size_t>(hw), p.in_signed != 0);
  Tensor out = Tensor::empty(p.keepdim ? Shape{N, C, 1, 1} : Shape{N, C}, p.out_dtype());
  kn::i32_requantize(sums.data(), sums.size(), static_cast<int32_t>(-static_cast<int64_t>(p.in_zero_point) * hw), r,
                     reinterpret_cast<uint8_t*>(out.bytes()), 1);
  return Value(out);
}

Value cat(const OpArgs& a) {
  const Int8Params p = Int8Params::from(a.tensor(1));
  const auto& ins = a.tensors(0);
  if (ins.empty()) throw RuntimeError("int8.cat: no inputs");
  const Tensor& first = codes(ins[0], p.in_dtype(), "int8.cat");
  const int64_t dim = p.dim, rank = first.dim();
  if (dim < 0 || dim >= rank) throw RuntimeError("int8.cat: dim " + std::to_string(dim) + " out of range for " + shape_str(first.shape()));
  Shape shape = first.shape();
  shape[dim] = 0;
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= first.size(d);
  for (const Tensor& t : ins) {
    codes(t, p.in_dtype(), "int8.cat");
    Shape other = t.shape();
    if (other.size() != first.shape().size()) throw RuntimeError("int8.cat: inputs of different ranks");
    other[dim] = first.size(dim);
    if (other != first.shape()) throw RuntimeError("int8.cat: shapes " + shape_str(first.shape()) + " and " + shape_str(t.shape()) + " differ outside dim");
    shape[dim] += t.size(dim);
  }
  Tensor out = Tensor::empty(shape, p.out_dtype());
  const int64_t row = out.numel() / std::max<int64_t>(outer, 1);
  int64_t offset = 0;
  for (const Tensor& t : ins) {
    const int64_t chunk = t.numel() / std::max<int64_t>(outer, 1);
    for (int64_t o = 0; o < outer; ++o) std::memcpy(out.bytes() + o * row + offset, t.bytes() + o * chunk, static_cast<size_t>(chunk));
    offset += chunk;
  }
  return Value(out);
}

Value flatten(const OpArgs& a) {
  const Int8Params p = Int8Params::from(a.tensor(1));
  const Tensor& x = codes(a.tensors(0).at(0), p.in_dtype(), "int8.flatten");
  const int64_t rank = std::max<int64_t>(x.dim(), 1);
  const int64_t start = p.dim < 0 ? p.dim + rank : p.dim, end = p.end_dim < 0 ? p.end_dim + rank : p.end_dim;
  if (x.dim() == 0) return Value(x.clone().reshape({1}));
  if (start < 0 || end >= rank || start > end) throw RuntimeError("int8.flatten: dims out of range for " + shape_str(x.shape()));
  Shape shape(x.shape().begin(), x.shape().begin() + start);
  int64_t merged = 1;
  for (int64_t d = start; d <= end; ++d) merged *= x.size(d);
  shape.push_back(merged);
  shape.insert(shape.end(), x.shape().begin() + end + 1, x.shape().end());
  return Value(x.clone().reshape(shape));
}

[[maybe_unused]] const bool registered = [] {
  for (auto& [target, fn] : int8_ops()) register_op(target, fn);
  return true;
}();

}  // namespace

std::vector<std::pair<const char*, OpFn>> int8_ops() {
  return {{target::int8_conv2d, conv2d}, {target::int8_linear, linear},   {target::int8_add, add},
          {target::int8_max_pool2d, max_pool2d}, {target::int8_mean, mean}, {target::int8_cat, cat},
          {target::int8_flatten, flatten}};
}

}  // namespace pt
