// integer_picture_data.h — the integer-picture view's data and its one control, without drawing: output
// elements of a lowered conv2d / linear, each as the integer kernels compute it (pt.integer_picture, engine/
// lower/integer_picture.h), with the q/dq graph's value there (dq → op → q) for comparison. The learner
// steps through the elements (control "element" = [i]); the readout is the element's numbers. Drawn by
// integer_picture_view.cpp; checked natively by tests/engine/views/test_integer_picture_data.cpp.
//
//   { view: 'integer_picture', node, requantization, relu?, input_zero_point, output_zero_point, qmin, qmax,
//     elements: [{ coords, inputs, weights, products, accumulator, bias, accumulator_with_bias,
//                  multiplier, fixed_multiplier, shift, scaled, output, bias_f32?, output_f32?, reference? }], element }
//
// requantization is one of the engine's names (engine/lower/lower.h requant_names): fp32, fixed_point, shift and
// shift_even (the VPU's shift, rounding half to even) end in an output code; f32_output is the X86 path's float
// output stage: no int32 bias and no code — the accumulator × s_in·s_w (multiplier), + bias_f32 in float, the fused
// relu if `relu`, → output_f32 (and `reference`, when given, is a float too).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "view_content.h"

namespace ptv {

struct IntegerElement {
  std::vector<int64_t> coords;                       // in the op's output
  std::vector<int64_t> inputs, weights, products;    // K codes, K int8 weights, K int32 products
  int64_t accumulator = 0, bias = 0, accumulator_with_bias = 0;
  double multiplier = 0;                             // s_in·s_w / s_out (f32_output: s_in·s_w)
  int64_t fixed_multiplier = 0, shift = 0;           // fixed_point: Q31 and exponent; shift / shift_even: bits
  double scaled = 0;                                 // f32(accumulator [+ bias]) · multiplier, before rounding
  int64_t output = 0;                                // the integer kernel's code (f32_output: none)
  double bias_f32 = 0, output_f32 = 0;               // f32_output: the channel's float bias, the op's float
  bool has_reference = false;
  double reference = 0;                              // the q/dq graph's value there: a code (f32_output: a float)
};

struct IntegerPictureData {
  std::string node, requantization;  // one of pt::requant_names()
  bool relu = false;                 // f32_output: a fused relu clamps the float at 0 (a code's relu is its qmin)
  int64_t input_zero_point = 0, output_zero_point = 0, qmin = -128, qmax = 127;
  std::vector<IntegerElement> elements;
  int element = 0;                   // the element shown (the control)
};

bool float_output(const IntegerPictureData& d);  // requantization "f32_output": a float strip, no codes

// pt::ValueError naming the field: no elements (or more than 4096), inputs / weights / products of different
// lengths (or more than 4096), an element index outside, a requantization none of pt::requant_names() (the
// message lists them), qmin > qmax, a code outside [qmin, qmax] or a reference that is no integer (code outputs),
// relu on a code output, a multiplier, scaled value, bias_f32, output_f32 or reference that is not finite.
void validate(const IntegerPictureData& d);

// The control: "element" = [i], an integer in [0, elements); spec field "element".
std::vector<Control> integer_picture_controls(const IntegerPictureData& d);
// Sets it as the learner's input would; pt::ValueError naming the control, nothing changed on error.
void set_integer_picture_controls(IntegerPictureData& d, const ControlValues& values);
// Code outputs: { element, accumulator, bias, accumulator_with_bias, multiplier, scaled, output, reference?, diff? };
// f32_output: { element, accumulator, multiplier, scaled, bias_f32, output_f32, reference?, diff? }.
Readout integer_picture_readout(const IntegerPictureData& d);

}  // namespace ptv
