// test_graph_metric.cpp — the graph view's per-node metric (web/views/graph_metric.h, the spec field
// `metric: { name, unit, values }`): a value per node name, its place on the colour scale, the legend's label,
// and the typed errors for a metric the view cannot draw.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "graph_metric.h"

using namespace ptv;

TEST_CASE("a graph metric: values by node name, the colour scale from the lowest to the highest, the legend") {
  const GraphMetric m{"SQNR", "dB", {{"conv2d", 30.0}, {"relu", 50.0}, {"linear", 40.0}}};
  CHECK(m.label() == "SQNR (dB)");
  CHECK(GraphMetric{"loss", "", {{"a", 1.0}}}.label() == "loss");
  CHECK(*m.of("relu") == 50.0);
  CHECK_FALSE(m.of("x"));  // a node without a value keeps its kind's colour
  CHECK(m.lo() == 30.0);
  CHECK(m.hi() == 50.0);
  CHECK(m.position(30.0) == 0.0);
  CHECK(m.position(40.0) == 0.5);
  CHECK(m.position(50.0) == 1.0);
  CHECK(m.position(99.0) == 1.0);  // clamped to the scale
  CHECK(GraphMetric{"SQNR", "dB", {{"a", 7.0}, {"b", 7.0}}}.position(7.0) == 0.5);  // one value: the middle
  CHECK(GraphMetric{}.empty());
  CHECK_NOTHROW(validate(GraphMetric{}, {}));
  CHECK_NOTHROW(validate(m, {"x", "conv2d", "relu", "linear", "output"}));
}

TEST_CASE("a graph metric the view cannot draw is a ValueError naming the problem") {
  const std::set<std::string> nodes{"conv2d", "relu"};
  auto message = [&](const GraphMetric& m) {
    try {
      validate(m, nodes);
    } catch (const pt::ValueError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message({"SQNR", "dB", {{"conv3", 1.0}}}), Catch::Contains("'conv3', which is a node of no stage"));
  CHECK_THAT(message({"SQNR", "dB", {{"relu", std::numeric_limits<double>::infinity()}}}), Catch::Contains("metric.values['relu'] is not finite"));
  CHECK_THAT(message({"SQNR", "dB", {{"relu", std::nan("")}}}), Catch::Contains("not finite"));
  CHECK_THAT(message({"", "dB", {{"relu", 1.0}}}), Catch::Contains("'metric' needs a name"));
}
