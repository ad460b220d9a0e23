// integer_picture_data.h — the integer-picture view's data and its one control, without drawing: output
// elements of a lowered conv2d / linear, each as the integer kernels compute it (pt.integer_picture, engine/
// lower/integer_picture.h), with the code the q/dq graph gives there (dq → op → q) for comparison. The learner
// steps through the elements (control "element" = [i]); the readout is the element's numbers. Drawn by
// integer_picture_view.cpp; checked natively by tests/engine/views/test_integer_picture_data.cpp.
//
//   { view: 'integer_picture', node, requantization, input_zero_point, output_zero_point, qmin, qmax,
//     elements: [{ coords, inputs, weights, products, accumulator, bias, accumulator_with_bias,
//                  multiplier, fixed_multiplier, shift, scaled, output, reference? }], element }
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
  double multiplier = 0;                             // s_in·s_w / s_out
  int64_t fixed_multiplier = 0, shift = 0;           // fixed_point / shift requantization
  double scaled = 0;                                 // the accumulator in output steps, before rounding
  int64_t output = 0;                                // the integer kernel's code
  bool has_reference = false;
  int64_t reference = 0;                             // the q/dq graph's code at the same element
};

struct IntegerPictureData {
  std::string node, requantization;  // requantization: "fp32", "fixed_point", "shift"
  int64_t input_zero_point = 0, output_zero_point = 0, qmin = -128, qmax = 127;
  std::vector<IntegerElement> elements;
  int element = 0;                   // the element shown (the control)
};

// pt::ValueError naming the field: no elements (or more than 4096), inputs / weights / products of different
// lengths (or more than 4096), an element index outside, qmin > qmax, a requantization of another name.
void validate(const IntegerPictureData& d);

// The control: "element" = [i], an integer in [0, elements); spec field "element".
std::vector<Control> integer_picture_controls(const IntegerPictureData& d);
// Sets it as the learner's input would; pt::ValueError naming the control, nothing changed on error.
void set_integer_picture_controls(IntegerPictureData& d, const ControlValues& values);
// { element, accumulator, bias, accumulator_with_bias, multiplier, scaled, output, reference?, diff? }
Readout integer_picture_readout(const IntegerPictureData& d);

}  // namespace ptv
