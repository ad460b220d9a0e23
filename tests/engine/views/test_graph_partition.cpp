// test_graph_partition.cpp — the graph view's partition field (web/views/graph_partition.h): each node's mark
// and reason, the legend's counts, and the typed errors for names that are unknown or listed twice.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "graph_partition.h"

using namespace ptv;

namespace {

GraphPartition lowered_like() {
  GraphPartition p;
  p.backend = "xnnpack";
  p.delegated = {"conv2d", "relu", "quantize_per_tensor"};
  p.float_nodes = {{"sigmoid", "no int8 pattern for sigmoid"}};
  return p;
}

const std::set<std::string> kNodes{"x", "conv2d", "relu", "quantize_per_tensor", "sigmoid", "output"};

}  // namespace

TEST_CASE("partition: delegated, float with its reason, unmarked", "[partition]") {
  const PartitionIndex idx(lowered_like());
  CHECK(idx.mark("conv2d") == PartitionMark::delegated);
  CHECK(idx.mark("sigmoid") == PartitionMark::float_op);
  CHECK(idx.reason("sigmoid") == "no int8 pattern for sigmoid");
  CHECK(idx.reason("conv2d").empty());
  CHECK(idx.mark("x") == PartitionMark::none);
  CHECK(PartitionIndex().empty());
  CHECK_FALSE(idx.empty());
  CHECK_NOTHROW(validate(lowered_like(), kNodes));
  CHECK(partition_legend(lowered_like(), 3, 1) == std::make_pair(std::string("delegated to xnnpack (3)"), std::string("float (1)")));
}

TEST_CASE("partition: an unknown name or a name listed twice is a ValueError naming it", "[partition]") {
  GraphPartition unknown = lowered_like();
  unknown.delegated.push_back("linear");
  CHECK_THROWS_AS(validate(unknown, kNodes), pt::ValueError);
  CHECK_THROWS_WITH(validate(unknown, kNodes), Catch::Contains("'linear'") && Catch::Contains("partition.delegated"));
  GraphPartition twice = lowered_like();
  twice.float_nodes.push_back({"relu", "?"});
  CHECK_THROWS_WITH(validate(twice, kNodes), Catch::Contains("'relu' twice"));
}
