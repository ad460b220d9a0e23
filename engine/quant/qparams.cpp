// qparams.cpp — qschemes, quantization ranges and the shared scale / zero_point formula
// (see qparams.h; docs/algorithms.md, calculate_qmin_qmax, calculate_qparams).
#include "quant/qparams.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace pt {

namespace {

std::string num_str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

struct QSchemeName {
  QScheme q;
  const char* name;
};
constexpr QSchemeName kQSchemeNames[] = {
    {QScheme::per_tensor_affine, "per_tensor_affine"},
    {QScheme::per_tensor_symmetric, "per_tensor_symmetric"},
    {QScheme::per_channel_affine, "per_channel_affine"},
    {QScheme::per_channel_symmetric, "per_channel_symmetric"},
    {QScheme::per_channel_affine_float_qparams, "per_channel_affine_float_qparams"},
};

int64_t floor_div2(int64_t v) { return v / 2 - (v < 0 && v % 2 != 0); }  // Python's v // 2 (no -v: INT64_MIN has none)
// Python's (a + b) // 2 without forming a + b, which may not fit int64 (Python's ints have no bound); >> is
// floor division by 2 in C++20, and the two halves' dropped low bits add one when both were set.
int64_t floor_midpoint(int64_t a, int64_t b) { return (a >> 1) + (b >> 1) + (a & b & 1); }

// One channel's (scale, zero_point) by calculate_qparams' formula, all in float32.
struct ChannelQParams {
  float scale;
  int64_t zero_point;
  float float_zero_point;  // per_channel_affine_float_qparams only
};

ChannelQParams channel_qparams(float min_val, float max_val, int64_t quant_min, int64_t quant_max, QScheme qscheme,
                               DType dtype, float eps, bool has_customized_qrange) {
  const float min_neg = std::min(min_val, 0.0f);
  const float max_pos = std::max(max_val, 0.0f);
  if (is_symmetric(qscheme)) {
    const float amax = std::max(-min_neg, max_pos);
    // The range's length in double: quant_max - quant_min may not fit int64 (calculate_qparams takes any ints).
    const float half_range = static_cast<float>((static_cast<double>(quant_max) - static_cast<double>(quant_min)) / 2.0);
    const float scale = std::max(amax / half_range, eps);
    int64_t zp = 0;
    if (dtype == DType::UInt8) zp = has_customized_qrange ? floor_midpoint(quant_min, quant_max) : 128;
    return {scale, zp, 0.0f};
  }
  const float range = static_cast<float>(static_cast<double>(quant_max) - static_cast<double>(quant_min));
  if (qscheme == QScheme::per_channel_affine_float_qparams) {
    float scale = (max_val - min_val) / range;
    if (!(scale > eps)) scale = 1.0f;
    return {scale, 0, (-1.0f * min_val) / scale};
  }
  const float scale = std::max((max_pos - min_neg) / range, eps);
  // torch: quant_min - round(min_neg / scale).to(torch.int), in int32 tensors. x86 converts a float outside int32's
  // range, or a NaN (a scale of 0 from eps <= 0 on an all-zero range makes 0 / 0), to INT32_MIN, and the
  // difference wraps.
  const float steps = std::nearbyint(min_neg / scale);
  const int32_t steps_i = steps >= -2147483648.0f && steps < 2147483648.0f ? static_cast<int32_t>(steps) : INT32_MIN;
  const int64_t zp = static_cast<int32_t>(static_cast<uint32_t>(quant_min) - static_cast<uint32_t>(steps_i));
  return {scale, std::clamp(zp, quant_min, quant_max), 0.0f};
}

}  // namespace

const char* qscheme_name(QScheme q) {
  for (const auto& e : kQSchemeNames)
    if (e.q == q) return e.name;
  return "per_tensor_affine";
}

QScheme qscheme_from_name(const std::string& raw) {
  const std::string n = raw.rfind("torch.", 0) == 0 ? raw.substr(6) : raw;
  for (const auto& e : kQSchemeNames)
    if (n == e.name) return e.q;
  throw ValueError("unknown qscheme '" + raw +
                   "': expected one of per_tensor_affine, per_tensor_symmetric, per_channel_affine, "
                   "per_channel_symmetric, per_channel_affine_float_qparams");
}

bool is_per_tensor(QScheme q) { return q == QScheme::per_tensor_affine || q == QScheme::per_tensor_symmetric; }
bool is_per_channel(QScheme q) { return !is_per_tensor(q); }
bool is_symmetric(QScheme q) { return q == QScheme::per_tensor_symmetric || q == QScheme::per_channel_symmetric; }

QRange dtype_bounds(DType dtype) {
  switch (dtype) {
    case DType::Int8: return {-128, 127};
    case DType::UInt8: return {0, 255};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case DType::Float32: break;
  }
  throw TypeError("dtype float32 has no quantized range: expected int8, uint8, int16 or int32");
}

void validate_qmin_qmax(int64_t quant_min, int64_t quant_max) {
  if (!(quant_min <= 0 && 0 <= quant_max))
    throw ValueError("Used-specified quantization range must include 0: got quant_min=" + std::to_string(quant_min) +
                     ", quant_max=" + std::to_string(quant_max));
  if (!(quant_min < quant_max))
    throw ValueError("qmin must be strictly less than qmax for user-specified quantization range: got quant_min=" +
                     std::to_string(quant_min) + ", quant_max=" + std::to_string(quant_max));
}

QRange calculate_qmin_qmax(std::optional<int64_t> quant_min, std::optional<int64_t> quant_max, DType dtype,
                           bool reduce_range) {
  if (quant_min && quant_max) {
    validate_qmin_qmax(*quant_min, *quant_max);
    // The range's length - 1, in uint64_t: quant_max - quant_min overflows int64_t for extreme values.
    const uint64_t span = static_cast<uint64_t>(*quant_max) - static_cast<uint64_t>(*quant_min);
    if (dtype == DType::Int8 && span > 255)
      throw ValueError("quantization range should be positive and not exceed the maximum bit range (=256): got " +
                       std::to_string(*quant_min) + ".." + std::to_string(*quant_max));
    if (dtype == DType::Int32 && span > (uint64_t{1} << 32) - 1)
      throw ValueError("quantization range should be positive and not exceed the maximum bit range (=4294967296)");
    if (!reduce_range) return {*quant_min, *quant_max};
    return {floor_div2(*quant_min), floor_div2(*quant_max)};
  }
  switch (dtype) {
    case DType::Int8: return reduce_range ? QRange{-64, 63} : QRange{-128, 127};
    case DType::UInt8: return reduce_range ? QRange{0, 127} : QRange{0, 255};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case DType::Float32: break;
  }
  return {0, 15};
}

QParams calculate_qparams(const Tensor& min_val, const Tensor& max_val, int64_t quant_min, int64_t quant_max,
                          QScheme qscheme, DType dtype, float eps, bool has_customized_qrange) {
  const bool float_zp = qscheme == QScheme::per_channel_affine_float_qparams;
  auto defaults = [&] {
    QParams qp{Tensor::full({1}, 1.0f), Tensor::zeros({1}, float_zp ? DType::Float32 : DType::Int32)};
    return qp;
  };
  if (min_val.numel() == 0 || max_val.numel() == 0) return defaults();  // observer never ran
  if (min_val.shape() != max_val.shape())
    throw ValueError("calculate_qparams: min_val " + shape_str(min_val.shape()) + " and max_val " +
                     shape_str(max_val.shape()) + " must have the same shape");
  const float* mn = min_val.data<float>();
  const float* mx = max_val.data<float>();
  const float inf = std::numeric_limits<float>::infinity();
  if (min_val.dim() == 0 && mn[0] == inf && mx[0] == -inf) return defaults();
  const int64_t c = min_val.numel();
  for (int64_t i = 0; i < c; ++i) {
    if (!(mn[i] <= mx[i]))
      throw ValueError("min " + num_str(mn[i]) + " should be less than max " + num_str(mx[i]) +
                       (c > 1 ? " (channel " + std::to_string(i) + ")" : std::string()));
    if (!std::isfinite(mn[i]) || !std::isfinite(mx[i]))
      throw ValueError("calculate_qparams: min_val and max_val must be finite, got min " + num_str(mn[i]) +
                       ", max " + num_str(mx[i]) + " (the observed data contained inf)");
  }
  QParams qp{Tensor::empty({c}), Tensor::empty({c}, float_zp ? DType::Float32 : DType::Int32)};
  float* scale = qp.scale.data<float>();
  for (int64_t i = 0; i < c; ++i) {
    const ChannelQParams ch =
        channel_qparams(mn[i], mx[i], quant_min, quant_max, qscheme, dtype, eps, has_customized_qrange);
    scale[i] = ch.scale;
    if (float_zp)
      qp.zero_point.data<float>()[i] = ch.float_zero_point;
    else
      qp.zero_point.data<int32_t>()[i] = static_cast<int32_t>(ch.zero_point);
  }
  return qp;
}

}  // namespace pt
