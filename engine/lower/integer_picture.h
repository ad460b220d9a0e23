// integer_picture.h — output elements of a lowered conv2d / linear, each computed step by step as the
// integer kernels compute it: the data a lesson shows (M07) of what a backend does after convert.
//
//   std::vector<pt::IntegerPicture> ps = pt::integer_pictures(lowered.gm, "conv2d", {x}, {32, 33, 34});
//   pt::IntegerPicture p = pt::integer_picture(lowered.gm, "conv2d", {x}, /*index=*/5);  // one: integer_pictures(.., {5})
//   p.inputs, p.weights, p.products, p.accumulator, p.bias, p.multiplier, p.output ...
//
// The graph runs once on `inputs` (the interpreter), which gives the op's input codes; each element (a flat
// index in the op's output) is then recomputed from the codes, the packed weights, the int32 bias and the
// requantization the op holds (int8_ops.h). `output` equals the op's own output code there (the test checks
// it). ValueError for a node that is no int8 conv2d / linear, an index outside the output (every index is
// checked before a picture is made; the message names its position in the list) or more than
// kMaxIntegerPictures indices. No indices give no pictures, as single calls mapped over an empty list would
// (the node is still checked; the graph does not run).
// An op with the float output stage (the X86 path's conv / linear feeding a float user) has no int32 bias
// and no code: requantization "f32_output", bias_f32, and output_f32 = f32(accumulator)·multiplier +
// bias_f32 (then the fused relu), equal to the op's own float there.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace pt {

struct IntegerPicture {
  std::string node, target, requantization;  // requantization: "fp32", "fixed_point", "shift", "shift_even", "f32_output"
  std::vector<int64_t> output_coords;        // the element's coordinates in the op's output
  int64_t channel = 0;                       // its output channel
  int32_t input_zero_point = 0;
  std::vector<int32_t> inputs;    // the codes it reads (K of them; a padded position reads the zero point)
  std::vector<int32_t> weights;   // the int8 weight codes of its channel (K)
  std::vector<int32_t> products;  // (input − zero point) · weight, int32
  int32_t accumulator = 0;        // Σ products
  int32_t bias = 0;               // the channel's int32 bias (scale s_in·s_w)
  int32_t accumulator_with_bias = 0;
  float multiplier = 0;           // s_in·s_w / s_out (float32)
  int32_t fixed_multiplier = 0, shift = 0;  // fixed_point: Q31 multiplier and exponent; shift: bits
  double scaled = 0;              // the accumulator in output steps before rounding: f32(acc)·multiplier
  int32_t output_zero_point = 0, qmin = 0, qmax = 0;
  int32_t output = 0;             // the requantized code (f32_output: 0, no code)
  bool float_output = false;      // the float output stage: multiplier is s_in·s_w, the bias below is added in float
  float bias_f32 = 0;             // f32_output: the channel's float bias
  bool relu = false;              // f32_output: a fused relu
  float output_f32 = 0;           // f32_output: the op's float output element

  bool operator==(const IntegerPicture&) const = default;  // field by field
};

inline constexpr size_t kMaxIntegerPictures = 4096;  // indices in one call

std::vector<IntegerPicture> integer_pictures(GraphModule& lowered, const std::string& node, const std::vector<Tensor>& inputs,
                                             const std::vector<int64_t>& indices);  // in the order of `indices`
IntegerPicture integer_picture(GraphModule& lowered, const std::string& node, const std::vector<Tensor>& inputs,
                               int64_t index);

}  // namespace pt
