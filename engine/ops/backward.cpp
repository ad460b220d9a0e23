// backward.cpp — the reference backward ops declared in backward.h.
#include "ops/backward.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/hot.h"
#include "core/op_budget.h"
#include "kernels/kernels.h"
#include "ops/im2col.h"

namespace pt::ops {

namespace {

void require_shape(const Tensor& t, const Shape& want, const char* op, const char* arg) {
  if (t.dtype() != DType::Float32)
    throw TypeError(std::string(op) + ": expected " + arg + " to be float32, got " + dtype_name(t.dtype()));
  if (t.shape() != want)
    throw RuntimeError(std::string(op) + ": expected " + arg + " of shape " + shape_str(want) + ", got " +
                       shape_str(t.shape()));
}

Tensor from_double(const Shape& shape, const std::vector<double>& acc) {
  Tensor t = Tensor::uninitialized(shape);
  std::transform(acc.begin(), acc.end(), t.data<float>(), [](double v) { return static_cast<float>(v); });
  return t;
}

template <class F> Tensor map_grad(const Tensor& grad, const Tensor& other, const char* op, F f) {
  require_shape(other, grad.shape(), op, "the saved tensor");
  Tensor out = Tensor::uninitialized(grad.shape());
  const float* g = grad.data<float>();
  const float* o = other.data<float>();
  float* y = out.data<float>();
  for (int64_t i = 0; i < grad.numel(); ++i) y[i] = f(g[i], o[i]);
  return out;
}

// The row count of a [..., features] tensor.
int64_t rows_of(const Tensor& t) { return t.dim() ? t.numel() / std::max<int64_t>(t.size(-1), 1) : 1; }

}  // namespace

// ---- conv2d and linear --------------------------------------------------------------------------------

namespace {

// `planes` planes of H x W floats, one after another at src, into a buffer of larger planes: row y of plane c to
// dst + c·plane_stride + y·row_stride (the rest of dst as it was).
void copy_planes(const float* src, int64_t planes, int64_t H, int64_t W, float* dst, int64_t row_stride, int64_t plane_stride) {
  for (int64_t c = 0; c < planes; ++c)
    for (int64_t y = 0; y < H; ++y) std::copy(src + (c * H + y) * W, src + (c * H + y + 1) * W, dst + c * plane_stride + y * row_stride);
}

// conv2d's gradients on ConvGeometry::winograd_gradients() (3x3, stride 1, padding 1) through Winograd's transforms
// (kernels.h, f32_winograd_*): each 2x2 block of outputs from a 4x4 tile of a zero-padded plane, 16 matrix products
// (one a position ξ of the transformed tile) in place of 9 taps a block position and no col2im; the images go
// through in chunks whose transformed tiles stay below ~256 KiB a buffer (L2-sized). Every sum is in float, in a fixed order (the kernels',
// then f32_gemm's chains), but not im2col's: the gradients differ from the columns' in the last bits.
struct WinogradTiles {
  int64_t th, tw, tiles, rows, row_stride, chunk;  // tiles of a plane (th x tw); its padded copy rows x row_stride
  explicit WinogradTiles(const ConvGeometry& g)
      : th((g.H + 1) / 2), tw((g.W + 1) / 2), tiles(th * tw), rows(2 * th + 2), row_stride(2 * tw + 4),
        chunk(std::clamp<int64_t>((int64_t{1} << 16) / std::max<int64_t>(16 * std::max(g.Og(), g.Cg) * tiles, 1), 1, g.N)) {}
  // The distance between the 16 positions' matrices of `floats` each: 16 floats more, so that the 16 rows a transform
  // reads or writes at once do not all fall in one set of the L1 cache (a power of two apart, they did: the input
  // transform took 3 times as long).
  static int64_t xi_stride(int64_t floats) { return floats + 16; }
  // Bᵀ d B of the tiles of one image's group of planes (`planes` channels, each H x W at x) into out[ξ·xs + c·Tn + t]
  // (f32_winograd_input): each plane copied first to (1, 1) of its padded copy in pad, planes · rows · row_stride
  // floats whose borders are zero (the caller zeroes pad once; the copies leave the borders as they were).
  void input_tiles(const float* x, int64_t planes, int64_t H, int64_t W, float* pad, float* out, int64_t xs, int64_t Tn) const {
    copy_planes(x, planes, H, W, pad + row_stride + 1, row_stride, rows * row_stride);
    kernels::f32_winograd_input({pad, size_t(planes), size_t(rows * row_stride), size_t(row_stride), size_t(th), size_t(tw), out,
                                 size_t(xs), size_t(Tn)});
  }
};

// U[ξ][c][o] = (G w' Gᵀ)[ξ] for w'[i][j] = weight[o][c][2 − i][2 − j] (the input gradient correlates the padded
// output gradient with the kernel turned 180°), G = [1 0 0; ½ ½ ½; ½ −½ ½; 0 0 1].
void winograd_weights(const float* w, int64_t Og, int64_t Cg, float* U) {
  for (int64_t o = 0; o < Og; ++o)
    for (int64_t c = 0; c < Cg; ++c) {
      const float* k = w + (o * Cg + c) * 9;
      float t[4][3];
      for (int j = 0; j < 3; ++j) {  // t = G w' (w' column j is k's column 2 − j, upside down)
        const float a = k[6 + 2 - j], b = k[3 + 2 - j], d = k[2 - j];
        t[0][j] = a;
        t[1][j] = (a + b + d) * 0.5f;
        t[2][j] = (a - b + d) * 0.5f;
        t[3][j] = d;
      }
      for (int i = 0; i < 4; ++i) {  // t Gᵀ
        const float u[4] = {t[i][0], (t[i][0] + t[i][1] + t[i][2]) * 0.5f, (t[i][0] - t[i][1] + t[i][2]) * 0.5f, t[i][2]};
        for (int j = 0; j < 4; ++j) U[((i * 4 + j) * Cg + c) * Og + o] = u[j];
      }
    }
}

// dx = Σ_o grad_o ⋆ w'_o: F(2x2, 3x3) on the output gradient's padded planes; M[ξ][c][t] = U[ξ] · V[ξ] over o.
void winograd_backward_input(const Tensor& grad, const Tensor& weight, const ConvGeometry& g, Tensor& dx) {
  const int64_t Og = g.Og(), Cg = g.Cg, H = g.H, W = g.W;
  const WinogradTiles wt(g);
  const int64_t T = wt.chunk * wt.tiles;
  const auto U = scratch_buffer<float>(16 * Cg * Og), V = scratch_buffer<float>(16 * wt.xi_stride(Og * T)),
             M = scratch_buffer<float>(16 * wt.xi_stride(Cg * T)), pad = scratch_buffer<float>(Og * wt.rows * wt.row_stride);
  std::fill(pad.get(), pad.get() + Og * wt.rows * wt.row_stride, 0.0f);
  for (int64_t grp = 0; grp < g.groups; ++grp) {
    winograd_weights(weight.data<float>() + grp * Og * Cg * 9, Og, Cg, U.get());
    for (int64_t n0 = 0; n0 < g.N; n0 += wt.chunk) {
      const int64_t nn = std::min(wt.chunk, g.N - n0), Tn = nn * wt.tiles, vs = wt.xi_stride(Og * Tn), ms = wt.xi_stride(Cg * Tn);
      for (int64_t n = 0; n < nn; ++n)
        wt.input_tiles(grad.data<float>() + ((n0 + n) * g.O + grp * Og) * H * W, Og, H, W, pad.get(), V.get() + n * wt.tiles, vs, Tn);
      for (int64_t xi = 0; xi < 16; ++xi)
        kernels::f32_gemm({size_t(Cg), size_t(Tn), size_t(Og), U.get() + xi * Cg * Og, size_t(Og), 1, V.get() + xi * vs, size_t(Tn),
                           M.get() + xi * ms, size_t(Tn), false});
      for (int64_t n = 0; n < nn; ++n)
        kernels::f32_winograd_output({M.get() + n * wt.tiles, size_t(Cg), size_t(wt.th), size_t(wt.tw), size_t(ms), size_t(Tn),
                                      dx.data<float>() + ((n0 + n) * g.C + grp * Cg) * H * W, size_t(H * W), size_t(H), size_t(W)});
    }
  }
}

// dw = Σ over images and 2x2 output blocks of F(3x3, 2x2): S[ξ][c][o] = Σ_t X[ξ][c][t] · Gy[ξ][t][o], with X the
// input's padded tiles (Bᵀ d B, f32_winograd_input) and Gy the output gradient's blocks (A g Aᵀ, f32_winograd_grad),
// then dw[o][c] = Gᵀ S G (Gᵀ = [1 ½ ½ 0; 0 ½ −½ 0; 0 ½ ½ 1]), written into dw.
void winograd_backward_weight(const Tensor& grad, const Tensor& input, const ConvGeometry& g, Tensor& dw) {
  const int64_t Og = g.Og(), Cg = g.Cg, H = g.H, W = g.W;
  const WinogradTiles wt(g);
  const int64_t T = wt.chunk * wt.tiles;
  const bool even = H % 2 == 0 && W % 2 == 0;  // else the gradient's planes are copied onto zeros of even size
  const auto X = scratch_buffer<float>(16 * wt.xi_stride(Cg * T)), Gy = scratch_buffer<float>(16 * wt.xi_stride(T * Og)),
             S = scratch_buffer<float>(16 * Cg * Og),
             pad = scratch_buffer<float>(Cg * wt.rows * wt.row_stride), gpad = scratch_buffer<float>(even ? 0 : Og * 4 * wt.tiles);
  std::fill(pad.get(), pad.get() + Cg * wt.rows * wt.row_stride, 0.0f);
  if (!even) std::fill(gpad.get(), gpad.get() + Og * 4 * wt.tiles, 0.0f);
  for (int64_t grp = 0; grp < g.groups; ++grp) {
    for (int64_t n0 = 0; n0 < g.N; n0 += wt.chunk) {
      const int64_t nn = std::min(wt.chunk, g.N - n0), Tn = nn * wt.tiles, xs = wt.xi_stride(Cg * Tn), gs = wt.xi_stride(Tn * Og);
      for (int64_t n = 0; n < nn; ++n) {
        wt.input_tiles(input.data<float>() + ((n0 + n) * g.C + grp * Cg) * H * W, Cg, H, W, pad.get(), X.get() + n * wt.tiles, xs, Tn);
        const float* gy = grad.data<float>() + ((n0 + n) * g.O + grp * Og) * H * W;
        if (!even) copy_planes(gy, Og, H, W, gpad.get(), 2 * wt.tw, 4 * wt.tiles);
        kernels::f32_winograd_grad({even ? gy : gpad.get(), size_t(Og), size_t(even ? H * W : 4 * wt.tiles), size_t(even ? W : 2 * wt.tw),
                                    size_t(wt.th), size_t(wt.tw), Gy.get() + n * wt.tiles * Og, size_t(gs), size_t(Og)});
      }
      for (int64_t xi = 0; xi < 16; ++xi)
        kernels::f32_gemm({size_t(Cg), size_t(Og), size_t(Tn), X.get() + xi * xs, size_t(Tn), 1, Gy.get() + xi * gs, size_t(Og),
                           S.get() + xi * Cg * Og, size_t(Og), n0 > 0});
    }
    float* out = dw.data<float>() + grp * Og * Cg * 9;
    for (int64_t c = 0; c < Cg; ++c)
      for (int64_t o = 0; o < Og; ++o) {
        float s[4][4], t[3][4];
        for (int xi = 0; xi < 16; ++xi) s[xi / 4][xi % 4] = S[(xi * Cg + c) * Og + o];
        for (int j = 0; j < 4; ++j) {  // t = Gᵀ s
          t[0][j] = s[0][j] + (s[1][j] + s[2][j]) * 0.5f;
          t[1][j] = (s[1][j] - s[2][j]) * 0.5f;
          t[2][j] = (s[1][j] + s[2][j]) * 0.5f + s[3][j];
        }
        float* k = out + (o * Cg + c) * 9;
        for (int i = 0; i < 3; ++i) {  // t G
          k[i * 3 + 0] = t[i][0] + (t[i][1] + t[i][2]) * 0.5f;
          k[i * 3 + 1] = (t[i][1] - t[i][2]) * 0.5f;
          k[i * 3 + 2] = (t[i][1] + t[i][2]) * 0.5f + t[i][3];
        }
      }
  }
}

}  // namespace

// Per image and group, through kernels::f32_gemm (one float32 chain per output, see each function):
//   input:  columns' gradient = weightᵀ · grad  (a chain over the group's Og output channels), then
//           col2im adds each column into the image's gradient (float, col2im's order);
//   weight: weightᵀ's gradient = columns · gradᵀ (a chain over the P output positions of each image, the images
//           one after another: f32_gemm adds each image's product onto the sum so far).
Tensor conv2d_backward_input(const Tensor& grad, const Tensor& weight, const Shape& input_shape, const IntList& stride,
                             const IntList& padding, const IntList& dilation, int64_t groups) {
  const ConvGeometry g = conv2d_geometry(input_shape, weight.shape(), stride, padding, dilation, groups);
  require_shape(grad, {g.N, g.O, g.OH, g.OW}, "conv2d_backward", "grad_output");
  if (g.winograd_gradients()) {
    Tensor dx = Tensor::uninitialized(input_shape);  // every element lies in one output tile
    winograd_backward_input(grad, weight, g, dx);
    return dx;
  }
  const size_t K = g.K(), P = g.P(), Og = g.Og();
  Tensor dx = Tensor::zeros(input_shape);
  const auto cols = scratch_buffer<float>(g.pointwise() ? 0 : K * P);
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      float* dx_ng = dx.data<float>() + (n * g.C + grp * g.Cg) * g.H * g.W;
      float* dcols = g.pointwise() ? dx_ng : cols.get();  // 1x1: the columns are the image
      kernels::f32_gemm({K, P, Og, weight.data<float>() + grp * Og * K, 1, K, grad.data<float>() + (n * g.O + grp * Og) * P,
                         P, dcols, P, false});
      if (!g.pointwise()) col2im(dcols, g, dx_ng);
    }
  return dx;
}

Tensor conv2d_backward_weight(const Tensor& grad, const Tensor& input, const Shape& weight_shape,
                              const IntList& stride, const IntList& padding, const IntList& dilation, int64_t groups,
                              const Tensor* columns) {
  const ConvGeometry g = conv2d_geometry(input.shape(), weight_shape, stride, padding, dilation, groups);
  require_shape(grad, {g.N, g.O, g.OH, g.OW}, "conv2d_backward", "grad_output");
  if (g.winograd_gradients()) {
    Tensor dw = Tensor::uninitialized(weight_shape);
    winograd_backward_weight(grad, input, g, dw);
    return dw;
  }
  const size_t K = g.K(), P = g.P(), Og = g.Og();
  if (columns) require_shape(*columns, {g.N, g.groups, g.K(), g.P()}, "conv2d_backward", "the saved columns");
  // The sums per group as [K][Og], from +0: each image's columns · gradᵀ added by f32_gemm onto the images' before it.
  Tensor sums = Tensor::zeros({g.groups, static_cast<int64_t>(K), static_cast<int64_t>(Og)});
  const auto scratch = scratch_buffer<float>(g.pointwise() || columns ? 0 : K * P), grad_t = scratch_buffer<float>(P * Og);
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const float* cols = columns ? columns->data<float>() + (n * g.groups + grp) * K * P
                                  : ops::columns(input.data<float>() + (n * g.C + grp * g.Cg) * g.H * g.W, g, scratch.get());
      const float* gr = grad.data<float>() + (n * g.O + grp * Og) * P;
      for (size_t o = 0; o < Og; ++o)
        for (size_t p = 0; p < P; ++p) grad_t[p * Og + o] = gr[o * P + p];
      kernels::f32_gemm({K, Og, P, cols, P, 1, grad_t.get(), Og, sums.data<float>() + grp * K * Og, Og, true});
    }
  Tensor dw = Tensor::uninitialized(weight_shape);
  const float* sp = sums.data<float>();
  float* dp = dw.data<float>();
  for (int64_t grp = 0; grp < g.groups; ++grp)
    for (size_t k = 0; k < K; ++k)
      for (size_t o = 0; o < Og; ++o) dp[(grp * Og + o) * K + k] = sp[(grp * K + k) * Og + o];
  return dw;
}

// linear through kernels::f32_gemm: grad · weight (a float32 chain over the output features) and
// gradᵀ · input (a chain over the rows).
Tensor linear_backward_input(const Tensor& grad, const Tensor& weight) {
  if (weight.dim() != 2) throw RuntimeError("linear_backward: expected weight [out, in], got " + shape_str(weight.shape()));
  const int64_t out = weight.size(0), in = weight.size(1);
  if (grad.dim() < 1 || grad.size(-1) != out)
    throw RuntimeError("linear_backward: grad_output " + shape_str(grad.shape()) + " does not match weight " +
                       shape_str(weight.shape()));
  const int64_t R = rows_of(grad);
  check_op_work("linear_backward", "grad_output " + shape_str(grad.shape()) + " and weight " + shape_str(weight.shape()), {R, out, in});
  Shape shape = grad.shape();
  shape.back() = in;
  Tensor dx = Tensor::uninitialized(shape);
  kernels::f32_gemm({size_t(R), size_t(in), size_t(out), grad.data<float>(), size_t(out), 1, weight.data<float>(), size_t(in),
                     dx.data<float>(), size_t(in), false});
  return dx;
}

Tensor linear_backward_weight(const Tensor& grad, const Tensor& input) {
  if (grad.dim() < 1 || input.dim() < 1 || rows_of(grad) != rows_of(input))
    throw RuntimeError("linear_backward: grad_output " + shape_str(grad.shape()) + " does not match input " +
                       shape_str(input.shape()));
  const int64_t out = grad.size(-1), in = input.size(-1), R = rows_of(grad);
  check_op_work("linear_backward", "grad_output " + shape_str(grad.shape()) + " and input " + shape_str(input.shape()), {R, out, in});
  Tensor dw = Tensor::uninitialized({out, in});
  kernels::f32_gemm({size_t(out), size_t(in), size_t(R), grad.data<float>(), 1, size_t(out), input.data<float>(), size_t(in),
                     dw.data<float>(), size_t(in), false});
  return dw;
}

// ---- reductions and broadcasting ------------------------------------------------------------------------

namespace {
// sum_to's walk: RuntimeError unless `shape` broadcasts to `grad_shape`; then f(i, run, o) for each run of `run`
// consecutive elements i, i + 1, ... of grad that all go to the element o of `shape`, in memory order. The trailing
// dims summed away (stride 0 in `shape`) form the runs; an odometer walks the dims before them.
template <class F> void for_each_run(const Shape& grad_shape, const Shape& shape, F f) {
  const int64_t nd = static_cast<int64_t>(grad_shape.size()), lead = nd - static_cast<int64_t>(shape.size());
  bool ok = lead >= 0;
  for (size_t i = 0; ok && i < shape.size(); ++i) ok = shape[i] == 1 || shape[i] == grad_shape[lead + i];
  if (!ok) throw RuntimeError("sum_to: shape " + shape_str(shape) + " does not broadcast to " + shape_str(grad_shape));
  // Strides of the output in grad's index space (0 along summed dims).
  std::vector<int64_t> stride(static_cast<size_t>(nd), 0), idx(static_cast<size_t>(nd), 0);
  for (int64_t d = nd - 1, r = 1; d >= lead; --d) {
    const int64_t s = shape[d - lead];
    stride[d] = s == 1 ? 0 : r;
    r *= s;
  }
  int64_t run = 1, outer_nd = nd, numel = 1;
  for (int64_t s : grad_shape) numel *= s;
  while (outer_nd > 0 && stride[outer_nd - 1] == 0) run *= grad_shape[--outer_nd];
  int64_t o = 0;
  for (int64_t i = 0; i < numel; i += run) {
    f(i, run, o);
    for (int64_t d = outer_nd - 1; d >= 0; --d) {
      o += stride[d];
      if (++idx[d] < grad_shape[d]) break;
      o -= stride[d] * grad_shape[d];
      idx[d] = 0;
    }
  }
}

int64_t count_of(const Shape& shape) {
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  return count;
}

// The sum of one run of values in double, four partial sums (value j of the run into partial j % 4) added together
// at the end, so the additions do not wait on one another. add() takes the run in pieces whose lengths, all but the
// last, are multiples of 4.
struct RunSum {
  double p[4] = {};
  void add(const float* v, int64_t n) {
    int64_t k = 0;
    for (; k + 4 <= n; k += 4) {
      p[0] += static_cast<double>(v[k]);
      p[1] += static_cast<double>(v[k + 1]);
      p[2] += static_cast<double>(v[k + 2]);
      p[3] += static_cast<double>(v[k + 3]);
    }
    for (int j = 0; k < n; ++k, ++j) p[j] += static_cast<double>(v[k]);
  }
  double total() const { return (p[0] + p[1]) + (p[2] + p[3]); }
};

// One run of div_backward: self's gradient g / b (when `gs`) and the RunSum of other's, −(g · (r / b)). Other's
// terms are taken a block at a time into `v` (a loop in SIMD lanes), then summed.
PT_HOT_LOOP double div_backward_run(const float* __restrict g, const float* __restrict r, float b, int64_t n,
                                    float* __restrict gs) {
  if (gs)
    for (int64_t j = 0; j < n; ++j) gs[j] = g[j] / b;
  constexpr int64_t block = 64;
  float v[block];
  RunSum sum;
  for (int64_t j0 = 0; j0 < n; j0 += block) {
    const int64_t m = std::min(block, n - j0);
    for (int64_t k = 0; k < m; ++k) v[k] = -(g[j0 + k] * (r[j0 + k] / b));
    sum.add(v, m);
  }
  return sum.total();
}
PT_HOT_LOOP double run_sum(const float* v, int64_t n) {
  RunSum sum;
  sum.add(v, n);
  return sum.total();
}
}  // namespace

// Each run of grad is summed in double (RunSum) and added to its slot, the runs in memory order; every slot is
// rounded once at the end.
Tensor sum_to(const Tensor& grad, const Shape& shape) {
  if (grad.shape() == shape) return grad;
  std::vector<double> acc(static_cast<size_t>(count_of(shape)), 0.0);
  const float* g = grad.data<float>();
  for_each_run(grad.shape(), shape, [&](int64_t i, int64_t run, int64_t o) { acc[o] += run_sum(g + i, run); });
  return from_double(shape, acc);
}

// The fused pass needs grad, result and self of one shape and `other` broadcast over them (the case of a
// [N, C, H, W] activation divided by a [1, C, 1, 1] factor, torchao's QAT conv-bn pattern); any other case takes
// the composition itself. Both ways give the same bits: each element is the same float expression, and other's
// sum adds the same values in the same order (sum_to's).
DivGrads div_backward(const Tensor& grad, const Tensor& result, const Tensor& other, const Shape& self_shape,
                      bool need_self, bool need_other) {
  DivGrads r;
  const bool fused = grad.dtype() == DType::Float32 && result.dtype() == DType::Float32 &&
                     other.dtype() == DType::Float32 && result.shape() == grad.shape() && self_shape == grad.shape() &&
                     other.shape() != grad.shape() && need_other;
  if (!fused) {
    if (need_self) r.self = sum_to(div(grad, other), self_shape);
    if (need_other)
      r.other = sum_to(mul(mul(grad, div(result, other)), Tensor::scalar(-1.f)), other.shape());
    return r;
  }
  std::vector<double> acc(static_cast<size_t>(count_of(other.shape())), 0.0);
  if (need_self) r.self = Tensor::uninitialized(grad.shape());
  const float* g = grad.data<float>();
  const float* res = result.data<float>();
  const float* b = other.data<float>();
  float* gs = need_self ? r.self->data<float>() : nullptr;
  for_each_run(grad.shape(), other.shape(), [&](int64_t i, int64_t run, int64_t o) {
    acc[o] += div_backward_run(g + i, res + i, b[o], run, gs ? gs + i : nullptr);
  });
  r.other = from_double(other.shape(), acc);
  return r;
}

Tensor mean_dim_backward(const Tensor& grad, const Shape& input_shape, const IntList& dims, bool keepdim) {
  const int64_t nd = static_cast<int64_t>(input_shape.size());
  Shape kept = input_shape;
  if (dims.empty()) std::fill(kept.begin(), kept.end(), 1);
  for (int64_t d : dims) kept[(d % std::max<int64_t>(nd, 1) + nd) % std::max<int64_t>(nd, 1)] = 1;
  int64_t count = 1;
  for (int64_t d = 0; d < nd; ++d) count *= input_shape[d] / kept[d];
  Tensor g = keepdim ? grad : grad.reshape(kept);
  if (g.shape() != kept)
    throw RuntimeError("mean_backward: grad_output " + shape_str(grad.shape()) + " does not match " + shape_str(kept));
  // grad.expand(input_shape) / count, as torch's mean backward (sum_backward then division).
  return div(add(Tensor::zeros(input_shape), g), Tensor::scalar(static_cast<float>(count)));
}

// ---- elementwise --------------------------------------------------------------------------------------

namespace {
// An STE mask's data, checked against grad (uint8, grad's shape); nullptr without one.
const uint8_t* mask_data(const Tensor* mask, const Tensor& grad, const char* op) {
  if (!mask) return nullptr;
  if (mask->dtype() != DType::UInt8)
    throw TypeError(std::string(op) + ": expected the gradient's mask to be uint8, got " + dtype_name(mask->dtype()));
  if (mask->shape() != grad.shape())
    throw RuntimeError(std::string(op) + ": expected the gradient's mask of shape " + shape_str(grad.shape()) +
                       ", got " + shape_str(mask->shape()));
  return mask->data<uint8_t>();
}

// Both sides taken, then a select: a loop in SIMD lanes, no branch per element.
PT_HOT_LOOP void threshold_masked(const float* __restrict g, const uint8_t* __restrict m, const float* __restrict y,
                                  float threshold, int64_t n, float* __restrict out) {
  for (int64_t i = 0; i < n; ++i) {
    const float masked = g[i] * mask_float(m[i]);
    out[i] = y[i] > threshold ? masked : 0.f;
  }
}
}  // namespace

Tensor threshold_backward(const Tensor& grad, const Tensor& result, float threshold, const Tensor* grad_mask) {
  if (!grad_mask)
    return map_grad(grad, result, "threshold_backward", [threshold](float g, float y) { return y > threshold ? g : 0.f; });
  require_shape(grad, result.shape(), "threshold_backward", "grad_output");
  require_shape(result, grad.shape(), "threshold_backward", "the saved tensor");
  const uint8_t* m = mask_data(grad_mask, grad, "threshold_backward");
  Tensor out = Tensor::uninitialized(grad.shape());
  threshold_masked(grad.data<float>(), m, result.data<float>(), threshold, grad.numel(), out.data<float>());
  return out;
}

Tensor hardtanh_backward(const Tensor& grad, const Tensor& x, double min_val, double max_val) {
  const float lo = static_cast<float>(min_val), hi = static_cast<float>(max_val);
  return map_grad(grad, x, "hardtanh_backward", [lo, hi](float g, float v) { return v <= lo || v >= hi ? 0.f : g; });
}

Tensor sigmoid_backward(const Tensor& grad, const Tensor& result) {
  return map_grad(grad, result, "sigmoid_backward", [](float g, float y) { return g * (1.f - y) * y; });
}

// ---- pooling and cat ----------------------------------------------------------------------------------

Tensor max_pool2d_backward(const Tensor& grad, const Tensor& x, const IntList& kernel_size, const IntList& stride,
                           const IntList& padding, const IntList& dilation, bool ceil_mode, const Tensor* indices,
                           const Tensor* grad_mask) {
  std::optional<Tensor> found;
  if (!indices) indices = &found.emplace(max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode).indices);
  require_shape(grad, indices->shape(), "max_pool2d_backward", "grad_output");
  const uint8_t* m = mask_data(grad_mask, grad, "max_pool2d_backward");
  const int64_t planes = x.size(0) * x.size(1), in = x.size(2) * x.size(3), out = indices->size(2) * indices->size(3);
  Tensor dx = Tensor::zeros(x.shape());
  float* d = dx.data<float>();
  const float* g = grad.data<float>();
  const int32_t* at = indices->data<int32_t>();
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < out; ++i)
      if (at[p * out + i] >= 0)
        d[p * in + at[p * out + i]] += m ? g[p * out + i] * mask_float(m[p * out + i]) : g[p * out + i];
  return dx;
}

Tensor adaptive_avg_pool2d_backward(const Tensor& grad, const Tensor& x) {
  if (x.dim() != 4 || grad.dim() != 4 || grad.size(0) != x.size(0) || grad.size(1) != x.size(1))
    throw RuntimeError("adaptive_avg_pool2d_backward: grad_output " + shape_str(grad.shape()) + " does not match input " +
                       shape_str(x.shape()));
  const int64_t NC = x.size(0) * x.size(1), H = x.size(2), W = x.size(3), OH = grad.size(2), OW = grad.size(3);
  std::vector<double> dx(static_cast<size_t>(x.numel()), 0.0);
  const float* g = grad.data<float>();
  for (int64_t nc = 0; nc < NC; ++nc)
    for (int64_t oh = 0; oh < OH; ++oh) {
      const int64_t h0 = oh * H / OH, h1 = ((oh + 1) * H + OH - 1) / OH;
      for (int64_t ow = 0; ow < OW; ++ow) {
        const int64_t w0 = ow * W / OW, w1 = ((ow + 1) * W + OW - 1) / OW;
        // torch: grad_delta = grad / kH / kW (float), added to the window
        const float delta = g[(nc * OH + oh) * OW + ow] / static_cast<float>(h1 - h0) / static_cast<float>(w1 - w0);
        for (int64_t i = h0; i < h1; ++i)
          for (int64_t j = w0; j < w1; ++j) dx[(nc * H + i) * W + j] += delta;
      }
    }
  return from_double(x.shape(), dx);
}

std::vector<Tensor> cat_backward(const Tensor& grad, const std::vector<Shape>& input_shapes, int64_t dim) {
  std::vector<Tensor> out;
  if (input_shapes.empty()) return out;
  const int64_t nd = grad.dim(), d = dim < 0 ? dim + nd : dim;
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= grad.size(k);
  for (int64_t k = d + 1; k < nd; ++k) inner *= grad.size(k);
  int64_t offset = 0;
  for (const Shape& s : input_shapes) {
    Tensor t = Tensor::uninitialized(s);
    const int64_t chunk = s[d] * inner, row = grad.size(d) * inner;
    for (int64_t o = 0; o < outer; ++o) {
      const float* src = grad.data<float>() + o * row + offset * inner;
      std::copy(src, src + chunk, t.data<float>() + o * chunk);
    }
    offset += s[d];
    out.push_back(t);
  }
  return out;
}

// ---- batch norm ---------------------------------------------------------------------------------------

namespace {
// torch 1.13's batch_norm_cpu_backward_contiguous_impl, plane by plane (one image's plane of one channel). Its sums
// are vec::reduce_all / map2_reduce_all: float partial sums a vector wide (four lanes here, torch's CPU vector is
// wider), combined at the end of the plane; the planes' sums are then added in double.
struct PlaneSums {
  float sum, dotp;  // Σ g, Σ (x − mean)·g
};
PT_HOT_LOOP PlaneSums bn_plane_sums(const float* x, const float* g, int64_t n, float mean) {
  float s[4] = {}, d[4] = {};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int j = 0; j < 4; ++j) {
      s[j] += g[i + j];
      d[j] += (x[i + j] - mean) * g[i + j];
    }
  for (int j = 0; i < n; ++i, ++j) {
    s[j] += g[i];
    d[j] += (x[i] - mean) * g[i];
  }
  return {(s[0] + s[1]) + (s[2] + s[3]), (d[0] + d[1]) + (d[2] + d[3])};
}
// dx = (g − grad_mean − (x − mean)·k)·invstd·w in float, torch's vec::map2 (eval mode: grad_mean = k = 0, which
// gives g·invstd·w, torch's eval formula, exactly).
PT_HOT_LOOP void bn_backward_dx(const float* x, const float* g, int64_t n, float mean, float grad_mean, float k,
                                float invstd, float w, float* dx) {
  for (int64_t i = 0; i < n; ++i) dx[i] = (g[i] - grad_mean - (x[i] - mean) * k) * invstd * w;
}
}  // namespace

BatchNormGrads batch_norm_backward(const Tensor& grad, const Tensor& x, const std::optional<Tensor>& weight,
                                   const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                                   bool training, double eps, bool need_input, bool need_weight, bool need_bias,
                                   const BatchNormStats* saved) {
  require_shape(grad, x.shape(), "batch_norm_backward", "grad_output");
  const int64_t N = x.size(0), C = x.size(1), inner = C && N ? x.numel() / (N * C) : 0;
  std::vector<float> mean(C), invstd(C);
  int64_t n = N * inner;
  if (training && saved && saved->n == n && static_cast<int64_t>(saved->mean.size()) == C) {
    mean = saved->mean;
    invstd = saved->invstd;
  } else if (training) {
    BatchNormStats st = batch_norm_stats(x, eps);
    mean = std::move(st.mean);
    invstd = std::move(st.invstd);
  } else {
    if (!running_mean || !running_var)
      throw RuntimeError("batch_norm_backward: eval mode needs running_mean and running_var");
    for (int64_t k = 0; k < C; ++k) {
      mean[k] = running_mean->data<float>()[k];
      invstd[k] = static_cast<float>(1.0 / std::sqrt(static_cast<double>(running_var->data<float>()[k]) + eps));
    }
  }
  BatchNormGrads out;
  // dx is written whole below (every channel's planes) when it is asked for: no fill first.
  Tensor dx = need_input ? Tensor::uninitialized(x.shape()) : Tensor(), dw = Tensor::empty({C}), db = Tensor::empty({C});
  const float* px = x.data<float>();
  const float* pg = grad.data<float>();
  const float* pw = weight ? weight->data<float>() : nullptr;
  float* pdx = need_input ? dx.data<float>() : nullptr;
  for (int64_t c = 0; c < C; ++c) {
    double sum = 0, dotp = 0;
    for (int64_t b = 0; b < N; ++b) {
      const PlaneSums p = bn_plane_sums(px + (b * C + c) * inner, pg + (b * C + c) * inner, inner, mean[c]);
      sum += p.sum;
      dotp += p.dotp;
    }
    const float w = pw ? pw[c] : 1.f, is = invstd[c];
    dw.data<float>()[c] = static_cast<float>(dotp * is);
    db.data<float>()[c] = static_cast<float>(sum);
    if (!need_input) continue;
    // torch: k = (float) dotp * invstd * invstd / N and grad_mean = sum / N, in float.
    const float k = training ? static_cast<float>(dotp) * is * is / static_cast<float>(n) : 0.f;
    const float grad_mean = training ? static_cast<float>(sum / static_cast<double>(n)) : 0.f;
    for (int64_t b = 0; b < N; ++b) {
      const int64_t at = (b * C + c) * inner;
      bn_backward_dx(px + at, pg + at, inner, mean[c], grad_mean, k, is, w, pdx + at);
    }
  }
  if (need_input) out.input = dx;
  if (need_weight) out.weight = dw;
  if (need_bias) out.bias = db;
  return out;
}

}  // namespace pt::ops
