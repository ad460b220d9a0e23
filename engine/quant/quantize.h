// quantize.h — the quantize / dequantize ops convert_pt2e emits, dynamic choose_qparams, fake
// quantization for training, and SQNR (docs/algorithms.md, quantize and dequantize, Fake quantization).
//
// Names and arguments follow torch.ops.quantized_decomposed.* and torch.fake_quantize_*:
//
//   pt::Tensor q = pt::quantize_per_tensor(x, scale, zp, -128, 127, pt::DType::Int8);    // int8
//   pt::Tensor y = pt::dequantize_per_tensor(q, scale, zp, -128, 127, pt::DType::Int8);  // float32
//   pt::Tensor qc = pt::quantize_per_channel(w, scales, zps, /*axis=*/0, -127, 127, pt::DType::Int8);
//   pt::QParams qp = pt::choose_qparams(x, -128, 127, 0x1p-12f, pt::DType::Int8);         // dynamic
//   pt::FakeQuantOutput f = pt::fake_quantize_per_tensor_affine_cachemask(x, 0.02f, 3, -128, 127);
//   float db = pt::sqnr(x, y);                                                            // 20·log10(‖x‖/‖x−y‖)
//
// Arithmetic is PyTorch's float32: quantize multiplies by f32(1/scale) and rounds half to even.
// NaN input: quantize_* throw ValueError (PyTorch's cast of NaN to an integer is undefined);
// fake_quantize_* map NaN to quant_min with mask 0, as the CPU kernel does.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "core/tensor.h"
#include "quant/qparams.h"

namespace pt {

// Where channel c of an axis sits in a contiguous tensor: element i belongs to channel (i / inner) % channels.
struct ChannelLayout {
  int64_t channels;
  int64_t inner;
};
// axis may be negative (counts from the end); IndexError if it is outside the tensor's dims.
ChannelLayout channel_layout(const Shape& shape, int64_t axis, const char* what);

// torch.aminmax over a float32 span: NaN anywhere makes both NaN. The span must not be empty.
struct MinMax {
  float min;
  float max;
};
MinMax aminmax(std::span<const float> values);
// Per channel along axis (IndexError for a bad axis): min and max as float32 [C].
struct ChannelMinMax {
  Tensor min;
  Tensor max;
};
ChannelMinMax aminmax_per_channel(const Tensor& x, int64_t axis);

// x: float32. Checks quant_min / quant_max against dtype's bounds (ValueError). Returns a dtype tensor.
Tensor quantize_per_tensor(const Tensor& x, double scale, int64_t zero_point, int64_t quant_min, int64_t quant_max,
                           DType dtype);
// q must have dtype `dtype` (TypeError). Returns (f32(q) - zero_point) * f32(scale) as float32.
Tensor dequantize_per_tensor(const Tensor& q, double scale, int64_t zero_point, int64_t quant_min,
                             int64_t quant_max, DType dtype);
// scales: float32 [C], zero_points: int32 [C] with C = x.size(axis).
Tensor quantize_per_channel(const Tensor& x, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                            int64_t quant_min, int64_t quant_max, DType dtype);
// zero_points may be omitted (None in PyTorch: all zero).
Tensor dequantize_per_channel(const Tensor& q, const Tensor& scales, const std::optional<Tensor>& zero_points,
                              int64_t axis, int64_t quant_min, int64_t quant_max, DType dtype);

// quantized_decomposed.choose_qparams.tensor: aminmax(x) then calculate_qparams per_tensor_affine with
// has_customized_qrange = false. Returns scale float32 [1], zero_point int32 [1].
QParams choose_qparams(const Tensor& x, int64_t quant_min, int64_t quant_max, float eps, DType dtype);
// quantized_decomposed.choose_qparams_symmetric.tensor: the same with per_tensor_symmetric.
QParams choose_qparams_symmetric(const Tensor& x, int64_t quant_min, int64_t quant_max, float eps, DType dtype);

struct FakeQuantOutput {
  Tensor output;  // float32, the input's shape
  Tensor mask;    // uint8, 1 where quant_min <= round(x/scale)+zp <= quant_max (the STE passes the gradient)
};
// torch.fake_quantize_per_tensor_affine: (clamp(zp + rne(x·f32(1/scale)), qmin, qmax) - zp)·scale.
// RuntimeError unless quant_min <= quant_max and quant_min <= zero_point <= quant_max.
FakeQuantOutput fake_quantize_per_tensor_affine_cachemask(const Tensor& x, float scale, int64_t zero_point,
                                                          int64_t quant_min, int64_t quant_max);
Tensor fake_quantize_per_tensor_affine(const Tensor& x, float scale, int64_t zero_point, int64_t quant_min,
                                       int64_t quant_max);
// scale float32 [C], zero_point int32 [C], C = x.size(axis); 0 <= axis < x.dim() as torch requires. A
// float32 zero_point (per_channel_affine_float_qparams) is added before rounding:
// (clamp(rne(zp + x·f32(1/scale)), qmin, qmax) − zp)·scale, as ATen's float zero-point kernel.
FakeQuantOutput fake_quantize_per_channel_affine_cachemask(const Tensor& x, const Tensor& scale,
                                                           const Tensor& zero_point, int64_t axis,
                                                           int64_t quant_min, int64_t quant_max);
Tensor fake_quantize_per_channel_affine(const Tensor& x, const Tensor& scale, const Tensor& zero_point,
                                        int64_t axis, int64_t quant_min, int64_t quant_max);
// The STE backward: grad * mask (grad where mask is 1, else 0 with grad's sign), as ATen's.
Tensor fake_quantize_backward(const Tensor& grad, const Tensor& mask);

// torchao's compute_error: 20·log10(‖x‖ / ‖x − y‖) in dB (norms accumulated in double).
// +inf when x == y. x and y: float32 of the same shape (ValueError otherwise).
float sqnr(const Tensor& x, const Tensor& y);

}  // namespace pt
