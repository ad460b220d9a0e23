// graph_layout.h — layered top-to-bottom layout of a small directed acyclic graph (an exported
// program: tens to a few hundred nodes), for the graph view. Pure geometry: no ImGui; from the
// engine only its layers (pt::longest_path_layers, engine/graph/report.h).
//
//   GraphLayoutInput in;  in.sizes = {{120, 34}, ...};  in.edges = {{0, 2}, {1, 2}};
//   in.layers = {0, 0, 1};                // optional: the engine's ViewNode::layer of each node
//   GraphLayout out = layout_graph(in);   // out.boxes[i] = top-left + size of node i; out.routes
//
// The classic layered (Sugiyama) steps, kept simple:
//   1. layers: the given ones (a graph_view()'s, perhaps of a subset of its nodes), else the
//      longest path from the sources; a source (a parameter, an input), and a single-user node fed
//      only by such (a weight's observer or dequantize), then moves down to sit just above its
//      first consumer, so weights are drawn next to the conv that reads them; layers no node is
//      left in are dropped;
//   2. an edge spanning several layers gets one invisible dummy point per layer it crosses;
//   3. order within layers: barycenter sweeps down and up, keeping the order with fewest crossings;
//   4. x: each node moves toward the mean x of its neighbours (a leaf, e.g. a weight, follows its
//      op rather than pulling it), then the layer is placed by priority (long edges, ops, leaves)
//      so boxes keep their order and never overlap (gap >= h_gap) and a chain of ops stays straight;
//   5. y: layers stacked with v_gap between the tallest boxes of neighbouring layers.
#pragma once
#include <utility>
#include <vector>

namespace ptv {

struct LayoutPoint {
  float x = 0, y = 0;
};

struct GraphLayoutInput {
  std::vector<LayoutPoint> sizes;          // width, height of each node's box
  std::vector<std::pair<int, int>> edges;  // (from, to) node indices; from is drawn above to
  std::vector<int> layers;                 // empty, or one per node (>= 0) rising along every edge
  float h_gap = 24, v_gap = 36;
};

struct LayoutBox {
  float x = 0, y = 0, w = 0, h = 0;  // top-left corner and size
  int layer = 0;
};

struct GraphLayout {
  std::vector<LayoutBox> boxes;                  // one per node, same order as the input
  std::vector<std::vector<LayoutPoint>> routes;  // one per edge: bottom of `from`, dummies, top of `to`
  float width = 0, height = 0;
  int crossings = 0;  // edge crossings between neighbouring layers (dummies included)
};

// Throws pt::ValueError when an edge names a node out of range, the edges form a cycle, or given
// layers do not rise along an edge.
GraphLayout layout_graph(const GraphLayoutInput& in);

}  // namespace ptv
