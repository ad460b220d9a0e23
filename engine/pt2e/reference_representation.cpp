// reference_representation.cpp — torchao reference_representation_rewrite.py's patterns and replacement
// functions (reference_representation.h), each replacement one op of the interpreter's table.
#include "pt2e/reference_representation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "graph/interpreter.h"
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"
#include "ops/ops.h"

namespace pt {

namespace {

// ---- the replacement functions' arithmetic -----------------------------------------------------------

float f32(double v) { return static_cast<float>(v); }

// float32 → int32 as torch's .to(torch.int32) / out_dtype(..., torch.int32) casts: truncation (the range
// is clamped first; a cast of an out-of-range float is undefined in C++ and in torch).
int32_t to_int32(float v) {
  if (v != v) throw ValueError("reference representation: NaN cannot be cast to an integer");
  return static_cast<int32_t>(std::clamp(static_cast<double>(v), -2147483648.0, 2147483647.0));
}

int32_t clamp_i(int64_t v, int64_t lo, int64_t hi) { return static_cast<int32_t>(std::clamp(v, lo, hi)); }

Tensor int8_result(const Shape& shape, const std::vector<int32_t>& v) {
  Tensor t = Tensor::empty(shape, DType::Int8);
  std::transform(v.begin(), v.end(), t.data<int8_t>(), [](int32_t x) { return static_cast<int8_t>(x); });
  return t;
}

// clamp(x_i8, qmin, qmax) then minus the zero point, as int32 (the replacements' x_i16 − x_zero_point).
std::vector<int32_t> centered(const Tensor& x, int64_t zp, int64_t qmin, int64_t qmax) {
  std::vector<int32_t> out;
  for (int8_t v : x.span<int8_t>()) out.push_back(clamp_i(v, qmin, qmax) - static_cast<int32_t>(zp));
  return out;
}

struct QArgs {  // scale, zero_point, quant_min, quant_max at argument i … i + 3
  float scale;
  int64_t zp, qmin, qmax;
  static QArgs at(const OpArgs& a, size_t i) { return {f32(a.number(i)), a.integer(i + 1), a.integer(i + 2), a.integer(i + 3)}; }
};

// _reference_quantized_linear / _conv2d after the int32 accumulation: bias_i32 = int32(bias / (s_x·s_w))
// (truncation), acc += bias, int32(acc · (s_x·s_w / s_out)) (truncation) + z_out, clamp, int8.
int32_t requantize_truncating(int32_t acc, float bias, bool has_bias, const QArgs& x, const QArgs& w, const QArgs& out) {
  const float bias_scale = x.scale * w.scale;
  if (has_bias) acc = static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(to_int32(bias / bias_scale)));
  const float multiplier = bias_scale / out.scale;
  return clamp_i(static_cast<int64_t>(to_int32(static_cast<float>(acc) * multiplier)) + out.zp, out.qmin, out.qmax);
}

// (x_i8, x_scale, x_zp, x_qmin, x_qmax, w_i8, w_scale, w_zp, w_qmin, w_qmax, bias, out_scale, out_zp, out_qmin, out_qmax)
Value quantized_linear(const OpArgs& a) {
  const Tensor &x = a.tensor(0), &w = a.tensor(5);
  const QArgs xq = QArgs::at(a, 1), wq = QArgs::at(a, 6), oq = QArgs::at(a, 11);
  const auto bias = a.optional_tensor(10);
  const int64_t K = w.size(1), O = w.size(0), rows = x.numel() / K;
  if (x.size(-1) != K) throw RuntimeError("reference_quantized_linear: input " + shape_str(x.shape()) + " and weight " + shape_str(w.shape()));
  const auto xc = centered(x, xq.zp, xq.qmin, xq.qmax), wc = centered(w, wq.zp, wq.qmin, wq.qmax);
  std::vector<int32_t> out(static_cast<size_t>(rows * O));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < O; ++o) {
      uint32_t acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += static_cast<uint32_t>(xc[r * K + k] * wc[o * K + k]);
      out[r * O + o] = requantize_truncating(static_cast<int32_t>(acc), bias ? bias->data<float>()[o] : 0.0f, bias.has_value(), xq, wq, oq);
    }
  Shape shape = x.shape();
  shape.back() = O;
  return Value(int8_result(shape, out));
}

// quantized_linear's arguments, then stride, padding, dilation, groups.
Value quantized_conv2d(const OpArgs& a) {
  const Tensor &x = a.tensor(0), &w = a.tensor(5);
  const QArgs xq = QArgs::at(a, 1), wq = QArgs::at(a, 6), oq = QArgs::at(a, 11);
  const auto bias = a.optional_tensor(10);
  const auto stride = a.ints(15, {{1, 1}}), padding = a.ints(16, {{0, 0}}), dilation = a.ints(17, {{1, 1}});
  const int64_t groups = a.integer(18, 1);
  const auto two = [](std::vector<int64_t> v) { return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : v; };
  const auto s = two(stride), p = two(padding), d = two(dilation);
  if (x.dim() != 4 || w.dim() != 4 || x.size(1) != w.size(1) * groups)
    throw RuntimeError("reference_quantized_conv2d: input " + shape_str(x.shape()) + " and weight " + shape_str(w.shape()));
  const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3), O = w.size(0), Cg = w.size(1), KH = w.size(2),
                KW = w.size(3), Og = O / groups;
  const int64_t OH = (H + 2 * p[0] - d[0] * (KH - 1) - 1) / s[0] + 1, OW = (W + 2 * p[1] - d[1] * (KW - 1) - 1) / s[1] + 1;
  const auto xc = centered(x, xq.zp, xq.qmin, xq.qmax), wc = centered(w, wq.zp, wq.qmin, wq.qmax);
  std::vector<int32_t> out(static_cast<size_t>(N * O * OH * OW));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          uint32_t acc = 0;  // out_dtype(convolution, int32, x − z_x, w − z_w): the padding is 0 after the shift
          for (int64_t c = 0; c < Cg; ++c)
            for (int64_t i = 0; i < KH; ++i)
              for (int64_t j = 0; j < KW; ++j) {
                const int64_t ih = oh * s[0] - p[0] + i * d[0], iw = ow * s[1] - p[1] + j * d[1];
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                acc += static_cast<uint32_t>(xc[((n * C + (o / Og) * Cg + c) * H + ih) * W + iw] * wc[((o * Cg + c) * KH + i) * KW + j]);
              }
          out[((n * O + o) * OH + oh) * OW + ow] =
              requantize_truncating(static_cast<int32_t>(acc), bias ? bias->data<float>()[o] : 0.0f, bias.has_value(), xq, wq, oq);
        }
  return Value(int8_result({N, O, OH, OW}, out));
}

// Element i of a tensor of shape `from` broadcast to `to` (numpy rules): its flat index in `from`.
std::vector<int64_t> broadcast_index(const Shape& from, const Shape& to) {
  std::vector<int64_t> out(static_cast<size_t>(checked_numel(to)));
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t rest = static_cast<int64_t>(i), src = 0, stride = 1;
    for (size_t d = to.size(); d-- > 0;) {
      const int64_t coord = rest % to[d];
      rest /= to[d];
      if (d >= lead) {
        const int64_t size = from[d - lead];
        src += (size == 1 ? 0 : coord) * stride;
        stride *= size;
      }
    }
    out[i] = src;
  }
  return out;
}

// (x_i8, x_scale, x_zp, y_i8, y_scale, y_zp, out_scale, out_zp, quant_min, quant_max), broadcasting as torch.
template <bool Relu> Value quantized_add(const OpArgs& a) {
  const Tensor &x = a.tensor(0), &y = a.tensor(3);
  const Shape shape = ops::broadcast_shapes(x.shape(), y.shape(), "reference_quantized_add");
  const auto xi = broadcast_index(x.shape(), shape), yi = broadcast_index(y.shape(), shape);
  const float xs = f32(a.number(1)), ys = f32(a.number(4)), os = f32(a.number(6));
  const int64_t xz = a.integer(2), yz = a.integer(5), oz = a.integer(7), qmax = a.integer(9);
  const float xm = xs / os, ym = ys / os;
  std::vector<int32_t> out(xi.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const float xd = static_cast<float>(x.data<int8_t>()[xi[i]] - xz), yd = static_cast<float>(y.data<int8_t>()[yi[i]] - yz);
    if constexpr (Relu) {  // _reference_quantized_add_relu: out_dtype(mul, int32, ...) truncates; clamp(z_out, quant_max)
      out[i] = clamp_i(int64_t{to_int32(xd * xm)} + to_int32(yd * ym) + oz, oz, qmax);
    } else {  // _reference_quantized_add: torch.round (half to even); clamp(−128, 127)
      out[i] = clamp_i(int64_t{to_int32(std::nearbyint(xm * xd))} + to_int32(std::nearbyint(ym * yd)) + oz, -128, 127);
    }
  }
  return Value(int8_result(shape, out));
}

// (x_i8, x_scale, x_zp, x_qmin, x_qmax, out_scale, out_zp, out_qmin, out_qmax, kernel_size, stride, padding,
//  dilation, ceil_mode): max pooling of x − z_x, then float(m · (s_x / s_out) + z_out), clamped, int8 by truncation.
Value quantized_max_pool2d(const OpArgs& a) {
  const QArgs xq = QArgs::at(a, 1), oq = QArgs::at(a, 5);
  const auto xc = centered(a.tensor(0), xq.zp, xq.qmin, xq.qmax);
  Tensor xf = Tensor::empty(a.tensor(0).shape());
  std::transform(xc.begin(), xc.end(), xf.data<float>(), [](int32_t v) { return static_cast<float>(v); });
  const Tensor m = ops::max_pool2d(xf, a.ints(9), a.ints(10, std::vector<int64_t>{}), a.ints(11, {{0, 0}}),
                                   a.ints(12, {{1, 1}}), a.boolean(13, false));
  const float multiplier = xq.scale / oq.scale;
  std::vector<int32_t> out;
  for (float v : m.span<float>()) {
    const float f = std::clamp(v * multiplier + static_cast<float>(oq.zp), static_cast<float>(oq.qmin), static_cast<float>(oq.qmax));
    out.push_back(to_int32(f));
  }
  return Value(int8_result(m.shape(), out));
}

// (x_fp32, scale, zero_point, quant_min, quant_max): round(x / scale) (a division here) + zp, clamp, int8.
Value quantize_per_tensor_int8(const OpArgs& a) {
  const QArgs q = QArgs::at(a, 1);
  std::vector<int32_t> out;
  for (float v : a.tensor(0).span<float>()) out.push_back(clamp_i(int64_t{to_int32(std::nearbyint(v / q.scale))} + q.zp, q.qmin, q.qmax));
  return Value(int8_result(a.tensor(0).shape(), out));
}

// (x_i8, scale, zero_point, quant_min, quant_max): (float(clamp(x)) − zp) · scale.
Value dequantize_per_tensor_int8(const OpArgs& a) {
  const QArgs q = QArgs::at(a, 1);
  Tensor out = Tensor::empty(a.tensor(0).shape());
  const auto xc = centered(a.tensor(0), 0, q.qmin, q.qmax);
  std::transform(xc.begin(), xc.end(), out.data<float>(),
                 [&](int32_t v) { return (static_cast<float>(v) - static_cast<float>(q.zp)) * q.scale; });
  return Value(out);
}

// Per channel (x, scales, zero_points, axis, quant_min, quant_max): channel c of `axis` uses scales[c], zps[c].
int64_t channel_of(const Tensor& x, int64_t axis, int64_t i) {
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < x.dim(); ++d) inner *= x.size(d);
  return (i / inner) % x.size(axis);
}

Value quantize_per_channel_int8(const OpArgs& a) {
  const Tensor& x = a.tensor(0);
  const Tensor scales = a.tensor(1).to(DType::Float32), zps = a.tensor(2).to(DType::Int32);
  const int64_t axis = a.integer(3) < 0 ? a.integer(3) + x.dim() : a.integer(3), qmin = a.integer(4), qmax = a.integer(5);
  std::vector<int32_t> out;
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t c = channel_of(x, axis, i);
    out.push_back(clamp_i(int64_t{to_int32(std::nearbyint(x.data<float>()[i] / scales.data<float>()[c]))} + zps.data<int32_t>()[c], qmin, qmax));
  }
  return Value(int8_result(x.shape(), out));
}

Value dequantize_per_channel_int8(const OpArgs& a) {
  const Tensor& x = a.tensor(0);
  const Tensor scales = a.tensor(1).to(DType::Float32), zps = a.tensor(2).to(DType::Int32);
  const int64_t axis = a.integer(3) < 0 ? a.integer(3) + x.dim() : a.integer(3), qmin = a.integer(4), qmax = a.integer(5);
  Tensor out = Tensor::empty(x.shape());
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t c = channel_of(x, axis, i);
    out.data<float>()[i] = static_cast<float>(clamp_i(x.data<int8_t>()[i], qmin, qmax) - zps.data<int32_t>()[c]) * scales.data<float>()[c];
  }
  return Value(out);
}

[[maybe_unused]] const bool registered = [] {
  register_op(target::reference_quantized_linear, quantized_linear);
  register_op(target::reference_quantized_conv2d, quantized_conv2d);
  register_op(target::reference_quantized_add, quantized_add<false>);
  register_op(target::reference_quantized_add_relu, quantized_add<true>);
  register_op(target::reference_quantized_max_pool2d, quantized_max_pool2d);
  register_op(target::reference_quantize_per_tensor_int8, quantize_per_tensor_int8);
  register_op(target::reference_dequantize_per_tensor_int8, dequantize_per_tensor_int8);
  register_op(target::reference_quantize_per_channel_int8, quantize_per_channel_int8);
  register_op(target::reference_dequantize_per_channel_int8, dequantize_per_channel_int8);
  return true;
}();

// ---- the patterns ------------------------------------------------------------------------------------

// An int8 per-tensor q / dq and its literal arguments (scale, zero_point, quant_min, quant_max).
std::optional<std::vector<Arg>> int8_qparams(const Node* n, NodeKind kind) {
  const auto q = n && node_kind(*n) == kind ? per_tensor_qparams(*n) : std::nullopt;
  if (!q || q->dtype != DType::Int8) return std::nullopt;
  return std::vector<Arg>{q->scale, q->zero_point, q->quant_min, q->quant_max};
}

void append(std::vector<Arg>& to, const std::vector<Arg>& more) { to.insert(to.end(), more.begin(), more.end()); }

// The node that takes `q`'s place; `op` and the nodes between them go when nothing else reads them.
void replace(GraphModule& gm, Node* q, const char* target, std::vector<Arg> args) {
  Node* r = gm.graph.insert_before(q, OpKind::call_function, target, std::move(args), "");
  r->meta.val = q->meta.val;
  r->meta.custom = q->meta.custom;
  gm.graph.replace_all_uses_with(q, r);
  gm.graph.erase_node(q);
  gm.graph.eliminate_dead_code();
}

// The op under quantize `q` through single users, and its dq inputs.
bool rewrite_pattern(GraphModule& gm, Node* q) {
  const auto out = int8_qparams(q, NodeKind::quantize);
  Node* op = arg_node(q, 0);
  if (!out || !op || !only_user(op, q)) return false;
  Node* relu = nullptr;
  if (is_call(op, group::relu)) relu = op, op = arg_node(op, 0);
  if (relu && (!op || !only_user(op, relu))) return false;
  const auto input = [&](size_t i, std::vector<Arg>& args) {
    Node* dq = arg_node(op, i);
    const auto qp = int8_qparams(dq, NodeKind::dequantize);
    if (!qp) return false;
    args.push_back(arg_node(dq, 0));
    append(args, *qp);
    return true;
  };
  std::vector<Arg> args;
  if (!relu && (is_call(op, target::linear) || is_call(op, target::conv2d))) {
    if (!input(0, args) || !input(1, args)) return false;
    args.push_back(arg_node(op, 2));
    append(args, *out);
    if (is_call(op, target::conv2d))
      for (size_t i = 3; i < 7; ++i) args.push_back(i < op->args().size() ? op->args()[i] : Arg());
    replace(gm, q, is_call(op, target::linear) ? target::reference_quantized_linear : target::reference_quantized_conv2d, args);
    return true;
  }
  if (is_call(op, target::add) && op->args().size() == 2) {
    std::vector<Arg> x, y;
    if (!input(0, x) || !input(1, y)) return false;
    // torchao's add patterns share one quant_min / quant_max across x, y and the output.
    if (x[3].str() != (*out)[2].str() || x[4].str() != (*out)[3].str() || y[3].str() != x[3].str() || y[4].str() != x[4].str()) return false;
    args = {x[0], x[1], x[2], y[0], y[1], y[2], (*out)[0], (*out)[1], (*out)[2], (*out)[3]};
    replace(gm, q, relu ? target::reference_quantized_add_relu : target::reference_quantized_add, args);
    return true;
  }
  if (!relu && is_call(op, target::max_pool2d)) {
    if (!input(0, args)) return false;
    append(args, *out);
    for (size_t i = 1; i < 6; ++i) args.push_back(i < op->args().size() ? op->args()[i] : Arg());
    replace(gm, q, target::reference_quantized_max_pool2d, args);
    return true;
  }
  return false;
}

}  // namespace

int reference_representation_rewrite(GraphModule& gm) {
  int rewritten = 0;
  for (Node* n : gm.graph.nodes())
    if (gm.graph.contains(n) && rewrite_pattern(gm, n)) ++rewritten;
  // What is left of the int8 q / dq: torchao's per-tensor and per-channel q / dq rewrites.
  for (Node* n : gm.graph.nodes()) {
    if (!gm.graph.contains(n)) continue;
    const auto a = qdq_args(*n);
    if (!a || a->dtype != DType::Int8 || is_call(n, target::quantize_per_tensor_tensor) ||
        is_call(n, target::dequantize_per_tensor_tensor))
      continue;
    const bool quantize = node_kind(*n) == NodeKind::quantize;
    std::vector<Arg> args = {a->input, a->scale, a->zero_point};
    if (a->axis) args.push_back(*a->axis);
    append(args, {a->quant_min, a->quant_max});
    const char* t = a->axis ? (quantize ? target::reference_quantize_per_channel_int8 : target::reference_dequantize_per_channel_int8)
                            : (quantize ? target::reference_quantize_per_tensor_int8 : target::reference_dequantize_per_tensor_int8);
    replace(gm, n, t, args);
    ++rewritten;
  }
  gm.graph.lint();
  return rewritten;
}

}  // namespace pt
