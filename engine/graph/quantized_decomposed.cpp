// quantized_decomposed.cpp — the quantized_decomposed ops' argument layout, its accessor and the ops'
// reference implementations (see quantized_decomposed.h).
#include "graph/quantized_decomposed.h"

#include <cmath>

#include "graph/targets.h"
#include "quant/quantize.h"

namespace pt {

namespace {

// Where each argument sits: input, scale and zero point lead; the per-channel ops put the axis next.
struct Layout {
  size_t input = 0, scale = 1, zero_point = 2;
  std::optional<size_t> axis;
  size_t quant_min, quant_max, dtype;
};
constexpr Layout kPerTensor{0, 1, 2, std::nullopt, 3, 4, 5};
constexpr Layout kPerChannel{0, 1, 2, 3, 4, 5, 6};
// choose_qparams[_symmetric].tensor(input, quant_min, quant_max, eps, dtype)
struct ChooseLayout {
  size_t input = 0, quant_min = 1, quant_max = 2, eps = 3, dtype = 4;
};
constexpr ChooseLayout kChoose{};

bool per_channel(const Node& n) {
  return is_call(&n, target::quantize_per_channel) || is_call(&n, target::dequantize_per_channel);
}

template <class T> const T* literal(const std::vector<Arg>& args, size_t i) {
  return i < args.size() ? std::get_if<T>(&args[i].v) : nullptr;
}

// A scalar tensor's value as an int (a .tensor overload's zero point is computed at run time); a float one must
// hold a whole number that int64 can represent.
int64_t tensor_int(const Tensor& t) {
  if (t.dtype() == DType::Int32) return t.data<int32_t>()[0];
  const double v = t.item();
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0) || v != std::trunc(v))
    throw ValueError("zero_point: expected an integer, got " + std::to_string(v));
  return static_cast<int64_t>(v);
}

OpFn quantize_fn(bool dequantize, bool tensor_qparams) {
  const Layout& l = kPerTensor;
  return [=](const OpArgs& a) {
    const double scale = tensor_qparams ? a.tensor(l.scale).item() : a.number(l.scale);
    const int64_t zp = tensor_qparams ? tensor_int(a.tensor(l.zero_point)) : a.integer(l.zero_point);
    const auto f = dequantize ? dequantize_per_tensor : quantize_per_tensor;
    return Value(f(a.tensor(l.input), scale, zp, a.integer(l.quant_min), a.integer(l.quant_max),
                   dtype_from_code(a.integer(l.dtype))));
  };
}

OpFn per_channel_fn(bool dequantize) {
  const Layout& l = kPerChannel;
  return [=](const OpArgs& a) {
    const int64_t axis = a.integer(*l.axis), qmin = a.integer(l.quant_min), qmax = a.integer(l.quant_max);
    const DType dtype = dtype_from_code(a.integer(l.dtype));
    if (dequantize)
      return Value(dequantize_per_channel(a.tensor(l.input), a.tensor(l.scale), a.optional_tensor(l.zero_point), axis,
                                          qmin, qmax, dtype));
    return Value(quantize_per_channel(a.tensor(l.input), a.tensor(l.scale), a.tensor(l.zero_point), axis, qmin, qmax,
                                      dtype));
  };
}

OpFn choose_fn(bool symmetric) {
  return [symmetric](const OpArgs& a) {
    const auto f = symmetric ? choose_qparams_symmetric : choose_qparams;
    const QParams qp = f(a.tensor(kChoose.input), a.integer(kChoose.quant_min), a.integer(kChoose.quant_max),
                         static_cast<float>(a.number(kChoose.eps)), dtype_from_code(a.integer(kChoose.dtype)));
    return Value(std::vector<Tensor>{qp.scale, qp.zero_point});
  };
}

}  // namespace

std::vector<Arg> qdq_arg_list(const QDQArgs& a) {
  const Layout& l = a.axis ? kPerChannel : kPerTensor;
  std::vector<Arg> args(l.dtype + 1);
  args[l.input] = Arg(a.input);
  args[l.scale] = a.scale;
  args[l.zero_point] = a.zero_point;
  if (a.axis) args[*l.axis] = Arg(*a.axis);
  args[l.quant_min] = Arg(a.quant_min);
  args[l.quant_max] = Arg(a.quant_max);
  args[l.dtype] = Arg(dtype_code(a.dtype));
  return args;
}

std::optional<QDQArgs> qdq_args(const Node& n) {
  const NodeKind kind = node_kind(n);
  if (kind != NodeKind::quantize && kind != NodeKind::dequantize) return std::nullopt;
  const Layout& l = per_channel(n) ? kPerChannel : kPerTensor;
  const auto& args = n.args();
  const auto* qmin = literal<int64_t>(args, l.quant_min);
  const auto* qmax = literal<int64_t>(args, l.quant_max);
  const auto* code = literal<int64_t>(args, l.dtype);
  const auto* axis = l.axis ? literal<int64_t>(args, *l.axis) : nullptr;
  if (args.size() != l.dtype + 1 || !qmin || !qmax || !code || (l.axis && !axis)) return std::nullopt;
  if (*code < 0 || *code > dtype_code(DType::Int32)) return std::nullopt;
  QDQArgs a;
  a.input = args[l.input].node();
  a.scale = args[l.scale];
  a.zero_point = args[l.zero_point];
  if (axis) a.axis = *axis;
  a.quant_min = *qmin;
  a.quant_max = *qmax;
  a.dtype = dtype_from_code(*code);
  return a;
}

std::vector<Arg> choose_qparams_arg_list(const ChooseQParamsArgs& a) {
  std::vector<Arg> args(kChoose.dtype + 1);
  args[kChoose.input] = Arg(a.input);
  args[kChoose.quant_min] = Arg(a.quant_min);
  args[kChoose.quant_max] = Arg(a.quant_max);
  args[kChoose.eps] = Arg(a.eps);
  args[kChoose.dtype] = Arg(dtype_code(a.dtype));
  return args;
}

int64_t dtype_code(DType dtype) { return static_cast<int64_t>(dtype); }

DType dtype_from_code(int64_t code) {
  if (code < 0 || code > dtype_code(DType::Int32)) throw ValueError("unknown dtype code " + std::to_string(code));
  return static_cast<DType>(code);
}

std::vector<std::pair<const char*, OpFn>> quantized_decomposed_ops() {
  return {
      {target::quantize_per_tensor, quantize_fn(false, false)},
      {target::dequantize_per_tensor, quantize_fn(true, false)},
      {target::quantize_per_tensor_tensor, quantize_fn(false, true)},
      {target::dequantize_per_tensor_tensor, quantize_fn(true, true)},
      {target::quantize_per_channel, per_channel_fn(false)},
      {target::dequantize_per_channel, per_channel_fn(true)},
      {target::choose_qparams, choose_fn(false)},
      {target::choose_qparams_symmetric, choose_fn(true)},
  };
}

std::optional<PerTensorQParams> per_tensor_qparams(const Node& n) {
  const auto a = qdq_args(n);
  if (!a || a->axis) return std::nullopt;
  const auto* s = std::get_if<double>(&a->scale.v);
  const auto* z = std::get_if<int64_t>(&a->zero_point.v);
  if (!s || !z) return std::nullopt;
  return PerTensorQParams{*s, *z, a->quant_min, a->quant_max, a->dtype};
}

}  // namespace pt
