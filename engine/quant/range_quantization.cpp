// range_quantization.cpp — qparams, SQNR and clipped share of a range (range_quantization.h),
// all through qparams.h and quantize.h.
#include "quant/range_quantization.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/error.h"
#include "quant/qparams.h"
#include "quant/quantize.h"

namespace pt {

namespace {

constexpr const char* kWhere = "range_quantization: ";

std::string num(double v) {  // "%.6g", for messages
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void check_quant(const RangeQuant& q) {
  if (q.dtype == DType::Float32)
    throw ValueError(std::string(kWhere) + "'quant.dtype' must be an integer dtype (int8, uint8, int16, int32), got float32");
  // torch's rule for a user-specified range (an observer given quant_min / quant_max).
  try {
    validate_qmin_qmax(q.quant_min, q.quant_max);
  } catch (const ValueError& e) {
    throw ValueError(std::string(kWhere) + "'quant.quant_min' / 'quant.quant_max': " + e.what());
  }
  const QRange b = dtype_bounds(q.dtype);
  if (q.quant_min < b.quant_min || q.quant_max > b.quant_max)
    throw ValueError(std::string(kWhere) + "'quant.quant_min' / 'quant.quant_max' must lie in " + dtype_name(q.dtype) +
                     "'s range " + std::to_string(b.quant_min) + ".." + std::to_string(b.quant_max) + ", got " +
                     std::to_string(q.quant_min) + ".." + std::to_string(q.quant_max));
}

void check_range(double min, double max) {
  if (!std::isfinite(min) || !std::isfinite(max) || !(min < max))
    throw ValueError(std::string(kWhere) + "'range' must be finite with min < max, got min=" + num(min) + " max=" + num(max));
}

void check_values(std::span<const float> values) {
  if (values.empty()) throw ValueError(std::string(kWhere) + "'values' must hold the data to quantize, got none");
  for (size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]))
      throw ValueError(std::string(kWhere) + "'values' must be finite, but values[" + std::to_string(i) + "] is " + num(values[i]));
}

}  // namespace

RangeQuantization range_quantization(std::span<const float> values, double min, double max, const RangeQuant& quant) {
  check_quant(quant);
  check_range(min, max);
  check_values(values);
  // An observer with min_val / max_val = the range, its default eps (torch.finfo(torch.float32).eps)
  // and a customized qrange (it was given quant_min / quant_max: uint8 symmetric centres its zero point).
  const QParams qp = calculate_qparams(Tensor::scalar(static_cast<float>(min)), Tensor::scalar(static_cast<float>(max)),
                                       quant.quant_min, quant.quant_max,
                                       quant.symmetric ? QScheme::per_tensor_symmetric : QScheme::per_tensor_affine,
                                       quant.dtype, kFloat32Eps, /*has_customized_qrange=*/true);
  const float scale = qp.scale.data<float>()[0];
  const int64_t zp = qp.zero_point.data<int32_t>()[0];
  const Tensor x = Tensor::from(std::vector<float>(values.begin(), values.end()), {static_cast<int64_t>(values.size())});
  const Tensor xq = dequantize_per_tensor(quantize_per_tensor(x, scale, zp, quant.quant_min, quant.quant_max, quant.dtype),
                                          scale, zp, quant.quant_min, quant.quant_max, quant.dtype);
  // Which codes the grid clamped: the same quantize op (same arithmetic) over the whole int32 grid,
  // which leaves round(x/scale)+zp unclamped, compared with [quant_min, quant_max].
  const QRange wide = dtype_bounds(DType::Int32);
  const Tensor codes = quantize_per_tensor(x, scale, zp, wide.quant_min, wide.quant_max, DType::Int32);
  int64_t clipped = 0;
  for (int32_t c : codes.span<int32_t>()) clipped += (c < quant.quant_min || c > quant.quant_max) ? 1 : 0;
  RangeQuantization r;
  r.sqnr = sqnr(x, xq);
  r.clipped = static_cast<double>(clipped) / static_cast<double>(values.size());
  r.scale = scale;
  r.zero_point = zp;
  return r;
}

}  // namespace pt
