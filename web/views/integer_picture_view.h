// integer_picture_view.h — the integer-picture view: what a lowered conv2d / linear computes for each output
// element, in integers, step by step (M07, M09, M10). A strip of the op's output codes (each cell one element,
// marked where the integer kernel and the q/dq graph differ); below it the chosen element: the input codes minus
// the zero point, the int8 weights, their int32 products with a running sum, then accumulator + int32 bias,
// × multiplier (float; the Q31 multiplier and shift for fixed_point, the shift for shift / shift_even), the kind's
// rounding, + output zero point, clamp → the code, and the q/dq graph's code beside it. The X86 path's float output
// stage (f32_output) draws a strip of floats instead, and its chain as the kernel runs it: accumulator × s_in·s_w,
// + the float bias, [relu] → the float output. The learner steps with the < > buttons or a click on a cell
// (control "element", integer_picture_data.h); the readout is the element's numbers.
#pragma once
#include "integer_picture_data.h"

namespace ptv {

class IntegerPictureView : public ViewContent {
 public:
  void set_data(IntegerPictureData d);
  void draw() override;
  int hovered_item() const override { return hovered_; }
  int selected_item() const override { return data_.element; }
  std::vector<Control> controls() const override { return integer_picture_controls(data_); }
  void set_controls(const ControlValues& values) override { set_integer_picture_controls(data_, values); }
  Readout readout() const override { return integer_picture_readout(data_); }

 private:
  void step_to(int element);  // the learner's input: a control change
  float draw_strip(float top);
  void draw_element(float top);

  IntegerPictureData data_;
  int hovered_ = -1;
};

}  // namespace ptv
