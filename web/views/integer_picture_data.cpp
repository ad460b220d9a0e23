// integer_picture_data.cpp — checks, control and readout of the integer-picture view (integer_picture_data.h).
#include "integer_picture_data.h"

#include <cmath>

#include "core/error.h"

namespace ptv {

namespace {
constexpr size_t kMaxElements = 4096, kMaxDepth = 4096;
}

void validate(const IntegerPictureData& d) {
  const std::string w = "integer picture";
  if (d.elements.empty() || d.elements.size() > kMaxElements)
    throw pt::ValueError(w + ": 1 to " + std::to_string(kMaxElements) + " elements expected, got " + std::to_string(d.elements.size()));
  if (d.requantization != "fp32" && d.requantization != "fixed_point" && d.requantization != "shift")
    throw pt::ValueError(w + ": 'requantization' must be fp32, fixed_point or shift, got '" + d.requantization + "'");
  if (d.qmin > d.qmax) throw pt::ValueError(w + ": qmin " + std::to_string(d.qmin) + " is above qmax " + std::to_string(d.qmax));
  for (size_t i = 0; i < d.elements.size(); ++i) {
    const IntegerElement& e = d.elements[i];
    const std::string at = w + ": elements[" + std::to_string(i) + "]";
    if (e.inputs.size() != e.weights.size() || e.inputs.size() != e.products.size())
      throw pt::ValueError(at + " has " + std::to_string(e.inputs.size()) + " inputs, " + std::to_string(e.weights.size()) + " weights and " +
                           std::to_string(e.products.size()) + " products; they must be as many");
    if (e.inputs.size() > kMaxDepth) throw pt::ValueError(at + " reads " + std::to_string(e.inputs.size()) + " inputs; at most 4096 are drawn");
    if (!std::isfinite(e.multiplier) || !std::isfinite(e.scaled)) throw pt::ValueError(at + " has a multiplier or scaled value that is not finite");
  }
  if (d.element < 0 || static_cast<size_t>(d.element) >= d.elements.size())
    throw pt::ValueError(w + ": 'element' must be in 0.." + std::to_string(d.elements.size() - 1) + ", got " + std::to_string(d.element));
}

std::vector<Control> integer_picture_controls(const IntegerPictureData& d) { return {{"element", {static_cast<double>(d.element)}, {"element"}}}; }

void set_integer_picture_controls(IntegerPictureData& d, const ControlValues& values) {
  for (const auto& [name, v] : values) {
    if (name != "element") throw pt::ValueError("setControls(): the integer picture has the control 'element', not '" + name + "'");
    if (v.size() != 1 || !std::isfinite(v[0]) || v[0] != std::floor(v[0]) || v[0] < 0 || v[0] >= static_cast<double>(d.elements.size()))
      throw pt::ValueError("setControls(): 'element' must be [i] with i an integer in 0.." + std::to_string(d.elements.size() - 1));
  }
  if (!values.empty()) d.element = static_cast<int>(values.begin()->second[0]);
}

Readout integer_picture_readout(const IntegerPictureData& d) {
  const IntegerElement& e = d.elements[static_cast<size_t>(d.element)];
  Readout r{{"element", d.element},
            {"accumulator", static_cast<double>(e.accumulator)},
            {"bias", static_cast<double>(e.bias)},
            {"accumulator_with_bias", static_cast<double>(e.accumulator_with_bias)},
            {"multiplier", e.multiplier},
            {"scaled", e.scaled},
            {"output", static_cast<double>(e.output)}};
  if (e.has_reference) {
    r.emplace_back("reference", static_cast<double>(e.reference));
    r.emplace_back("diff", static_cast<double>(e.output - e.reference));
  }
  return r;
}

}  // namespace ptv
