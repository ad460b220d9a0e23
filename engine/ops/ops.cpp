// ops.cpp — the float32 reference operators declared in ops.h (direct loops; conv2d and linear on the f32_gemm kernel).
#include "ops/ops.h"
#include "core/fma.h"
#include "core/hot.h"
#include "core/op_budget.h"
#include "kernels/kernels.h"
#include "ops/im2col.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pt::ops {
namespace {

std::string list_str(const IntList& v) { return shape_str(v); }

void require_float(const Tensor& t, const char* op, const char* arg) {
  if (t.dtype() != DType::Float32)
    throw TypeError(std::string(op) + ": expected " + arg + " to be float32, got " + dtype_name(t.dtype()));
}

void require_dim(const Tensor& t, int64_t dim, const char* op, const char* arg) {
  if (t.dim() != dim)
    throw RuntimeError(std::string(op) + ": expected " + arg + " to be " + std::to_string(dim) + "-D, got shape " +
                       shape_str(t.shape()));
}

// Expands a 1- or 2-element int list to (h, w); `min` is the smallest allowed value.
std::pair<int64_t, int64_t> pair_of(const IntList& v, const char* op, const char* arg, int64_t min) {
  if (v.size() != 1 && v.size() != 2)
    throw RuntimeError(std::string(op) + ": expected " + arg + " to have 1 or 2 values, got " + list_str(v));
  int64_t h = v[0], w = v.size() == 2 ? v[1] : v[0];
  if (h < min || w < min)
    throw RuntimeError(std::string(op) + ": expected " + arg + " values >= " + std::to_string(min) + ", got " +
                       list_str(v));
  return {h, w};
}

// The numerator of torch's output size, in + 2·pad − dil·(k − 1) − 1, in 128 bits: each argument fits int64_t,
// but a huge padding, dilation or kernel makes the combination overflow it.
__int128 window_span(int64_t in, int64_t k, int64_t pad, int64_t dil) {
  return static_cast<__int128>(in) + 2 * static_cast<__int128>(pad) - static_cast<__int128>(dil) * (k - 1) - 1;
}
// An output size past int64_t's range as INT64_MAX, which check_op_work then rejects by name.
int64_t saturate_size(__int128 v) { return v > INT64_MAX ? INT64_MAX : static_cast<int64_t>(v); }

int64_t wrap_dim(int64_t d, int64_t ndim, const char* op) {
  int64_t n = std::max<int64_t>(ndim, 1);
  if (d < -n || d >= n)
    throw IndexError(std::string(op) + ": dim " + std::to_string(d) + " out of range for a " +
                     std::to_string(ndim) + "-D tensor (expected in [" + std::to_string(-n) + ", " +
                     std::to_string(n - 1) + "])");
  return d < 0 ? d + n : d;
}

void require_channel_vector(const Tensor& t, int64_t c, const char* op, const char* arg) {
  require_float(t, op, arg);
  if (t.dim() != 1 || t.size(0) != c)
    throw RuntimeError(std::string(op) + ": expected " + arg + " of shape [" + std::to_string(c) + "], got " +
                       shape_str(t.shape()));
}

template <class F> Tensor map_unary(const Tensor& x, const char* op, F f) {
  require_float(x, op, "input");
  Tensor y = Tensor::uninitialized(x.shape());
  const float* px = x.data<float>();
  float* py = y.data<float>();
  for (int64_t i = 0; i < x.numel(); ++i) py[i] = f(px[i]);
  return y;
}

template <class F> Tensor broadcast_binary(const Tensor& a, const Tensor& b, const char* op, F f) {
  require_float(a, op, "self");
  require_float(b, op, "other");
  Shape out = broadcast_shapes(a.shape(), b.shape(), op);
  const int64_t nd = static_cast<int64_t>(out.size());
  // Element strides of a and b in the output's index space (0 along broadcast dims).
  std::vector<int64_t> sa(nd, 0), sb(nd, 0);
  for (int64_t d = nd - 1, ra = 1, rb = 1; d >= 0; --d) {
    int64_t da = d - (nd - a.dim()), db = d - (nd - b.dim());
    if (da >= 0) { sa[d] = a.shape()[da] == 1 ? 0 : ra; ra *= a.shape()[da]; }
    if (db >= 0) { sb[d] = b.shape()[db] == 1 ? 0 : rb; rb *= b.shape()[db]; }
  }
  // Merge adjacent dims that a and b both step through as one (an outer stride equal to the inner
  // stride times the inner size, 0 == 0 for broadcast ones) and drop size-1 dims, innermost first:
  // [N, C, H, W] with [C, 1, 1] becomes [H·W] (strides 1 and 0) inside [C] inside [N].
  std::vector<int64_t> dims, ca, cb;
  for (int64_t d = nd - 1; d >= 0; --d) {
    if (out[d] == 1) continue;
    if (!dims.empty() && sa[d] == ca.back() * dims.back() && sb[d] == cb.back() * dims.back()) {
      dims.back() *= out[d];
      continue;
    }
    dims.push_back(out[d]);
    ca.push_back(sa[d]);
    cb.push_back(sb[d]);
  }
  if (dims.empty()) dims = {1}, ca = {0}, cb = {0};
  Tensor y = Tensor::uninitialized(out);
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  float* py = y.data<float>();
  const int64_t len = dims[0];
  std::vector<int64_t> idx(dims.size(), 0);
  int64_t ia = 0, ib = 0;
  for (int64_t i = 0; i < y.numel(); i += len) {
    const float* qa = pa + ia;
    const float* qb = pb + ib;
    float* qy = py + i;
    if (ca[0] == 1 && cb[0] == 1) {
      for (int64_t j = 0; j < len; ++j) qy[j] = f(qa[j], qb[j]);
    } else if (ca[0] == 1 && cb[0] == 0) {
      for (int64_t j = 0; j < len; ++j) qy[j] = f(qa[j], qb[0]);
    } else if (ca[0] == 0 && cb[0] == 1) {
      for (int64_t j = 0; j < len; ++j) qy[j] = f(qa[0], qb[j]);
    } else {
      for (int64_t j = 0; j < len; ++j) qy[j] = f(qa[j * ca[0]], qb[j * cb[0]]);
    }
    for (size_t d = 1; d < dims.size(); ++d) {  // odometer increment over the outer dims
      ia += ca[d];
      ib += cb[d];
      if (++idx[d] < dims[d]) break;
      ia -= ca[d] * dims[d];
      ib -= cb[d] * dims[d];
      idx[d] = 0;
    }
  }
  return y;
}

}  // namespace

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  size_t nd = std::max(a.size(), b.size());
  Shape out(nd);
  for (size_t i = 0; i < nd; ++i) {
    int64_t da = i < nd - a.size() ? 1 : a[i - (nd - a.size())];
    int64_t db = i < nd - b.size() ? 1 : b[i - (nd - b.size())];
    if (da != db && da != 1 && db != 1)
      throw RuntimeError(std::string(op) + ": shapes " + shape_str(a) + " and " + shape_str(b) +
                         " do not broadcast (dim " + std::to_string(i) + ": " + std::to_string(da) + " vs " +
                         std::to_string(db) + ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

namespace {
// The output columns ow whose input column iw = iw0 + ow * sw of window column kw lies inside the image:
// lo <= ow < hi.
struct ColumnRange {
  int64_t iw0, lo, hi;
};
ColumnRange column_range(const ConvGeometry& g, int64_t kw) {
  const int64_t iw0 = kw * g.dw - g.pw;
  const int64_t lo = std::clamp<int64_t>(iw0 >= 0 ? 0 : (-iw0 + g.sw - 1) / g.sw, 0, g.OW);
  const int64_t hi = std::clamp<int64_t>(g.W - iw0 <= 0 ? 0 : (g.W - iw0 + g.sw - 1) / g.sw, lo, g.OW);
  return {iw0, lo, hi};
}

// The rows of one column row that lie inside the image on the same_width() path: column positions s0 .. s1 - 1 read
// (im2col) or add into (col2im) the image at position + shift; all other positions are in rows outside the image or
// over an edge (edge_keep 0).
struct ShiftedRun {
  int64_t shift, s0, s1;
};
ShiftedRun shifted_run(const ConvGeometry& g, int64_t kh, int64_t kw) {
  const int64_t W = g.W, plane = g.H * g.W, ih0 = kh * g.dh - g.ph, iw0 = kw * g.dw - g.pw;
  const int64_t oh_lo = std::clamp<int64_t>(-ih0, 0, g.OH), oh_hi = std::clamp<int64_t>(g.H - ih0, oh_lo, g.OH);
  const int64_t shift = ih0 * W + iw0, P = g.OH * W;
  const int64_t s0 = std::clamp(std::max(oh_lo * W, -shift), int64_t{0}, P);
  return {shift, s0, std::clamp(std::min(oh_hi * W, plane - shift), s0, P)};
}
// dst[i] = src[i] where keep[i] is all ones, +0 where it is 0 (im2col's run).
PT_HOT_LOOP void copy_kept(const float* __restrict src, const uint32_t* __restrict keep, int64_t n, float* __restrict dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, src[i]) & keep[i]);
}
// dst[i] += src[i] where keep[i] is all ones, += +0 where it is 0 (col2im's run).
PT_HOT_LOOP void add_kept(const float* __restrict src, const uint32_t* __restrict keep, int64_t n, float* __restrict dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] += __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, src[i]) & keep[i]);
}
}  // namespace

namespace {
thread_local SavedForBackward* open_saved = nullptr;  // SaveForBackward's scope on this thread
}  // namespace

// One image's group of Cg channels (starting at x) as columns: cols[(c, kh, kw)][(oh, ow)]. A row of
// the window with stride 1 and dilation 1 is a copy of part of an input row, zeros on either side.
PT_HOT_LOOP void im2col(const float* x, const ConvGeometry& g, float* cols) {
  const int64_t P = g.OH * g.OW;
  for (int64_t c = 0; c < g.Cg; ++c) {
    const float* xc = x + c * g.H * g.W;
    for (int64_t kh = 0; kh < g.KH; ++kh)
      for (int64_t kw = 0; kw < g.KW; ++kw) {
        float* col = cols + ((c * g.KH + kh) * g.KW + kw) * P;
        if (g.same_width()) {
          const auto [shift, s0, s1] = shifted_run(g, kh, kw);
          std::fill(col, col + s0, 0.0f);
          copy_kept(xc + s0 + shift, g.edge_keep.data() + kw * P + s0, s1 - s0, col + s0);
          std::fill(col + s1, col + P, 0.0f);
          continue;
        }
        const auto [iw0, lo, hi] = column_range(g, kw);
        for (int64_t oh = 0; oh < g.OH; ++oh) {
          float* row = col + oh * g.OW;
          const int64_t ih = oh * g.sh - g.ph + kh * g.dh;
          if (ih < 0 || ih >= g.H) {
            std::fill(row, row + g.OW, 0.0f);
            continue;
          }
          const float* xr = xc + ih * g.W;
          std::fill(row, row + lo, 0.0f);
          if (g.sw == 1) {
            std::copy(xr + iw0 + lo, xr + iw0 + hi, row + lo);
          } else {
            for (int64_t ow = lo; ow < hi; ++ow) row[ow] = xr[iw0 + ow * g.sw];
          }
          std::fill(row + hi, row + g.OW, 0.0f);
        }
      }
  }
}

const float* columns(const float* x, const ConvGeometry& g, float* scratch) {
  if (g.pointwise()) return x;
  im2col(x, g, scratch);
  return scratch;
}

PT_HOT_LOOP void col2im(const float* __restrict cols, const ConvGeometry& g, float* __restrict x) {
  const int64_t P = g.OH * g.OW;
  if (g.same_width()) {
    // One run per column row (shifted_run); the positions over an edge add +0, into the next or previous row,
    // which changes no sum (x starts at +0, so no element is ever -0). Each element gets the same values in the
    // same order as the row-by-row loop below: the same bits.
    const int64_t plane = g.H * g.W;
    for (int64_t c = 0; c < g.Cg; ++c)
      for (int64_t kh = 0; kh < g.KH; ++kh)
        for (int64_t kw = 0; kw < g.KW; ++kw) {
          const float* col = cols + ((c * g.KH + kh) * g.KW + kw) * P;
          const auto [shift, s0, s1] = shifted_run(g, kh, kw);
          add_kept(col + s0, g.edge_keep.data() + kw * P + s0, s1 - s0, x + c * plane + s0 + shift);
        }
    return;
  }
  for (int64_t c = 0; c < g.Cg; ++c) {
    float* xc = x + c * g.H * g.W;
    for (int64_t kh = 0; kh < g.KH; ++kh)
      for (int64_t kw = 0; kw < g.KW; ++kw) {
        const float* col = cols + ((c * g.KH + kh) * g.KW + kw) * P;
        const auto [iw0, lo, hi] = column_range(g, kw);
        for (int64_t oh = 0; oh < g.OH; ++oh) {
          const int64_t ih = oh * g.sh - g.ph + kh * g.dh;
          if (ih < 0 || ih >= g.H) continue;
          float* xr = xc + ih * g.W;  // x[ih, iw0 + ow * sw], inside the row for lo <= ow < hi
          const float* row = col + oh * g.OW;
          if (g.sw == 1) {
            for (int64_t ow = lo; ow < hi; ++ow) xr[iw0 + ow] += row[ow];
          } else {
            for (int64_t ow = lo; ow < hi; ++ow) xr[iw0 + ow * g.sw] += row[ow];
          }
        }
      }
  }
}

ConvGeometry conv2d_geometry(const Shape& input, const Shape& weight, const IntList& stride, const IntList& padding,
                             const IntList& dilation, int64_t groups) {
  const char* op = "conv2d";
  if (input.size() != 4)
    throw RuntimeError("conv2d: expected input [N, C, H, W] to be 4-D, got shape " + shape_str(input));
  if (weight.size() != 4)
    throw RuntimeError("conv2d: expected weight [O, C/groups, kH, kW] to be 4-D, got shape " + shape_str(weight));
  auto [sh, sw] = pair_of(stride, op, "stride", 1);
  auto [ph, pw] = pair_of(padding, op, "padding", 0);
  auto [dh, dw] = pair_of(dilation, op, "dilation", 1);
  if (groups < 1) throw RuntimeError("conv2d: expected groups >= 1, got " + std::to_string(groups));
  const int64_t N = input[0], C = input[1], H = input[2], W = input[3];
  const int64_t O = weight[0], Cg = weight[1], KH = weight[2], KW = weight[3];
  if (static_cast<__int128>(Cg) * groups != C)
    throw RuntimeError("conv2d: expected input with " + (groups <= C ? std::to_string(Cg * groups) : "weight[1] * groups") +
                       " channels (weight " + shape_str(weight) + ", groups " + std::to_string(groups) + "), got input " +
                       shape_str(input));
  if (O % groups != 0)
    throw RuntimeError("conv2d: out_channels " + std::to_string(O) + " not divisible by groups " +
                       std::to_string(groups));
  const __int128 span_h = window_span(H, KH, ph, dh), span_w = window_span(W, KW, pw, dw);
  if (span_h < 0 || span_w < 0)
    throw RuntimeError("conv2d: input " + shape_str(input) + " (padded) is smaller than kernel " + shape_str(weight));
  const int64_t OH = saturate_size(span_h / sh + 1), OW = saturate_size(span_w / sw + 1);
  ConvGeometry g{N, C, H, W, O, Cg, KH, KW, groups, OH, OW, sh, sw, ph, pw, dh, dw, {}};
  // The forward and each backward do N·O·P·K multiply-accumulates over K x P im2col columns.
  const std::string what = "input " + shape_str(input) + " and weight " + shape_str(weight);
  // OH and OW as separate factors: their product overflows int64_t for a huge padding (the check saturates).
  check_op_work(op, what, {N, O, OH, OW, g.K()});
  if (!g.pointwise()) checked_nbytes({g.K(), OH, OW}, DType::Float32, "conv2d's im2col columns");
  if (g.same_width()) {
    g.edge_keep.resize(static_cast<size_t>(KW * g.P()));
    for (int64_t kw = 0; kw < KW; ++kw) {
      const auto [iw0, lo, hi] = column_range(g, kw);
      for (int64_t p = 0; p < g.P(); ++p) g.edge_keep[kw * g.P() + p] = p % OW >= lo && p % OW < hi ? ~0u : 0u;
    }
  }
  return g;
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, const IntList& stride,
              const IntList& padding, const IntList& dilation, int64_t groups) {
  require_float(input, "conv2d", "input");
  require_float(weight, "conv2d", "weight");
  const ConvGeometry g = conv2d_geometry(input.shape(), weight.shape(), stride, padding, dilation, groups);
  if (bias) require_channel_vector(*bias, g.O, "conv2d", "bias");
  Tensor y = Tensor::uninitialized({g.N, g.O, g.OH, g.OW});
  const float* x = input.data<float>();
  const float* w = weight.data<float>();
  const float* b = bias ? bias->data<float>() : nullptr;
  float* out = y.data<float>();
  // Per image and group: the output planes start at the bias (or +0), then f32_gemm adds weight ·
  // columns, each output one float32 chain over k = (c, kh, kw) in order.
  // The columns of every image and group go to one tensor when a backward will want them (SavedForBackward).
  const int64_t K = g.K(), P = g.P(), Og = g.Og();
  const bool save = open_saved && !g.pointwise() && !g.winograd_gradients() && g.N * g.groups * K * P <= kSavedColumnsBytes / 4;
  Tensor saved_columns = save ? Tensor::uninitialized({g.N, g.groups, K, P}) : Tensor();
  const auto scratch = scratch_buffer<float>(g.pointwise() || save ? 0 : static_cast<size_t>(K * P));
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      float* plane = out + (n * g.O + grp * Og) * P;
      if (b)
        for (int64_t o = 0; o < Og; ++o) std::fill(plane + o * P, plane + (o + 1) * P, b[grp * Og + o]);
      float* into = save ? saved_columns.data<float>() + (n * g.groups + grp) * K * P : scratch.get();
      const float* cols = columns(x + (n * g.C + grp * g.Cg) * g.H * g.W, g, into);
      kernels::f32_gemm({size_t(Og), size_t(P), size_t(K), w + grp * Og * K, size_t(K), 1, cols, size_t(P), plane, size_t(P),
                         b != nullptr});
    }
  if (save) open_saved->conv_columns = std::move(saved_columns);
  return y;
}

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  const char* op = "linear";
  require_float(input, op, "input");
  require_float(weight, op, "weight");
  require_dim(weight, 2, op, "weight [out, in]");
  if (input.dim() < 1) throw RuntimeError("linear: expected input with at least 1 dim, got a 0-dim tensor");
  const int64_t in = weight.size(1), outf = weight.size(0);
  if (input.size(-1) != in)
    throw RuntimeError("linear: input " + shape_str(input.shape()) + " and weight " + shape_str(weight.shape()) +
                       " cannot be multiplied (last dim " + std::to_string(input.size(-1)) + " vs " +
                       std::to_string(in) + ")");
  if (bias) require_channel_vector(*bias, outf, op, "bias");
  int64_t rows = 1;
  for (int64_t k = 0; k + 1 < input.dim(); ++k) rows *= input.size(k);
  check_op_work(op, "input " + shape_str(input.shape()) + " and weight " + shape_str(weight.shape()), {rows, outf, in});
  Shape out_shape = input.shape();
  out_shape.back() = outf;
  Tensor y = Tensor::uninitialized(out_shape);
  // y = bias + input · weightᵀ through f32_gemm (weight transposed once), each output one float32
  // chain over the input features in order.
  const float* w = weight.data<float>();
  std::vector<float> wt(static_cast<size_t>(in * outf));
  for (int64_t o = 0; o < outf; ++o)
    for (int64_t i = 0; i < in; ++i) wt[i * outf + o] = w[o * in + i];
  float* out = y.data<float>();
  if (bias) {
    const float* b = bias->data<float>();
    for (int64_t r = 0; r < rows; ++r) std::copy(b, b + outf, out + r * outf);
  }
  kernels::f32_gemm({size_t(rows), size_t(outf), size_t(in), input.data<float>(), size_t(in), 1, wt.data(), size_t(outf),
                     out, size_t(outf), bias.has_value()});
  return y;
}

Tensor relu(const Tensor& x) {
  return map_unary(x, "relu", [](float v) { return v > 0.f ? v : (std::isnan(v) ? v : 0.f); });
}

Tensor sigmoid(const Tensor& x) {
  return map_unary(x, "sigmoid", [](float v) { return 1.f / (1.f + std::exp(-v)); });
}

Tensor hardtanh(const Tensor& x, double min_val, double max_val) {
  if (min_val > max_val)
    throw ValueError("hardtanh: min_val " + std::to_string(min_val) + " must not exceed max_val " +
                     std::to_string(max_val));
  const float lo = static_cast<float>(min_val), hi = static_cast<float>(max_val);
  return map_unary(x, "hardtanh", [lo, hi](float v) { return v < lo ? lo : (v > hi ? hi : v); });
}

MaxPoolResult max_pool2d_with_indices(const Tensor& x, const IntList& kernel_size, const IntList& stride,
                                      const IntList& padding, const IntList& dilation, bool ceil_mode) {
  const char* op = "max_pool2d";
  require_float(x, op, "input");
  require_dim(x, 4, op, "input [N, C, H, W]");
  auto [kh, kw] = pair_of(kernel_size, op, "kernel_size", 1);
  auto [sh, sw] = stride.empty() ? std::pair<int64_t, int64_t>{kh, kw} : pair_of(stride, op, "stride", 1);
  auto [ph, pw] = pair_of(padding, op, "padding", 0);
  auto [dh, dw] = pair_of(dilation, op, "dilation", 1);
  if (ph > kh / 2 || pw > kw / 2)
    throw RuntimeError("max_pool2d: padding " + list_str(padding) + " should be at most half of kernel_size " +
                       list_str(kernel_size));
  const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
  // torch's pooling_output_shape: floor or ceil, and a last window must start inside the input.
  auto out_size = [ceil_mode](int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
    const __int128 num = window_span(in, k, p, d) + (ceil_mode ? s - 1 : 0);
    __int128 o = (num >= 0 ? num / s : -((-num + s - 1) / s)) + 1;  // floor division
    if (ceil_mode && (o - 1) * s >= static_cast<__int128>(in) + p) --o;
    return o < INT64_MIN ? INT64_MIN : saturate_size(o);
  };
  const int64_t OH = out_size(H, kh, sh, ph, dh), OW = out_size(W, kw, sw, pw, dw);
  if (OH < 1 || OW < 1)
    throw RuntimeError("max_pool2d: input " + shape_str(x.shape()) + " is too small for kernel_size " +
                       list_str(kernel_size) + " (output would be " + std::to_string(OH) + "x" +
                       std::to_string(OW) + ")");
  check_op_work(op, "input " + shape_str(x.shape()) + " with kernel_size " + list_str(kernel_size), {N, C, OH, OW, kh, kw});
  Tensor y = Tensor::uninitialized({N, C, OH, OW});
  Tensor indices = Tensor::uninitialized({N, C, OH, OW}, DType::Int32);
  const float* px = x.data<float>();
  float* py = y.data<float>();
  int32_t* pi = indices.data<int32_t>();
  kernels::f32_max_pool2d({px, static_cast<size_t>(N * C), H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw, py, pi});
  return {y, indices};
}

SaveForBackward::SaveForBackward(SavedForBackward& into) : previous_(open_saved) { open_saved = &into; }
SaveForBackward::~SaveForBackward() { open_saved = previous_; }

Tensor max_pool2d(const Tensor& x, const IntList& kernel_size, const IntList& stride, const IntList& padding,
                  const IntList& dilation, bool ceil_mode) {
  MaxPoolResult r = max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode);
  if (open_saved) open_saved->max_pool_indices = std::move(r.indices);
  return r.output;
}

Tensor adaptive_avg_pool2d(const Tensor& x, const IntList& output_size) {
  const char* op = "adaptive_avg_pool2d";
  require_float(x, op, "input");
  require_dim(x, 4, op, "input [N, C, H, W]");
  auto [OH, OW] = pair_of(output_size, op, "output_size", 1);
  const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
  if (H < 1 || W < 1) throw RuntimeError("adaptive_avg_pool2d: empty spatial input " + shape_str(x.shape()));
  // A window spans at most ceil(H / OH) + 1 rows and ceil(W / OW) + 1 columns.
  check_op_work(op, "input " + shape_str(x.shape()) + " to output_size " + list_str(output_size),
                {N, C, OH, OW, (H + OH - 1) / OH + 1, (W + OW - 1) / OW + 1});
  Tensor y = Tensor::empty({N, C, OH, OW});
  const float* px = x.data<float>();
  float* py = y.data<float>();
  for (int64_t nc = 0; nc < N * C; ++nc)
    for (int64_t oh = 0; oh < OH; ++oh) {
      const int64_t h0 = oh * H / OH, h1 = ((oh + 1) * H + OH - 1) / OH;
      for (int64_t ow = 0; ow < OW; ++ow) {
        const int64_t w0 = ow * W / OW, w1 = ((ow + 1) * W + OW - 1) / OW;
        double acc = 0.0;
        for (int64_t i = h0; i < h1; ++i)
          for (int64_t j = w0; j < w1; ++j) acc += px[(nc * H + i) * W + j];
        py[(nc * OH + oh) * OW + ow] = static_cast<float>(acc / static_cast<double>((h1 - h0) * (w1 - w0)));
      }
    }
  return y;
}

Tensor mean_dim(const Tensor& x, const IntList& dims, bool keepdim) {
  const char* op = "mean";
  require_float(x, op, "input");
  const int64_t nd = x.dim();
  std::vector<bool> reduce(static_cast<size_t>(nd), dims.empty());
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, nd, op);
    if (nd > 0 && reduce[w] && !dims.empty())
      throw RuntimeError("mean: dim " + std::to_string(d) + " appears more than once in " + list_str(dims));
    if (nd > 0) reduce[w] = true;
  }
  Shape out, kept;
  for (int64_t d = 0; d < nd; ++d) {
    if (reduce[d]) {
      if (keepdim) out.push_back(1);
    } else {
      out.push_back(x.shape()[d]);
    }
    kept.push_back(reduce[d] ? 1 : x.shape()[d]);
  }
  // Accumulate every input element into its output slot (index with reduced dims set to 0).
  Tensor y = Tensor::empty(out);
  std::vector<double> acc(static_cast<size_t>(y.numel()), 0.0);
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  const float* px = x.data<float>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t o = 0;
    for (int64_t d = 0; d < nd; ++d) o = o * kept[d] + (reduce[d] ? 0 : idx[d]);
    acc[o] += px[i];
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++idx[d] < x.shape()[d]) break;
      idx[d] = 0;
    }
  }
  const double count = static_cast<double>(y.numel() ? x.numel() / y.numel() : 0);
  float* py = y.data<float>();
  for (int64_t i = 0; i < y.numel(); ++i) py[i] = static_cast<float>(acc[i] / count);
  return y;
}

Tensor add(const Tensor& a, const Tensor& b, double alpha) {
  const float al = static_cast<float>(alpha);
  if (al == 1.f) return broadcast_binary(a, b, "add", [](float u, float v) { return u + v; });
  return broadcast_binary(a, b, "add", [al](float u, float v) { return u + al * v; });
}

Tensor mul(const Tensor& a, const Tensor& b) {
  return broadcast_binary(a, b, "mul", [](float u, float v) { return u * v; });
}

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  if (tensors.empty()) throw RuntimeError("cat: expected a non-empty list of tensors");
  const Tensor& first = tensors[0];
  require_float(first, "cat", "tensors[0]");
  const int64_t d = wrap_dim(dim, first.dim(), "cat");
  if (first.dim() == 0) throw RuntimeError("cat: zero-dimensional tensor (tensors[0]) cannot be concatenated");
  Shape out = first.shape();
  out[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    const std::string arg = "tensors[" + std::to_string(i) + "]";
    require_float(t, "cat", arg.c_str());
    bool ok = t.dim() == first.dim();
    for (int64_t k = 0; ok && k < t.dim(); ++k) ok = k == d || t.shape()[k] == first.shape()[k];
    if (!ok)
      throw RuntimeError("cat: " + arg + " has shape " + shape_str(t.shape()) + ", expected " +
                         shape_str(first.shape()) + " except in dim " + std::to_string(d));
    out[d] += t.shape()[d];
  }
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= out[k];
  for (int64_t k = d + 1; k < static_cast<int64_t>(out.size()); ++k) inner *= out[k];
  Tensor y = Tensor::uninitialized(out);
  float* py = y.data<float>();
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor& t : tensors) {
      const int64_t chunk = t.shape()[d] * inner;
      const float* src = t.data<float>() + o * chunk;
      py = std::copy(src, src + chunk, py);
    }
  return y;
}

Tensor flatten(const Tensor& x, int64_t start_dim, int64_t end_dim) {
  if (x.dim() == 0) return x.reshape({1});
  const int64_t s = wrap_dim(start_dim, x.dim(), "flatten"), e = wrap_dim(end_dim, x.dim(), "flatten");
  if (s > e)
    throw RuntimeError("flatten: start_dim " + std::to_string(start_dim) + " comes after end_dim " +
                       std::to_string(end_dim));
  Shape out;
  for (int64_t k = 0; k < s; ++k) out.push_back(x.shape()[k]);
  int64_t merged = 1;
  for (int64_t k = s; k <= e; ++k) merged *= x.shape()[k];
  out.push_back(merged);
  for (int64_t k = e + 1; k < x.dim(); ++k) out.push_back(x.shape()[k]);
  return x.clone().reshape(out);
}

Tensor batch_norm(const Tensor& x, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  const Tensor& running_mean, const Tensor& running_var, double eps) {
  const char* op = "batch_norm";
  require_float(x, op, "input");
  if (x.dim() < 2) throw RuntimeError("batch_norm: expected input with >= 2 dims, got " + shape_str(x.shape()));
  const int64_t C = x.size(1);
  require_channel_vector(running_mean, C, op, "running_mean");
  require_channel_vector(running_var, C, op, "running_var");
  if (weight) require_channel_vector(*weight, C, op, "weight");
  if (bias) require_channel_vector(*bias, C, op, "bias");
  const float e = static_cast<float>(eps);
  std::vector<float> a(C), c(C);
  for (int64_t k = 0; k < C; ++k) {
    const float inv_std = 1.f / std::sqrt(running_var.data<float>()[k] + e);
    a[k] = (weight ? weight->data<float>()[k] : 1.f) * inv_std;
    c[k] = (bias ? bias->data<float>()[k] : 0.f) - running_mean.data<float>()[k] * a[k];
  }
  int64_t inner = 1;
  for (int64_t k = 2; k < x.dim(); ++k) inner *= x.size(k);
  Tensor y = Tensor::uninitialized(x.shape());
  const float* px = x.data<float>();
  float* py = y.data<float>();
  for (int64_t n = 0; n < x.size(0); ++n)
    for (int64_t k = 0; k < C; ++k)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t at = (n * C + k) * inner + i;
        py[at] = px[at] * a[k] + c[k];
      }
  return y;
}

BatchNormStats batch_norm_stats(const Tensor& x, double eps) {
  const char* op = "batch_norm";
  require_float(x, op, "input");
  if (x.dim() < 2) throw RuntimeError("batch_norm: expected input with >= 2 dims, got " + shape_str(x.shape()));
  const int64_t C = x.size(1), N = x.size(0);
  int64_t inner = 1;
  for (int64_t k = 2; k < x.dim(); ++k) inner *= x.size(k);
  const int64_t n = C ? x.numel() / C : 0;
  if (n <= 1)
    throw ValueError("batch_norm: expected more than 1 value per channel when training, got input size " +
                     shape_str(x.shape()));
  const float* px = x.data<float>();
  BatchNormStats st{n, std::vector<float>(C), std::vector<float>(C), std::vector<float>(C)};
  // Each channel's mean (into st.mean) and double sum of squared deviations. torch's contiguous kernel
  // (batch_norm_cpu_collect_stats_contiguous_impl): Σ x, mean = float(Σ / n), Σ (x − mean)², each a double chain in
  // memory order, kernels::f64_chain_sums running up to eight channels' chains side by side. [N, C] (NC11) inputs take
  // torch's channels-last kernel: float accumulators over N (one thread's order), the variance term fused:
  // acc = fma(x - mean, x - mean, acc).
  std::vector<double> sums(C, 0.0), var_sums(C, 0.0);
  if (inner > 1) {
    constexpr int64_t group = kernels::ChainSums::kMaxChains;
    for (int64_t k0 = 0; k0 < C; k0 += group) {
      const size_t m = static_cast<size_t>(std::min(group, C - k0));
      for (int64_t b = 0; b < N; ++b)
        kernels::f64_chain_sums({px + (b * C + k0) * inner, size_t(inner), size_t(inner), m, nullptr, sums.data() + k0});
      for (size_t j = 0; j < m; ++j) st.mean[k0 + j] = static_cast<float>(sums[k0 + j] / static_cast<double>(n));
      for (int64_t b = 0; b < N; ++b)
        kernels::f64_chain_sums({px + (b * C + k0) * inner, size_t(inner), size_t(inner), m, st.mean.data() + k0, var_sums.data() + k0});
    }
  } else {
    for (int64_t k = 0; k < C; ++k) {
      float acc = 0;
      for (int64_t b = 0; b < N; ++b) acc += px[b * C + k];
      const float mean = st.mean[k] = static_cast<float>(static_cast<double>(acc) / static_cast<double>(n));
      float vacc = 0;
      for (int64_t b = 0; b < N; ++b) {
        const float d = px[b * C + k] - mean;
        vacc = fma_f32(d, d, vacc);
      }
      var_sums[k] = vacc;
    }
  }
  for (int64_t k = 0; k < C; ++k) {
    const float var_sum = static_cast<float>(var_sums[k]);
    // batch_norm_cpu_update_stats_template: InvStd<double>(var_sum / n, eps); float / int64 is float.
    const float biased = var_sum / static_cast<float>(n);
    st.var_sum[k] = var_sum;
    st.invstd[k] = static_cast<float>(1.0 / std::sqrt(static_cast<double>(biased) + eps));
  }
  return st;
}

Tensor batch_norm_training(const Tensor& x, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                           std::optional<Tensor> running_mean, std::optional<Tensor> running_var, double momentum,
                           double eps) {
  const char* op = "batch_norm";
  require_float(x, op, "input");
  if (x.dim() < 2) throw RuntimeError("batch_norm: expected input with >= 2 dims, got " + shape_str(x.shape()));
  const int64_t C = x.size(1), N = x.size(0);
  if (running_mean) require_channel_vector(*running_mean, C, op, "running_mean");
  if (running_var) require_channel_vector(*running_var, C, op, "running_var");
  if (weight) require_channel_vector(*weight, C, op, "weight");
  if (bias) require_channel_vector(*bias, C, op, "bias");
  BatchNormStats st = batch_norm_stats(x, eps);
  const int64_t n = st.n, inner = C ? x.numel() / (N * C) : 0;
  const float* px = x.data<float>();
  Tensor y = Tensor::uninitialized(x.shape());
  float* py = y.data<float>();
  const float m = static_cast<float>(momentum);
  for (int64_t k = 0; k < C; ++k) {
    const float mean = st.mean[k], var_sum = st.var_sum[k], invstd = st.invstd[k];
    if (running_mean) {
      float& rm = running_mean->data<float>()[k];
      const float a = m * mean, b = (1.f - m) * rm;
      rm = a + b;
    }
    if (running_var) {
      float& rv = running_var->data<float>()[k];
      const double unbiased = static_cast<double>(var_sum / static_cast<float>(n - 1));
      const float b = (1.f - m) * rv;
      rv = static_cast<float>(static_cast<double>(m) * unbiased + static_cast<double>(b));
    }
    // batch_norm_cpu_collect_linear_and_constant_terms + the transform y = x * alpha + beta.
    // torch's AVX2 kernel contracts both into fused multiply-adds (verified bit for bit on torch 1.13): kernels::f32_affine_fma.
    const float alpha = invstd * (weight ? weight->data<float>()[k] : 1.f);
    const float beta = fma_f32(-mean, alpha, bias ? bias->data<float>()[k] : 0.f);
    for (int64_t b = 0; b < N; ++b) kernels::f32_affine_fma(px + (b * C + k) * inner, inner, alpha, beta, py + (b * C + k) * inner);
  }
  if (open_saved) open_saved->batch_norm = std::move(st);
  return y;
}

Tensor sqrt(const Tensor& x) { return map_unary(x, "sqrt", [](float v) { return std::sqrt(v); }); }

Tensor div(const Tensor& a, const Tensor& b) {
  return broadcast_binary(a, b, "div", [](float u, float v) { return u / v; });
}

Tensor zeros_like(const Tensor& x) {
  require_float(x, "zeros_like", "input");
  return Tensor::zeros(x.shape());
}

}  // namespace pt::ops
