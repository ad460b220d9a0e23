// graph_view.h — the graph view: an exported / prepared / converted program drawn top to bottom,
// one column per stage (export | prepare | convert) with the selection synced across them by node
// name. Boxes by node kind (pt::NodeKind): observers green, quantize / dequantize / choose_qparams
// purple, parameters yellow, inputs and outputs grey; with a per-node metric (graph_metric.h, e.g. SQNR by
// node name) the fill follows a colour scale with a legend, and the hover names the node's value. Each box shows the node's label, its name and (optionally)
// its annotation lines; hovering shows details (op, target, shape, annotations, qparams lines); a
// click selects a node in every stage. A stage's `changed` nodes (what it added to the stage before:
// prepare's observers, convert's q / dq) are outlined in the range colour, counted next to its title.
// Readable at lesson size (graph_viewport.h): the first view never shrinks text below a readable
// scale; a graph too big for the canvas opens on its focused nodes (else its top-left) and shows
// an overview in the bottom-right corner (the whole graph, the part in view outlined, selected
// nodes marked; click or drag in it to move there). Drag pans, ctrl + wheel zooms about the pointer
// (a plain wheel scrolls the page: web/app/views.js), a horizontal wheel pans; the buttons bottom-right (shown while the pointer is over the view)
// zoom out / in and switch between the readable view and "fit all" (the whole graph, however
// small); a double click on the background goes back to the first view. Stage titles stay at the
// top while panning. A click selects only when the pointer did not move: a drag from a node pans.
// Focus: with `focus` names, only nodes within `hops` edges of them are drawn; show_params = false
// leaves out parameter (get_attr) nodes, which makes wide graphs readable at a glance.
// The data is the engine's own view data, pt::GraphView (graph_view() in engine/graph/report.h), per
// stage; the layout (graph_layout.h) puts nodes in the layers graph_view() gave them (when every node
// of a stage has one, else it finds them); nothing here knows quantization beyond the kinds it colours.
// Partition (graph_partition.h): nodes a backend delegated get a blue band on their left edge, nodes that
// stayed float an orange one; the hover says why a node stayed float; a legend line counts both.
#pragma once
#include <string>
#include <vector>

#include "graph/report.h"
#include "graph_layout.h"
#include "graph_metric.h"
#include "graph_partition.h"
#include "graph_viewport.h"
#include "imgui.h"
#include "view_content.h"

namespace ptv {

struct GraphStage {
  std::string title;
  pt::GraphView graph;               // nodes and edges as graph_view() gives them
  std::vector<std::string> changed;  // nodes new in this stage (what prepare / convert added): outlined
};

struct GraphViewData {
  std::vector<GraphStage> stages;
  std::vector<std::string> focus;  // when not empty: only nodes within `hops` of these
  int hops = 1;
  bool show_annotations = true;
  bool show_params = true;         // false: get_attr nodes (weights, biases, BN buffers) are not drawn
  GraphMetric metric;              // a number per node name, drawn as the boxes' fill with a legend
  GraphPartition partition;        // delegated / float nodes, marked with a legend (graph_partition.h)
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
    std::vector<int> shown;  // indices into the stage's graph.nodes
    std::vector<int> local;  // graph.nodes index -> index into shown, -1 when not shown
    GraphLayout layout;      // boxes[i] belongs to nodes[shown[i]]
    float x = 0;             // the stage's left edge in world coordinates
    std::vector<char> changed;  // graph.nodes index -> named in the stage's `changed`
    int changed_shown = 0;      // how many of the shown nodes are changed (outlined)
  };
  const std::vector<StageLayout>& stage_layouts() const { return stages_; }
  // World (x, y) is drawn at canvas CSS pixel (screen_x + x * zoom, screen_y + y * zoom).
  float zoom() const { return view_.zoom; }
  ImVec2 screen_origin() const { return ImVec2(origin_.x + view_.x, origin_.y + view_.y); }
  bool fit_all() const { return fit_all_; }      // the "fit all" button is on (else: readable first view)
  bool shows_all() const { return shows_all_; }  // the whole graph is in view (no overview drawn)
  // The canvas height (CSS pixels) at which the whole graph shows at a readable scale for the
  // current width (a page may grow the canvas toward it, up to its own cap); 0 before the first draw.
  float content_height() const { return content_height_; }

 private:
  struct Hit {
    int stage = -1, node = -1;  // node: index into the stage's graph.nodes
  };
  void lay_out();
  std::vector<std::string> box_lines(const pt::ViewNode& n) const;
  ImU32 fill_of(const pt::ViewNode& n) const;
  void draw_partition_mark(ImDrawList* dl, const std::string& node, ImVec2 p0, ImVec2 p1, float zoom) const;
  void draw_partition_legend(ImDrawList* dl, ImVec2 at) const;

  GraphViewData data_;
  std::vector<StageLayout> stages_;
  bool needs_layout_ = true, needs_fit_ = true;
  float world_w_ = 0, world_h_ = 0;
  WorldRect focus_box_;            // the focused nodes' boxes (world), when data_.focus names any
  bool has_focus_box_ = false;
  ImVec2 origin_{0, 0};            // the content origin in the last frame (canvas CSS pixels)
  ImVec2 last_avail_{0, 0};        // the content size in the last frame
  ViewTransform view_;             // relative to origin_
  bool fit_all_ = false, user_moved_ = false, shows_all_ = true;
  float content_height_ = 0;
  PartitionIndex partition_;
  Hit hovered_;
  std::string selected_;
  bool dragging_ = false, minimap_drag_ = false;
  ViewTransform press_view_;       // the view when the left button went down (a drag pans from it)
  std::string press_node_;         // the node under that press ("" for the background)
};

}  // namespace ptv
