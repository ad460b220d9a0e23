// annotation_checks.h — small readers the quantizer tests share: the spec on one input edge of an
// annotated node, and whether a spec is a given QuantizationSpec or a Shared spec to a given target.
#pragma once
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <variant>

#include "pt2e/quantizer.h"

namespace pt::test {

inline const OptionalQSpec& input_spec(const GraphModule& gm, const std::string& node, const std::string& input) {
  const Node* n = gm.graph.find(node);
  REQUIRE(n != nullptr);
  const QuantizationAnnotation* a = get_annotation(n);
  REQUIRE(a != nullptr);
  const OptionalQSpec* s = a->input_qspec(gm.graph.find(input));
  REQUIRE(s != nullptr);
  return *s;
}

inline bool is_spec(const OptionalQSpec& s, const std::optional<QuantizationSpec>& expected) {
  if (!expected) return !s.has_value();
  return s && std::holds_alternative<QuantizationSpec>(*s) && std::get<QuantizationSpec>(*s) == *expected;
}

inline bool is_shared(const OptionalQSpec& s, const EdgeOrNode& target) {
  return s && std::holds_alternative<SharedQuantizationSpec>(*s) &&
         std::get<SharedQuantizationSpec>(*s).edge_or_node == target;
}

}  // namespace pt::test
