// graph_view.h — the graph view: an exported / prepared / converted program drawn top to bottom,
// one column per stage (export | prepare | convert) with the selection synced across them by node
// name. Boxes: observers green, quantize / dequantize purple, parameters yellow, inputs and outputs
// grey; with a per-node value (e.g. SQNR) the fill follows a colour scale with a legend. Each box
// shows the node's label, its name and (optionally) its annotation lines; hovering shows details
// (op, target, shape, annotations, qparams lines given by the page); a click selects a node in
// every stage; drag pans, the wheel zooms, a double click fits the view again.
// Focus: with `focus` names, only nodes within `hops` edges of them are drawn; show_params = false
// leaves out parameter (get_attr) nodes, which makes wide graphs readable at a glance.
// The data is graph_view() of the engine (engine/graph/report.h) per stage; the layout is
// graph_layout.h; nothing here knows quantization beyond the names it colours.
#pragma once
#include <string>
#include <vector>

#include "graph_layout.h"
#include "imgui.h"
#include "view_canvas.h"

namespace ptv {

struct GraphNodeData {
  std::string name, op, target, label;
  std::string shape;                     // e.g. "[4, 8, 16, 16] float32"; "" when unknown
  bool is_observer = false;
  std::vector<std::string> annotations;  // drawn in the box when show_annotations
  std::vector<std::string> details;      // extra hover lines (qparams, ...)
  bool has_value = false;
  double value = 0;
};

struct GraphEdgeData {
  std::string from, to;
};

struct GraphStage {
  std::string title;
  std::vector<GraphNodeData> nodes;
  std::vector<GraphEdgeData> edges;
};

struct GraphViewData {
  std::vector<GraphStage> stages;
  std::vector<std::string> focus;  // when not empty: only nodes within `hops` of these
  int hops = 1;
  bool show_annotations = true;
  bool show_params = true;         // false: get_attr nodes (weights, biases, BN buffers) are not drawn
  std::string value_label;         // legend title for node values, e.g. "SQNR (dB)"
};

// Throws pt::ValueError naming the field: duplicate node names, edges to unknown nodes, a cycle...
void validate(const GraphViewData& d);

class GraphView : public ViewContent {
 public:
  void set_data(GraphViewData d);
  void draw() override;
  int hovered_item() const override { return hovered_.stage < 0 ? -1 : hovered_.node; }
  const std::string& hovered_name() const;
  const std::string& selected_name() const { return selected_; }

  // What was laid out, per stage (after focus): node indices into the stage's nodes, boxes in
  // world coordinates, and the crossings count. Laid out on the first draw after set_data.
  struct StageLayout {
    std::vector<int> shown;  // indices into GraphStage::nodes
    std::vector<int> local;  // GraphStage::nodes index -> index into shown, -1 when not shown
    GraphLayout layout;      // boxes[i] belongs to nodes[shown[i]]
    float x = 0;             // the stage's left edge in world coordinates
  };
  const std::vector<StageLayout>& stage_layouts() const { return stages_; }
  // World (x, y) is drawn at canvas CSS pixel (screen_x + x * zoom, screen_y + y * zoom).
  float zoom() const { return zoom_; }
  ImVec2 screen_origin() const { return ImVec2(origin_.x + offset_.x, origin_.y + offset_.y); }

 private:
  struct Hit {
    int stage = -1, node = -1;  // node: index into GraphStage::nodes
  };
  void lay_out();
  void fit(ImVec2 avail);
  std::vector<std::string> box_lines(const GraphNodeData& n) const;

  GraphViewData data_;
  std::vector<StageLayout> stages_;
  bool needs_layout_ = true, needs_fit_ = true;
  float world_w_ = 0, world_h_ = 0;
  ImVec2 origin_{0, 0};  // the content origin in the last frame (canvas CSS pixels)
  ImVec2 offset_{0, 0};  // screen position of the world origin, relative to origin_
  float zoom_ = 1;
  double value_min_ = 0, value_max_ = 0;
  bool has_values_ = false;
  Hit hovered_;
  std::string selected_;
  bool dragging_ = false;
};

}  // namespace ptv
