// qparams.h — quantization parameters: qschemes, the (quant_min, quant_max) range and the
// scale / zero_point formula every observer shares (docs/algorithms.md).
//
// These are torchao's free functions, restated in float32 exactly as PyTorch computes them:
//
//   pt::QRange r = pt::calculate_qmin_qmax(std::nullopt, std::nullopt, pt::DType::Int8, false);  // -128..127
//   pt::QParams qp = pt::calculate_qparams(min_val, max_val, r.quant_min, r.quant_max,
//                                          pt::QScheme::per_tensor_affine, pt::DType::Int8,
//                                          0x1p-12f, /*has_customized_qrange=*/false);
//   qp.scale      // float32 [C]  (C = 1 per tensor)
//   qp.zero_point // int32 [C]    (float32 [C] for per_channel_affine_float_qparams)
//
// min_val / max_val are float32 tensors, 0-dim (per tensor) or 1-D (per channel). An uninitialized
// pair (0-dim +inf/-inf, or empty) gives scale [1.0], zero_point [0] as PyTorch does.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/tensor.h"

namespace pt {

enum class QScheme {
  per_tensor_affine,
  per_tensor_symmetric,
  per_channel_affine,
  per_channel_symmetric,
  per_channel_affine_float_qparams,
};

const char* qscheme_name(QScheme q);                  // "per_tensor_affine", ...
QScheme qscheme_from_name(const std::string& name);   // also accepts "torch.per_tensor_affine"; ValueError otherwise
bool is_per_tensor(QScheme q);
bool is_per_channel(QScheme q);
bool is_symmetric(QScheme q);                         // per_tensor_symmetric or per_channel_symmetric

struct QParams {
  Tensor scale;       // float32 [C]
  Tensor zero_point;  // int32 [C]; float32 [C] for per_channel_affine_float_qparams
};

struct QRange {
  int64_t quant_min;
  int64_t quant_max;
  bool operator==(const QRange&) const = default;
};

// The float32 machine epsilon torch uses as the default observer eps (finfo(float32).eps).
inline constexpr float kFloat32Eps = 1.1920928955078125e-07f;

// Smallest and largest value a dtype holds (int8 -128..127, uint8 0..255, ...); TypeError for float32.
QRange dtype_bounds(DType dtype);

// Checks a user-given range: quant_min <= 0 <= quant_max and quant_min < quant_max (ValueError).
void validate_qmin_qmax(int64_t quant_min, int64_t quant_max);

// The effective range. Both bounds given = customized range (validated, and for int8 / int32
// also checked to fit the dtype's width); otherwise the dtype default. reduce_range halves with
// floor division (-127 -> -64, 127 -> 63).
QRange calculate_qmin_qmax(std::optional<int64_t> quant_min, std::optional<int64_t> quant_max, DType dtype,
                           bool reduce_range);

// calculate_qparams: scale / zero_point from running min / max (float32, 0-dim or 1-D of equal shape).
// Throws ValueError if min_val > max_val anywhere (PyTorch asserts), or if the shapes differ.
QParams calculate_qparams(const Tensor& min_val, const Tensor& max_val, int64_t quant_min, int64_t quant_max,
                          QScheme qscheme, DType dtype, float eps, bool has_customized_qrange);

}  // namespace pt
