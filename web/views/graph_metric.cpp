// graph_metric.cpp — the graph view's per-node metric (graph_metric.h).
#include "graph_metric.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace ptv {

std::string GraphMetric::label() const { return unit.empty() ? name : name + " (" + unit + ")"; }

std::optional<double> GraphMetric::of(const std::string& node) const {
  const auto it = values.find(node);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

double GraphMetric::lo() const {
  double out = 0;
  for (auto it = values.begin(); it != values.end(); ++it) out = it == values.begin() ? it->second : std::min(out, it->second);
  return out;
}

double GraphMetric::hi() const {
  double out = 0;
  for (auto it = values.begin(); it != values.end(); ++it) out = it == values.begin() ? it->second : std::max(out, it->second);
  return out;
}

double GraphMetric::position(double v) const {
  const double a = lo(), b = hi();
  return b > a ? std::clamp((v - a) / (b - a), 0.0, 1.0) : 0.5;
}

void validate(const GraphMetric& m, const std::set<std::string>& nodes) {
  if (m.empty()) return;
  if (m.name.empty()) throw pt::ValueError("graph view: 'metric' needs a name (the legend's title), e.g. { name: 'SQNR', unit: 'dB', values }");
  for (const auto& [node, v] : m.values) {
    if (!std::isfinite(v)) throw pt::ValueError("graph view: metric.values['" + node + "'] is not finite (" + std::to_string(v) + ")");
    if (!nodes.count(node)) throw pt::ValueError("graph view: metric.values names '" + node + "', which is a node of no stage");
  }
}

}  // namespace ptv
