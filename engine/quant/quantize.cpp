// quantize.cpp — quantize / dequantize, choose_qparams, fake quantization and SQNR (see quantize.h;
// docs/algorithms.md, quantize and dequantize, Fake quantization).
#include "quant/quantize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/hot.h"
#include "kernels/kernels.h"
#include "ops/backward.h"

namespace pt {

namespace {

void check_float_input(const Tensor& x, const char* op) {
  if (x.dtype() != DType::Float32)
    throw TypeError(std::string(op) + ": expecting input to have dtype float32, but got dtype " +
                    dtype_name(x.dtype()));
}

// quantized_decomposed's bound check: the range must fit the target dtype.
void check_qrange_in_dtype(int64_t quant_min, int64_t quant_max, DType dtype, const char* op) {
  if (dtype == DType::Float32)
    throw ValueError(std::string(op) + ": unsupported dtype float32, expected int8, uint8, int16 or int32");
  const QRange b = dtype_bounds(dtype);
  if (quant_min < b.quant_min)
    throw ValueError(std::string(op) + ": quant_min out of bound for dtype " + dtype_name(dtype) +
                     ", quant_min_lower_bound: " + std::to_string(b.quant_min) +
                     " quant_min: " + std::to_string(quant_min));
  if (quant_max > b.quant_max)
    throw ValueError(std::string(op) + ": quant_max out of bound for dtype " + dtype_name(dtype) +
                     ", quant_max_upper_bound: " + std::to_string(b.quant_max) +
                     " quant_max: " + std::to_string(quant_max));
}

void check_no_nan(const Tensor& x, const char* op) {
  for (float v : x.span<float>())
    if (std::isnan(v)) throw ValueError(std::string(op) + ": input contains NaN, which has no quantized value");
}

// clamp(rne(v·inv) + f32(zp), qmin, qmax) in float32, the value a quantize op stores.
// A NaN there (a NaN or zero scale: torch raises nothing) is stored as 0, what the wasm build's saturating
// conversion and torch's .to(int8 / uint8) on x86 both give; converting NaN to an integer is undefined in C++.
int64_t quantize_value(float v, float inv_scale, float zp, int64_t quant_min, int64_t quant_max) {
  const float t = std::nearbyint(v * inv_scale) + zp;
  if (std::isnan(t)) return 0;
  const double clamped = std::clamp(static_cast<double>(t), static_cast<double>(quant_min), static_cast<double>(quant_max));
  return static_cast<int64_t>(clamped);
}

template <class T> void store_all(Tensor& out, const std::vector<int64_t>& values) {
  T* p = out.data<T>();
  for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<T>(values[i]);
}

Tensor make_quantized(const Shape& shape, DType dtype, const std::vector<int64_t>& values) {
  Tensor out = Tensor::empty(shape, dtype);
  switch (dtype) {
    case DType::Int8: store_all<int8_t>(out, values); break;
    case DType::UInt8: store_all<uint8_t>(out, values); break;
    case DType::Int16: store_all<int16_t>(out, values); break;
    case DType::Int32: store_all<int32_t>(out, values); break;
    case DType::Float32: throw ValueError("quantize: dtype float32 is not a quantized dtype");
  }
  return out;
}

// Integer values of a quantized tensor, widened.
std::vector<int64_t> integer_values(const Tensor& q) {
  std::vector<int64_t> v(static_cast<size_t>(q.numel()));
  auto widen = [&](const auto* p) { std::copy(p, p + q.numel(), v.begin()); };
  switch (q.dtype()) {
    case DType::Int8: widen(q.data<int8_t>()); break;
    case DType::UInt8: widen(q.data<uint8_t>()); break;
    case DType::Int16: widen(q.data<int16_t>()); break;
    case DType::Int32: widen(q.data<int32_t>()); break;
    case DType::Float32: throw TypeError("dequantize: input must be a quantized integer tensor, got float32");
  }
  return v;
}

// float_zero_points: the fake-quant ops also take float32 zero points (per_channel_affine_float_qparams).
void check_channel_params(const Tensor& scales, const Tensor* zero_points, int64_t channels, const char* op,
                          bool float_zero_points = false) {
  if (scales.dtype() != DType::Float32 || scales.dim() != 1)
    throw TypeError(std::string(op) + ": scales must be a 1-D float32 tensor, got " + dtype_name(scales.dtype()) +
                    " " + shape_str(scales.shape()));
  if (scales.numel() != channels)
    throw ValueError(std::string(op) + ": scales has " + std::to_string(scales.numel()) +
                     " elements but the axis has " + std::to_string(channels) + " channels");
  if (!zero_points) return;
  const bool dtype_ok =
      zero_points->dtype() == DType::Int32 || (float_zero_points && zero_points->dtype() == DType::Float32);
  if (!dtype_ok || zero_points->dim() != 1)
    throw TypeError(std::string(op) + ": zero_points must be a 1-D int32" + (float_zero_points ? " or float32" : "") +
                    " tensor, got " + dtype_name(zero_points->dtype()) + " " + shape_str(zero_points->shape()));
  if (zero_points->numel() != channels)
    throw ValueError(std::string(op) + ": zero_points has " + std::to_string(zero_points->numel()) +
                     " elements but the axis has " + std::to_string(channels) + " channels");
}

void check_fake_quant_args(int64_t quant_min, int64_t quant_max) {
  if (quant_min > quant_max)
    throw RuntimeError("`quant_min` should be less than or equal to `quant_max`, got quant_min=" +
                       std::to_string(quant_min) + ", quant_max=" + std::to_string(quant_max));
}

void check_zero_point_in_range(int64_t zp, int64_t quant_min, int64_t quant_max) {
  if (zp < quant_min || zp > quant_max)
    throw RuntimeError("`zero_point` must be between `quant_min` and `quant_max`, got zero_point=" +
                       std::to_string(zp) + " for range " + std::to_string(quant_min) + ".." +
                       std::to_string(quant_max));
}

// The CPU kernel with a float zero point (ATen fake_quant_per_channel_cachemask_cpu, float zero_point
// branch): the zero point is added before rounding, qf = rne(zp + x·inv) in float32; y = (clamp(qf) − zp)·scale.
void fake_quant_value_float_zp(float v, float scale, float inv_scale, float zp, int64_t quant_min, int64_t quant_max,
                               float& out, uint8_t& mask) {
  const float shifted = zp + v * inv_scale;
  const double qf = static_cast<double>(std::nearbyint(shifted));
  const double q = std::fmin(std::fmax(qf, static_cast<double>(quant_min)), static_cast<double>(quant_max));
  out = static_cast<float>((q - zp) * scale);
  mask = (quant_min <= qf && qf <= quant_max) ? 1 : 0;
}

QParams choose_qparams_with(const Tensor& x, int64_t quant_min, int64_t quant_max, float eps, DType dtype,
                            QScheme qscheme, const char* op) {
  check_float_input(x, op);
  if (dtype == DType::Float32) throw ValueError(std::string(op) + ": unsupported dtype float32");
  validate_qmin_qmax(quant_min, quant_max);
  if (x.numel() == 0)
    throw RuntimeError(std::string(op) + ": aminmax(): cannot compute aminmax over an empty tensor");
  const MinMax mm = aminmax(x.span<float>());
  return calculate_qparams(Tensor::scalar(mm.min), Tensor::scalar(mm.max), quant_min, quant_max, qscheme, dtype, eps,
                           /*has_customized_qrange=*/false);
}

}  // namespace

ChannelLayout channel_layout(const Shape& shape, int64_t axis, const char* what) {
  const int64_t n = static_cast<int64_t>(shape.size());
  if (axis < -n || axis >= n)
    throw IndexError(std::string(what) + ": axis " + std::to_string(axis) + " is out of range for a tensor of " +
                     std::to_string(n) + " dims (expected " + std::to_string(-n) + ".." + std::to_string(n - 1) + ")");
  const size_t a = static_cast<size_t>(axis < 0 ? axis + n : axis);
  int64_t inner = 1;
  for (size_t d = a + 1; d < shape.size(); ++d) inner *= shape[d];
  return {shape[a], inner};
}

// One scan through kernels::f32_aminmax, then, only where it matters, the element a plain scan keeping the
// first of equal values would return: the first NaN (both ends), or the first zero for a zero end (the
// kernel reports +0; a scan keeps the sign of the first zero it met).
MinMax aminmax(std::span<const float> values) {
  const kernels::AMinMax r = kernels::f32_aminmax(values.data(), values.size());
  const auto first = [&](auto pred) { return *std::find_if(values.begin(), values.end(), pred); };
  if (r.nan) {
    const float nan = first([](float v) { return std::isnan(v); });
    return {nan, nan};
  }
  return {r.min == 0.0f ? first([](float v) { return v == 0.0f; }) : r.min,
          r.max == 0.0f ? first([](float v) { return v == 0.0f; }) : r.max};
}

ChannelMinMax aminmax_per_channel(const Tensor& x, int64_t axis) {
  const ChannelLayout lay = channel_layout(x.shape(), axis, "aminmax_per_channel");
  ChannelMinMax r{Tensor::full({lay.channels}, std::numeric_limits<float>::infinity()),
                  Tensor::full({lay.channels}, -std::numeric_limits<float>::infinity())};
  float* mn = r.min.data<float>();
  float* mx = r.max.data<float>();
  const float* p = x.data<float>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t c = (i / lay.inner) % lay.channels;
    const float v = p[i];
    if (std::isnan(v) || std::isnan(mn[c])) {
      mn[c] = mx[c] = std::numeric_limits<float>::quiet_NaN();
      continue;
    }
    mn[c] = std::min(mn[c], v);
    mx[c] = std::max(mx[c], v);
  }
  return r;
}

Tensor quantize_per_tensor(const Tensor& x, double scale, int64_t zero_point, int64_t quant_min, int64_t quant_max,
                           DType dtype) {
  check_float_input(x, "quantize_per_tensor");
  check_qrange_in_dtype(quant_min, quant_max, dtype, "quantize_per_tensor");
  check_no_nan(x, "quantize_per_tensor");
  const float inv = static_cast<float>(1.0 / scale);
  const float zp = static_cast<float>(zero_point);
  std::vector<int64_t> q(static_cast<size_t>(x.numel()));
  const float* p = x.data<float>();
  for (size_t i = 0; i < q.size(); ++i) q[i] = quantize_value(p[i], inv, zp, quant_min, quant_max);
  return make_quantized(x.shape(), dtype, q);
}

Tensor dequantize_per_tensor(const Tensor& q, double scale, int64_t zero_point, int64_t quant_min,
                             int64_t quant_max, DType dtype) {
  if (q.dtype() != dtype)
    throw TypeError(std::string("dequantize_per_tensor: expecting input to have dtype ") + dtype_name(dtype) +
                    ", but got dtype " + dtype_name(q.dtype()));
  const std::vector<int64_t> v = integer_values(q);
  const float s = static_cast<float>(scale);
  const float zp = static_cast<float>(zero_point);
  Tensor out = Tensor::empty(q.shape());
  float* o = out.data<float>();
  for (size_t i = 0; i < v.size(); ++i) o[i] = (static_cast<float>(v[i]) - zp) * s;
  return out;
}

Tensor quantize_per_channel(const Tensor& x, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                            int64_t quant_min, int64_t quant_max, DType dtype) {
  check_float_input(x, "quantize_per_channel");
  const ChannelLayout lay = channel_layout(x.shape(), axis, "quantize_per_channel");
  check_channel_params(scales, &zero_points, lay.channels, "quantize_per_channel");
  check_qrange_in_dtype(quant_min, quant_max, dtype, "quantize_per_channel");
  check_no_nan(x, "quantize_per_channel");
  const float* s = scales.data<float>();
  const int32_t* zp = zero_points.data<int32_t>();
  std::vector<int64_t> q(static_cast<size_t>(x.numel()));
  const float* p = x.data<float>();
  for (size_t i = 0; i < q.size(); ++i) {
    const int64_t c = (static_cast<int64_t>(i) / lay.inner) % lay.channels;
    q[i] = quantize_value(p[i], 1.0f / s[c], static_cast<float>(zp[c]), quant_min, quant_max);
  }
  return make_quantized(x.shape(), dtype, q);
}

Tensor dequantize_per_channel(const Tensor& q, const Tensor& scales, const std::optional<Tensor>& zero_points,
                              int64_t axis, int64_t quant_min, int64_t quant_max, DType dtype) {
  if (q.dtype() != dtype)
    throw TypeError(std::string("dequantize_per_channel: expecting input to have dtype ") + dtype_name(dtype) +
                    ", but got dtype " + dtype_name(q.dtype()));
  const ChannelLayout lay = channel_layout(q.shape(), axis, "dequantize_per_channel");
  check_channel_params(scales, zero_points ? &*zero_points : nullptr, lay.channels, "dequantize_per_channel");
  const std::vector<int64_t> v = integer_values(q);
  const float* s = scales.data<float>();
  const int32_t* zp = zero_points ? zero_points->data<int32_t>() : nullptr;
  Tensor out = Tensor::empty(q.shape());
  float* o = out.data<float>();
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t c = (static_cast<int64_t>(i) / lay.inner) % lay.channels;
    o[i] = static_cast<float>(v[i] - (zp ? zp[c] : 0)) * s[c];
  }
  return out;
}

QParams choose_qparams(const Tensor& x, int64_t quant_min, int64_t quant_max, float eps, DType dtype) {
  return choose_qparams_with(x, quant_min, quant_max, eps, dtype, QScheme::per_tensor_affine, "choose_qparams");
}

QParams choose_qparams_symmetric(const Tensor& x, int64_t quant_min, int64_t quant_max, float eps, DType dtype) {
  return choose_qparams_with(x, quant_min, quant_max, eps, dtype, QScheme::per_tensor_symmetric,
                             "choose_qparams_symmetric");
}

FakeQuantOutput fake_quantize_per_tensor_affine_cachemask(const Tensor& x, float scale, int64_t zero_point,
                                                          int64_t quant_min, int64_t quant_max) {
  check_float_input(x, "fake_quantize_per_tensor_affine");
  check_fake_quant_args(quant_min, quant_max);
  check_zero_point_in_range(zero_point, quant_min, quant_max);
  FakeQuantOutput r{Tensor::uninitialized(x.shape()), Tensor::uninitialized(x.shape(), DType::UInt8)};
  const float inv = 1.0f / scale;
  const float* p = x.data<float>();
  float* o = r.output.data<float>();
  uint8_t* m = r.mask.data<uint8_t>();
  kernels::f32_fake_quant(p, static_cast<size_t>(x.numel()), {scale, inv, zero_point, quant_min, quant_max}, o, m);
  return r;
}

Tensor fake_quantize_per_tensor_affine(const Tensor& x, float scale, int64_t zero_point, int64_t quant_min,
                                       int64_t quant_max) {
  return fake_quantize_per_tensor_affine_cachemask(x, scale, zero_point, quant_min, quant_max).output;
}

FakeQuantOutput fake_quantize_per_channel_affine_cachemask(const Tensor& x, const Tensor& scale,
                                                           const Tensor& zero_point, int64_t axis,
                                                           int64_t quant_min, int64_t quant_max) {
  check_float_input(x, "fake_quantize_per_channel_affine");
  check_fake_quant_args(quant_min, quant_max);
  if (axis < 0 || axis >= x.dim())
    throw RuntimeError("`axis` must be between 0 and number of dimensions of input, got axis=" +
                       std::to_string(axis) + " for " + std::to_string(x.dim()) + " dims");
  const ChannelLayout lay = channel_layout(x.shape(), axis, "fake_quantize_per_channel_affine");
  check_channel_params(scale, &zero_point, lay.channels, "fake_quantize_per_channel_affine", /*float_zero_points=*/true);
  const float* s = scale.data<float>();
  const bool float_zp = zero_point.dtype() == DType::Float32;  // not range-checked (torch 1.13 takes any)
  if (!float_zp)
    for (int64_t c = 0; c < lay.channels; ++c)
      check_zero_point_in_range(zero_point.data<int32_t>()[c], quant_min, quant_max);
  FakeQuantOutput r{Tensor::uninitialized(x.shape()), Tensor::uninitialized(x.shape(), DType::UInt8)};
  const float* p = x.data<float>();
  float* o = r.output.data<float>();
  uint8_t* m = r.mask.data<uint8_t>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t c = (i / lay.inner) % lay.channels;
    if (float_zp)
      fake_quant_value_float_zp(p[i], s[c], 1.0f / s[c], zero_point.data<float>()[c], quant_min, quant_max, o[i], m[i]);
    else
      kernels::FakeQuant{s[c], 1.0f / s[c], zero_point.data<int32_t>()[c], quant_min, quant_max}.apply(p[i], o[i], m[i]);
  }
  return r;
}

Tensor fake_quantize_per_channel_affine(const Tensor& x, const Tensor& scale, const Tensor& zero_point,
                                        int64_t axis, int64_t quant_min, int64_t quant_max) {
  return fake_quantize_per_channel_affine_cachemask(x, scale, zero_point, axis, quant_min, quant_max).output;
}

namespace {
PT_HOT_LOOP void times_mask(const float* __restrict g, const uint8_t* __restrict m, int64_t n, float* __restrict o) {
  for (int64_t i = 0; i < n; ++i) o[i] = g[i] * ops::mask_float(m[i]);
}
}  // namespace

Tensor fake_quantize_backward(const Tensor& grad, const Tensor& mask) {
  if (grad.shape() != mask.shape())
    throw ValueError("fake_quantize_backward: grad " + shape_str(grad.shape()) + " and mask " +
                     shape_str(mask.shape()) + " must have the same shape");
  Tensor out = Tensor::uninitialized(grad.shape());
  // ATen's dY * mask: a blocked negative gradient is -0, as torch's.
  times_mask(grad.data<float>(), mask.data<uint8_t>(), grad.numel(), out.data<float>());
  return out;
}

float sqnr(const Tensor& x, const Tensor& y) {
  check_float_input(x, "sqnr");
  check_float_input(y, "sqnr");
  if (x.shape() != y.shape())
    throw ValueError("sqnr: x " + shape_str(x.shape()) + " and y " + shape_str(y.shape()) +
                     " must have the same shape");
  const float* a = x.data<float>();
  const float* b = y.data<float>();
  double ps = 0.0, pn = 0.0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    ps += static_cast<double>(a[i]) * a[i];
    const double d = static_cast<double>(a[i] - b[i]);  // x − y is a float32 tensor in torchao
    pn += d * d;
  }
  return static_cast<float>(20.0 * std::log10(std::sqrt(ps) / std::sqrt(pn)));
}

}  // namespace pt
