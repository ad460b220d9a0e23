// test_integer_picture_data.cpp — the integer-picture view's data (web/views/integer_picture_data.h): the
// learner's control steps through the elements and the readout follows it; the engine's pictures of the X86 path's
// float output stage (f32_output) and of the VPU's shift_even requantization read back as the lowered op's own
// output; bad data and bad control values are ValueErrors naming the field, and a rejected control leaves the
// element where it was.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "integer_picture_data.h"
#include "lower/integer_picture.h"
#include "lower/lower.h"
#include "lower/vpu.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/vpu_quantizer.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"

using namespace ptv;

namespace {

// A zoo model prepared with `q`, calibrated on two batches of the lessons' images, converted; `held` a third batch.
pt::GraphModule converted(const std::string& name, pt::Quantizer& q, pt::Tensor& held) {
  pt::manual_seed(0);
  const pt::Model m = pt::get_model(name);
  pt::GraphModule prepared = pt::prepare_pt2e(pt::export_module(m, pt::example_inputs(m, 4)), q);
  const std::vector<pt::Batch> data = pt::calibration_batches(12, 4, m.input_shape);
  for (size_t i = 0; i + 1 < data.size(); ++i) prepared.forward({data[i].x});
  held = data.back().x;
  return pt::convert_pt2e(prepared);
}

// The view's data from the engine's pictures of elements 0, step, 2·step, … of `node` (what web/app/view_data.js
// integerPictureView makes of pt.integer_picture results), with the op's own output at each element.
struct Pictured {
  IntegerPictureData d;
  std::vector<pt::IntegerPicture> pictures;
  pt::Tensor out;  // the lowered op's output, run by the interpreter
};

Pictured picture(pt::GraphModule& lowered, const std::string& node, const pt::Tensor& x, int64_t count) {
  Pictured p;
  pt::run_graph(lowered, {x}, [&](const pt::Node& n, const pt::Value& v) {
    if (n.name == node) p.out = std::get<pt::Tensor>(v.v);
  });
  const int64_t step = p.out.numel() / count;
  for (int64_t i = 0; i < count; ++i) {
    const pt::IntegerPicture pic = pt::integer_picture(lowered, node, {x}, i * step);
    p.pictures.push_back(pic);
    IntegerElement e;
    e.coords = pic.output_coords;
    e.inputs.assign(pic.inputs.begin(), pic.inputs.end());
    e.weights.assign(pic.weights.begin(), pic.weights.end());
    e.products.assign(pic.products.begin(), pic.products.end());
    e.accumulator = pic.accumulator, e.bias = pic.bias, e.accumulator_with_bias = pic.accumulator_with_bias;
    e.multiplier = pic.multiplier, e.fixed_multiplier = pic.fixed_multiplier, e.shift = pic.shift, e.scaled = pic.scaled;
    e.output = pic.output, e.bias_f32 = pic.bias_f32, e.output_f32 = pic.output_f32;
    p.d.elements.push_back(e);
  }
  const pt::IntegerPicture& p0 = p.pictures.front();
  p.d.node = p0.node, p.d.requantization = p0.requantization, p.d.relu = p0.relu;
  p.d.input_zero_point = p0.input_zero_point, p.d.output_zero_point = p0.output_zero_point, p.d.qmin = p0.qmin, p.d.qmax = p0.qmax;
  return p;
}

// The op's output element `flat` as the view shows it: a float32, or a code of the tensor's dtype.
double element_of(const pt::Tensor& t, int64_t flat) {
  switch (t.dtype()) {
    case pt::DType::Float32: return t.data<float>()[flat];
    case pt::DType::Int16: return t.data<int16_t>()[flat];
    case pt::DType::Int8: return t.data<int8_t>()[flat];
    default: return t.data<uint8_t>()[flat];
  }
}

int64_t flat_index(const pt::Tensor& t, const std::vector<int64_t>& coords) {
  int64_t i = 0;
  for (size_t d = 0; d < coords.size(); ++d) i = i * t.size(static_cast<int64_t>(d)) + coords[d];
  return i;
}

// Two output elements of a 3-input dot product, input zero point 2, as the kernels would compute them.
IntegerPictureData two_elements() {
  IntegerPictureData d;
  d.node = "linear";
  d.requantization = "fp32";
  d.input_zero_point = 2;
  for (int k = 0; k < 2; ++k) {
    IntegerElement e;
    e.inputs = {5, 2, -1};
    e.weights = {3, -7, 4 + k};
    for (size_t i = 0; i < 3; ++i) e.products.push_back((e.inputs[i] - d.input_zero_point) * e.weights[i]);
    e.accumulator = e.products[0] + e.products[1] + e.products[2];
    e.bias = 10;
    e.accumulator_with_bias = e.accumulator + e.bias;
    e.multiplier = 0.25;
    e.scaled = static_cast<double>(e.accumulator_with_bias) * e.multiplier;
    e.output = static_cast<int64_t>(std::lround(e.scaled));
    e.has_reference = k == 1;
    e.reference = e.output + 1;
    d.elements.push_back(e);
  }
  return d;
}

double value(const Readout& r, const std::string& name) {
  for (const auto& [n, v] : r)
    if (n == name) return v;
  FAIL("no readout " << name);
  return 0;
}

}  // namespace

TEST_CASE("integer picture: stepping through elements moves the readout", "[integer_picture]") {
  IntegerPictureData d = two_elements();
  REQUIRE_NOTHROW(validate(d));
  CHECK(integer_picture_controls(d).front().value == std::vector<double>{0});
  Readout r = integer_picture_readout(d);
  CHECK(value(r, "accumulator") == d.elements[0].accumulator);
  CHECK(value(r, "output") == d.elements[0].output);
  CHECK(r.size() == 7);  // no reference for element 0
  set_integer_picture_controls(d, {{"element", {1}}});
  r = integer_picture_readout(d);
  CHECK(value(r, "element") == 1);
  CHECK(value(r, "accumulator") == d.elements[1].accumulator);
  CHECK(value(r, "reference") == d.elements[1].output + 1);
  CHECK(value(r, "diff") == -1);
}

TEST_CASE("integer picture: bad data and bad controls are ValueErrors, nothing changed", "[integer_picture]") {
  IntegerPictureData d = two_elements();
  CHECK_THROWS_WITH(set_integer_picture_controls(d, {{"element", {2}}}), Catch::Contains("'element' must be [i]"));
  CHECK_THROWS_WITH(set_integer_picture_controls(d, {{"element", {0.5}}}), Catch::Contains("integer"));
  CHECK_THROWS_WITH(set_integer_picture_controls(d, {{"range", {0, 1}}}), Catch::Contains("not 'range'"));
  CHECK(d.element == 0);
  IntegerPictureData ragged = two_elements();
  ragged.elements[1].weights.pop_back();
  CHECK_THROWS_AS(validate(ragged), pt::ValueError);
  CHECK_THROWS_WITH(validate(ragged), Catch::Contains("elements[1]"));
  IntegerPictureData none = two_elements();
  none.elements.clear();
  CHECK_THROWS_WITH(validate(none), Catch::Contains("1 to 4096 elements"));
  IntegerPictureData requant = two_elements();
  requant.requantization = "double";
  CHECK_THROWS_WITH(validate(requant), Catch::Contains("'requantization'"));
  IntegerPictureData outside = two_elements();
  outside.element = 5;
  CHECK_THROWS_WITH(validate(outside), Catch::Contains("'element' must be in 0..1"));
}

TEST_CASE("integer picture: the X86 float output stage, read from the engine, is the op's own float", "[integer_picture]") {
  // conv_relu: the relu fused into the float output (torchao's qconv unary fusion); tiny's linear: no relu.
  for (const auto& [model, node] : {std::pair<std::string, std::string>{"conv_relu", "conv2d"}, {"tiny", "linear"}}) {
    INFO(model << " " << node);
    pt::X86InductorQuantizer q;
    q.set_global(pt::get_default_x86_inductor_quantization_config());
    pt::Tensor held;
    pt::Lowered l = pt::lower(converted(model, q, held), {pt::LowerBackend::x86});
    Pictured p = picture(l.gm, node, held, 6);
    REQUIRE(p.out.dtype() == pt::DType::Float32);
    CHECK(p.d.requantization == "f32_output");
    CHECK(float_output(p.d));
    CHECK(p.d.relu == (model == "conv_relu"));
    REQUIRE_NOTHROW(validate(p.d));
    for (size_t i = 0; i < p.d.elements.size(); ++i) {
      set_integer_picture_controls(p.d, {{"element", {static_cast<double>(i)}}});
      const Readout r = integer_picture_readout(p.d);
      CHECK(r.size() == 6);  // element, accumulator, multiplier, scaled, bias_f32, output_f32: no code fields
      const double want = element_of(p.out, flat_index(p.out, p.d.elements[i].coords));
      CHECK(value(r, "output_f32") == want);  // the kernel's float (i16_gemm + i32_requantize) at that element
      // by hand, in float32 as the stage runs: f32(acc)·f32(s_in·s_w), + f32 bias, [relu]
      float by_hand = static_cast<float>(static_cast<float>(value(r, "accumulator")) * static_cast<float>(value(r, "multiplier"))) +
                      static_cast<float>(value(r, "bias_f32"));
      if (p.d.relu) by_hand = std::max(by_hand, 0.0f);
      CHECK(value(r, "output_f32") == by_hand);
    }
    // the q/dq graph's float at an element, as a reference: the readout says how far the kernel's float is from it
    p.d.elements[1].has_reference = true;
    p.d.elements[1].reference = p.d.elements[1].output_f32 + 0.25;
    set_integer_picture_controls(p.d, {{"element", {1}}});
    REQUIRE_NOTHROW(validate(p.d));
    CHECK(value(integer_picture_readout(p.d), "diff") == -0.25);
  }
}

TEST_CASE("integer picture: the VPU's shift_even, read from the engine, is the op's own int16 code", "[integer_picture]") {
  pt::VPUQuantizer q;
  q.set_global(pt::get_vpu_quantization_config());
  pt::Tensor held;
  pt::Lowered l = pt::simulate_vpu(converted("conv_relu", q, held));
  Pictured p = picture(l.gm, "conv2d", held, 8);
  REQUIRE(p.out.dtype() == pt::DType::Int16);  // the VPU's Q3.12 output
  CHECK(p.d.requantization == "shift_even");
  CHECK(p.d.qmax == 32767);
  REQUIRE_NOTHROW(validate(p.d));
  bool wide = false;
  for (size_t i = 0; i < p.d.elements.size(); ++i) {
    set_integer_picture_controls(p.d, {{"element", {static_cast<double>(i)}}});
    const Readout r = integer_picture_readout(p.d);
    CHECK(r.size() == 7);
    const IntegerElement& e = p.d.elements[i];
    CHECK(value(r, "output") == element_of(p.out, flat_index(p.out, e.coords)));
    // quantize's rounding of (acc + bias)·2^-shift: nearbyint rounds half to even
    const double by_hand = std::nearbyint(std::ldexp(static_cast<double>(e.accumulator_with_bias), static_cast<int>(-e.shift)));
    CHECK(value(r, "output") == std::clamp(by_hand + static_cast<double>(p.d.output_zero_point), static_cast<double>(p.d.qmin),
                                           static_cast<double>(p.d.qmax)));
    wide |= e.output > 127;
  }
  CHECK(wide);  // int16 codes past the int8 range, which the strip's cells must fit
}

TEST_CASE("integer picture: unknown kinds, relu on a code, non-finite floats are ValueErrors naming the field", "[integer_picture]") {
  IntegerPictureData kind = two_elements();
  kind.requantization = "double";
  CHECK_THROWS_WITH(validate(kind), Catch::Contains("one of 'fp32', 'fixed_point', 'shift', 'shift_even', 'f32_output', got 'double'"));
  for (const std::string& name : pt::requant_names()) {  // every engine name is a kind the view draws
    IntegerPictureData d = two_elements();
    d.requantization = name;
    CHECK_NOTHROW(validate(d));
  }
  IntegerPictureData relu = two_elements();
  relu.relu = true;
  CHECK_THROWS_WITH(validate(relu), Catch::Contains("'relu' applies to the float output stage"));
  relu.requantization = "f32_output";
  CHECK_NOTHROW(validate(relu));
  IntegerPictureData nan = two_elements();
  nan.requantization = "f32_output";
  nan.elements[1].output_f32 = NAN;
  CHECK_THROWS_WITH(validate(nan), Catch::Contains("elements[1] needs a finite bias_f32 and output_f32"));
  nan.elements[1].output_f32 = 1;
  nan.elements[0].bias_f32 = INFINITY;
  CHECK_THROWS_WITH(validate(nan), Catch::Contains("elements[0] needs a finite bias_f32"));
  nan.elements[0].bias_f32 = 0;
  nan.elements[1].reference = NAN;
  CHECK_THROWS_WITH(validate(nan), Catch::Contains("elements[1].reference is not finite"));
  IntegerPictureData code = two_elements();
  code.elements[1].reference = 2.5;
  CHECK_THROWS_WITH(validate(code), Catch::Contains("elements[1].reference must be a code"));
  code.elements[1].reference = 2;
  code.elements[0].output = 300;
  CHECK_THROWS_WITH(validate(code), Catch::Contains("elements[0].output 300 is outside [qmin, qmax] = [-128, 127]"));
}
