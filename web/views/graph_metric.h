// graph_metric.h — the graph view's per-node metric, the spec field `metric: { name, unit, values }`: one number
// per node name (e.g. the numeric debugger's SQNR, pt.sqnr_by_node), the same in every stage that has a node of
// that name (an op and the q / dq convert made of it carry the op's value when the caller names them). Nodes with
// a value are filled on a colour scale from the metric's lowest to its highest value; the legend reads
// "name (unit)  lo [scale] hi". Plain data and checks, no ImGui, so the native tests reach it
// (tests/engine/views/test_graph_metric.cpp); graph_view.cpp draws it.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>

namespace ptv {

struct GraphMetric {
  std::string name;                      // "SQNR"
  std::string unit;                      // "dB" (may be empty)
  std::map<std::string, double> values;  // node name -> value; empty: no metric, boxes keep their kind's colour

  bool empty() const { return values.empty(); }
  // The legend's title and the hover line's label: "SQNR (dB)", or the name alone without a unit.
  std::string label() const;
  std::optional<double> of(const std::string& node) const;
  double lo() const;  // the lowest / highest value (0 when empty)
  double hi() const;
  // Where v sits on the colour scale, in [0, 1]: 0 at lo(), 1 at hi(), 0.5 when all values are equal.
  double position(double v) const;
};

// ValueError naming the problem: values without a name, a value that is not finite, a node name that no stage
// has (`nodes`: every node name of every stage).
void validate(const GraphMetric& m, const std::set<std::string>& nodes);

}  // namespace ptv
