// integer_picture_data.cpp — checks, control and readout of the integer-picture view (integer_picture_data.h).
#include "integer_picture_data.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "lower/lower.h"

namespace ptv {

namespace {
constexpr size_t kMaxElements = 4096, kMaxDepth = 4096;
}  // namespace

bool float_output(const IntegerPictureData& d) { return d.requantization == pt::requant_name(pt::kernels::RequantKind::f32_output); }

void validate(const IntegerPictureData& d) {
  const std::string w = "integer picture";
  if (d.elements.empty() || d.elements.size() > kMaxElements)
    throw pt::ValueError(w + ": 1 to " + std::to_string(kMaxElements) + " elements expected, got " + std::to_string(d.elements.size()));
  const auto& names = pt::requant_names();
  if (std::find(names.begin(), names.end(), d.requantization) == names.end())
    throw pt::ValueError(w + ": 'requantization' must be one of " + pt::quoted_requant_names() + ", got '" + d.requantization + "'");
  const bool f32 = float_output(d);
  if (d.relu && !f32)
    throw pt::ValueError(w + ": 'relu' applies to the float output stage (f32_output) only; a " + d.requantization +
                         " output's relu is its qmin");
  if (d.qmin > d.qmax) throw pt::ValueError(w + ": qmin " + std::to_string(d.qmin) + " is above qmax " + std::to_string(d.qmax));
  for (size_t i = 0; i < d.elements.size(); ++i) {
    const IntegerElement& e = d.elements[i];
    const std::string at = w + ": elements[" + std::to_string(i) + "]";
    if (e.inputs.size() != e.weights.size() || e.inputs.size() != e.products.size())
      throw pt::ValueError(at + " has " + std::to_string(e.inputs.size()) + " inputs, " + std::to_string(e.weights.size()) + " weights and " +
                           std::to_string(e.products.size()) + " products; they must be as many");
    if (e.inputs.size() > kMaxDepth) throw pt::ValueError(at + " reads " + std::to_string(e.inputs.size()) + " inputs; at most 4096 are drawn");
    if (!std::isfinite(e.multiplier) || !std::isfinite(e.scaled)) throw pt::ValueError(at + " has a multiplier or scaled value that is not finite");
    if (e.has_reference && !std::isfinite(e.reference)) throw pt::ValueError(at + ".reference is not finite");
    if (f32) {
      if (!std::isfinite(e.bias_f32) || !std::isfinite(e.output_f32))
        throw pt::ValueError(at + " needs a finite bias_f32 and output_f32 (the float output stage), got " + std::to_string(e.bias_f32) +
                             " and " + std::to_string(e.output_f32));
      continue;
    }
    if (e.output < d.qmin || e.output > d.qmax)
      throw pt::ValueError(at + ".output " + std::to_string(e.output) + " is outside [qmin, qmax] = [" + std::to_string(d.qmin) + ", " +
                           std::to_string(d.qmax) + "]");
    if (e.has_reference && e.reference != std::floor(e.reference))
      throw pt::ValueError(at + ".reference must be a code (an integer) for a " + d.requantization + " output, got " + std::to_string(e.reference));
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
  Readout r{{"element", d.element}, {"accumulator", static_cast<double>(e.accumulator)}};
  double value = 0;
  if (float_output(d)) {
    r.insert(r.end(), {{"multiplier", e.multiplier}, {"scaled", e.scaled}, {"bias_f32", e.bias_f32}, {"output_f32", e.output_f32}});
    value = e.output_f32;
  } else {
    r.insert(r.end(), {{"bias", static_cast<double>(e.bias)},
                       {"accumulator_with_bias", static_cast<double>(e.accumulator_with_bias)},
                       {"multiplier", e.multiplier},
                       {"scaled", e.scaled},
                       {"output", static_cast<double>(e.output)}});
    value = static_cast<double>(e.output);
  }
  if (e.has_reference) {
    r.emplace_back("reference", e.reference);
    r.emplace_back("diff", value - e.reference);
  }
  return r;
}

}  // namespace ptv
