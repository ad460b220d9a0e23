// range_readout.h — what a quantization range [min, max] does to a set of values, for the histogram
// view's draggable range (histogram_view.h): the qparams torch / torchao would compute for that range,
// the SQNR of the values fake-quantized with them, and the share of values the int grid clips.
//
//   ptv::RangeQuant q;                       // quant_min -128, quant_max 127, affine, int8
//   ptv::validate(q);                        // pt::ValueError naming the field
//   ptv::RangeReadout r = ptv::range_readout(values, -1.5, 2.0, q);
//   r.scale, r.zero_point                    // pt::calculate_qparams (per_tensor_affine / _symmetric)
//   r.sqnr                                   // pt::sqnr(x, dequantize(quantize(x))) in dB
//   r.clipped                                // share of x whose code round(x/scale)+zp fell outside [quant_min, quant_max]
//                                            // (so quantize_per_tensor clamped it)
//
// Every number comes from the engine's own functions (engine/quant/qparams.h, quantize.h); nothing
// here restates a formula, so the view shows exactly what an observer with that min_val / max_val and
// convert_pt2e's q/dq pair would give. The range is widened to include 0 by calculate_qparams itself,
// as in torch. Header-only (pure, no ImGui) so the native views tests use it without the view.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "core/error.h"
#include "core/tensor.h"
#include "quant/qparams.h"
#include "quant/quantize.h"

namespace ptv {

namespace readout_detail {
inline std::string num(double v) {  // "%.6g", for messages
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
}  // namespace readout_detail

// How qparams follow the range: an observer's quant_min / quant_max, its qscheme and dtype.
struct RangeQuant {
  int64_t quant_min = -128, quant_max = 127;
  bool symmetric = false;  // per_tensor_symmetric, else per_tensor_affine
  pt::DType dtype = pt::DType::Int8;
};

struct RangeReadout {
  double sqnr = 0;       // dB; +inf when every value is reproduced exactly
  double clipped = 0;    // fraction of the values (0..1)
  double scale = 1;      // float32 value
  int64_t zero_point = 0;
};

// Throws pt::ValueError naming the field ("quant.quant_min", "quant.dtype", ...).
inline void validate(const RangeQuant& q) {
  if (q.dtype == pt::DType::Float32)
    throw pt::ValueError("histogram: 'quant.dtype' must be an integer dtype (int8, uint8, int16, int32), got float32");
  const pt::QRange b = pt::dtype_bounds(q.dtype);
  if (q.quant_min < b.quant_min || q.quant_max > b.quant_max)
    throw pt::ValueError("histogram: 'quant.quant_min' / 'quant.quant_max' must lie in " +
                         std::string(pt::dtype_name(q.dtype)) + "'s range " + std::to_string(b.quant_min) + ".." +
                         std::to_string(b.quant_max) + ", got " + std::to_string(q.quant_min) + ".." +
                         std::to_string(q.quant_max));
  // torch's user-specified range rule (validate_qmin_qmax): it must include 0 and not be empty.
  if (!(q.quant_min <= 0 && 0 <= q.quant_max && q.quant_min < q.quant_max))
    throw pt::ValueError("histogram: 'quant.quant_min' and 'quant.quant_max' must satisfy quant_min <= 0 <= quant_max "
                         "and quant_min < quant_max, got " + std::to_string(q.quant_min) + ".." +
                         std::to_string(q.quant_max));
}

// Throws pt::ValueError naming 'range' or 'values' when they cannot be quantized.
inline void validate_range(double min, double max) {
  if (!std::isfinite(min) || !std::isfinite(max) || !(min < max))
    throw pt::ValueError("histogram: a draggable 'range' must be finite with min < max, got min=" + readout_detail::num(min) +
                         " max=" + readout_detail::num(max));
}

inline void validate_values(std::span<const float> values) {
  if (values.empty()) throw pt::ValueError("histogram: a draggable range needs 'values' (the raw data), got none");
  for (size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]))
      throw pt::ValueError("histogram: 'values' must be finite, but values[" + std::to_string(i) + "] is " +
                           readout_detail::num(values[i]));
}

inline RangeReadout range_readout(std::span<const float> values, double min, double max, const RangeQuant& q) {
  validate(q);
  validate_range(min, max);
  validate_values(values);
  // The observer's default eps (torch.finfo(torch.float32).eps), and a customized qrange: the
  // observer was given quant_min / quant_max, so uint8 symmetric centres its zero point as torch does.
  const pt::QParams qp = pt::calculate_qparams(
      pt::Tensor::scalar(static_cast<float>(min)), pt::Tensor::scalar(static_cast<float>(max)), q.quant_min, q.quant_max,
      q.symmetric ? pt::QScheme::per_tensor_symmetric : pt::QScheme::per_tensor_affine, q.dtype, pt::kFloat32Eps,
      /*has_customized_qrange=*/true);
  const float scale = qp.scale.data<float>()[0];
  const int64_t zp = qp.zero_point.data<int32_t>()[0];
  const pt::Tensor x = pt::Tensor::from(std::vector<float>(values.begin(), values.end()),
                                        {static_cast<int64_t>(values.size())});
  const pt::Tensor xq = pt::dequantize_per_tensor(pt::quantize_per_tensor(x, scale, zp, q.quant_min, q.quant_max, q.dtype),
                                                  scale, zp, q.quant_min, q.quant_max, q.dtype);
  // Which codes the grid clamped: the same quantize op (same arithmetic) over the whole int32 grid,
  // which leaves round(x/scale)+zp unclamped, compared with [quant_min, quant_max].
  const pt::QRange wide = pt::dtype_bounds(pt::DType::Int32);
  const pt::Tensor codes = pt::quantize_per_tensor(x, scale, zp, wide.quant_min, wide.quant_max, pt::DType::Int32);
  int64_t clipped = 0;
  for (int32_t c : codes.span<int32_t>()) clipped += (c < q.quant_min || c > q.quant_max) ? 1 : 0;
  RangeReadout r;
  r.sqnr = pt::sqnr(x, xq);
  r.clipped = static_cast<double>(clipped) / static_cast<double>(values.size());
  r.scale = scale;
  r.zero_point = zp;
  return r;
}

}  // namespace ptv
