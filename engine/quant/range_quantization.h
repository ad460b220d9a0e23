// range_quantization.h — what quantizing a set of values through a chosen range [min, max] does:
// the qparams torch / torchao compute for that range, the SQNR of the values quantized and
// dequantized with them, and the share of values the integer grid clips. A learner moving a
// histogram's range (web/views/histogram_view.h) sees these numbers; the view only draws them.
//
//   pt::RangeQuant q;                                  // quant_min -128, quant_max 127, affine, int8
//   pt::RangeQuantization r = pt::range_quantization(values, -1.5, 2.0, q);
//   r.scale, r.zero_point     // calculate_qparams (per_tensor_affine / _symmetric) of min_val = -1.5, max_val = 2.0
//   r.sqnr                    // sqnr(x, dequantize_per_tensor(quantize_per_tensor(x))) in dB
//   r.clipped                 // share of x whose code round(x/scale)+zp fell outside [quant_min, quant_max]
//
// Every number comes from the engine's own functions (qparams.h, quantize.h): an observer whose
// min_val / max_val are the range, then convert_pt2e's quantize / dequantize pair, give the same.
// As in torch, calculate_qparams widens the range to include 0.
#pragma once
#include <cstdint>
#include <span>

#include "core/tensor.h"

namespace pt {

// How qparams follow the range: an observer's quant_min / quant_max (a customized range, checked as
// torch's validate_qmin_qmax and against the dtype's bounds), its qscheme and dtype.
struct RangeQuant {
  int64_t quant_min = -128, quant_max = 127;
  bool symmetric = false;  // per_tensor_symmetric, else per_tensor_affine
  DType dtype = DType::Int8;
};

struct RangeQuantization {
  double sqnr = 0;     // dB; +inf when every value is reproduced exactly, NaN when all values are 0
  double clipped = 0;  // fraction of the values (0..1)
  double scale = 1;    // float32 value
  int64_t zero_point = 0;
};

// ValueError naming the argument ('quant.quant_min', 'quant.dtype', 'range', 'values', values[i])
// when the settings, the range (finite, min < max) or the values (not empty, finite) cannot be quantized.
RangeQuantization range_quantization(std::span<const float> values, double min, double max, const RangeQuant& quant);

}  // namespace pt
