// test_graph_view_qparams.cpp — what a graph view's hover shows of a node's qparams (graph_view's
// ViewNode::qparams): an observer's as its module describes them now, a quantize / dequantize node's from
// the node's own arguments — the scale, zero point and grid that convert_pt2e put into the graph.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/report.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

using namespace pt;

namespace {
const ViewNode& view_node(const GraphView& v, const std::string& name) {
  const auto it = std::find_if(v.nodes.begin(), v.nodes.end(), [&](const ViewNode& n) { return n.name == name; });
  REQUIRE(it != v.nodes.end());
  return *it;
}
std::string g4(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}
}  // namespace

TEST_CASE("graph_view: observers and q / dq nodes carry their qparams for the hover", "[graph_view]") {
  manual_seed(0);
  Model model = get_model("conv_relu");
  GraphModule gm = export_module(model, {randn({4, 3, 16, 16})});
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true}));
  GraphModule prepared = prepare_pt2e(gm, q);
  for (int i = 0; i < 2; ++i) prepared.forward({randn({4, 3, 16, 16})});

  // Every observer: one line, its module's describe() (as observer_placement_table shows it).
  const GraphView pv = graph_view(prepared);
  int observers = 0;
  for (const Node* n : observer_nodes(prepared)) {
    const ViewNode& vn = view_node(pv, n->name);
    REQUIRE(vn.qparams == std::vector<std::string>{"qparams: " + prepared.get_module(n->target)->describe()});
    CHECK(vn.qparams[0].find("scale=") != std::string::npos);
    ++observers;
  }
  CHECK(observers == 3);
  for (const ViewNode& vn : pv.nodes)
    if (!vn.is_observer) CHECK(vn.qparams.empty());

  // After convert: each per-tensor q / dq pair shows the scale and zero point in its arguments; the
  // weight's dequantize_per_channel the range of its stored scales.
  GraphModule converted = convert_pt2e(prepared);
  const GraphView cv = graph_view(converted);
  int per_tensor = 0, per_channel = 0;
  for (const Node* n : qdq_nodes(converted)) {
    const ViewNode& vn = view_node(cv, n->name);
    REQUIRE(vn.qparams.size() == 1);
    const auto& a = n->args();
    if (n->target.find("per_tensor") != std::string::npos) {
      const std::string want = "qparams: scale=" + g4(std::get<double>(a[1].v)) + " zp=" + std::to_string(std::get<int64_t>(a[2].v)) +
                               ", int8 [" + std::to_string(std::get<int64_t>(a[3].v)) + ", " + std::to_string(std::get<int64_t>(a[4].v)) + "]";
      CHECK(vn.qparams[0] == want);
      ++per_tensor;
    } else {
      const Tensor s = converted.get_tensor(a[1].node()->target);
      const auto [lo, hi] = std::minmax_element(s.span<float>().begin(), s.span<float>().end());
      CHECK(vn.qparams[0] == "qparams: per-channel, axis 0, " + std::to_string(s.numel()) + " scales in [" + g4(*lo) + ", " + g4(*hi) +
                                 "], int8 [-127, 127]");
      ++per_channel;
    }
  }
  CHECK(per_tensor == 4);   // x's and relu's quantize + dequantize
  CHECK(per_channel == 1);  // the weight's dequantize (its quantize was folded into the int8 weight)
}
