// test_integer_picture_data.cpp — the integer-picture view's data (web/views/integer_picture_data.h): the
// learner's control steps through the elements and the readout follows it; bad data and bad control values are
// ValueErrors naming the field, and a rejected control leaves the element where it was.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/error.h"
#include "integer_picture_data.h"

using namespace ptv;

namespace {

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
