// graph_view.cpp — draws GraphViewData (see graph_view.h): focus filter, layout per stage, boxes,
// edges with arrowheads, hover details, synced selection, pan / zoom / fit.
#include "graph_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "chart_common.h"
#include "core/error.h"
#include "view_style.h"

namespace ptv {

namespace {

constexpr float kStageGap = 48, kPad = 8;

struct BoxStyle {
  ImU32 fill, border;
};

BoxStyle style_of(const pt::ViewNode& n) {
  switch (n.kind) {
    case pt::NodeKind::observer: return {IM_COL32(214, 240, 220, 255), IM_COL32(46, 158, 79, 255)};
    case pt::NodeKind::quantize:
    case pt::NodeKind::dequantize:
    case pt::NodeKind::choose_qparams: return {IM_COL32(233, 222, 247, 255), IM_COL32(130, 80, 190, 255)};
    case pt::NodeKind::delegate: return {IM_COL32(214, 232, 250, 255), IM_COL32(40, 110, 190, 255)};
    case pt::NodeKind::placeholder:
    case pt::NodeKind::output: return {IM_COL32(236, 238, 241, 255), IM_COL32(120, 126, 134, 255)};
    case pt::NodeKind::get_attr: return {IM_COL32(253, 246, 214, 255), IM_COL32(190, 160, 60, 255)};
    case pt::NodeKind::op: break;
  }
  return {IM_COL32(255, 255, 255, 255), IM_COL32(66, 133, 214, 255)};
}

// "[4, 8, 16, 16] float32" for the hover; the shape or the dtype alone when only one is known.
std::string shape_text(const pt::ViewNode& n) {
  const std::string shape = n.shape.empty() ? "" : pt::shape_str(n.shape);
  return shape + (shape.empty() || n.dtype.empty() ? "" : " ") + n.dtype;
}

// The layers graph_view() gave a stage's nodes, or none when some node has none (view data made
// by hand): the layout then finds them.
bool has_layers(const pt::GraphView& g) {
  return std::all_of(g.nodes.begin(), g.nodes.end(), [](const pt::ViewNode& n) { return n.layer >= 0; });
}

// Low values red, high values blue (a diverging scale readable with colour-vision deficiencies).
ImU32 value_colour(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const ImVec4 lo(0.96f, 0.65f, 0.51f, 1), mid(0.97f, 0.97f, 0.97f, 1), hi(0.57f, 0.77f, 0.87f, 1);
  const float u = static_cast<float>(t < 0.5 ? t * 2 : (t - 0.5) * 2);
  const ImVec4 a = t < 0.5 ? lo : mid, b = t < 0.5 ? mid : hi;
  return ImGui::ColorConvertFloat4ToU32(ImVec4(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u, 1));
}

// The partition's marks: a band on a box's left edge, and the legend's swatches.
constexpr ImU32 kDelegated = IM_COL32(40, 110, 190, 255), kStaysFloat = IM_COL32(230, 120, 20, 255);

void arrow_head(ImDrawList* dl, ImVec2 tip, ImVec2 from, ImU32 col, float size) {
  const float dx = tip.x - from.x, dy = tip.y - from.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f) return;
  const float ux = dx / len, uy = dy / len;
  dl->AddTriangleFilled(tip, ImVec2(tip.x - ux * size - uy * size * 0.5f, tip.y - uy * size + ux * size * 0.5f),
                        ImVec2(tip.x - ux * size + uy * size * 0.5f, tip.y - uy * size - ux * size * 0.5f), col);
}

}  // namespace

void validate(const GraphViewData& d) {
  if (d.stages.empty() || d.stages.size() > 6)
    throw pt::ValueError("graph view: 1 to 6 stages expected, got " + std::to_string(d.stages.size()));
  if (d.hops < 0 || d.hops > 50) throw pt::ValueError("graph view: 'hops' must be in 0..50, got " + std::to_string(d.hops));
  std::set<std::string> everywhere;
  for (size_t s = 0; s < d.stages.size(); ++s) {
    const GraphStage& st = d.stages[s];
    const std::vector<pt::ViewNode>& nodes = st.graph.nodes;
    const std::vector<pt::ViewEdge>& edges = st.graph.edges;
    const std::string where = "graph view: stage " + std::to_string(s) + (st.title.empty() ? "" : " ('" + st.title + "')");
    if (nodes.size() > 2000) throw pt::ValueError(where + " has " + std::to_string(nodes.size()) + " nodes; at most 2000 are drawn");
    std::map<std::string, int> index;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].name.empty()) throw pt::ValueError(where + ": nodes[" + std::to_string(i) + "] has no name");
      if (!index.emplace(nodes[i].name, static_cast<int>(i)).second)
        throw pt::ValueError(where + ": two nodes are named '" + nodes[i].name + "'");
      everywhere.insert(nodes[i].name);
    }
    // The layout checks that the edges form no cycle, or go down the layers graph_view() gave.
    GraphLayoutInput probe;
    probe.sizes.resize(nodes.size());
    if (has_layers(st.graph))
      for (const pt::ViewNode& n : nodes) probe.layers.push_back(static_cast<int>(n.layer));
    for (size_t e = 0; e < edges.size(); ++e) {
      const auto a = index.find(edges[e].from), b = index.find(edges[e].to);
      if (a == index.end() || b == index.end())
        throw pt::ValueError(where + ": edges[" + std::to_string(e) + "] joins '" + edges[e].from + "' -> '" + edges[e].to + "', but " +
                             (a == index.end() ? edges[e].from : edges[e].to) + " is not a node");
      probe.edges.emplace_back(a->second, b->second);
    }
    try {
      layout_graph(probe);
    } catch (const pt::Error& e) {
      throw pt::ValueError(where + ": " + e.what());
    }
  }
  validate(d.metric, everywhere);
  for (const std::string& f : d.focus)
    if (!everywhere.count(f)) throw pt::ValueError("graph view: focus names '" + f + "', which is in no stage");
  validate(d.partition, everywhere);
  for (size_t s = 0; s < d.stages.size(); ++s)
    for (const std::string& c : d.stages[s].changed)
      if (std::none_of(d.stages[s].graph.nodes.begin(), d.stages[s].graph.nodes.end(), [&](const pt::ViewNode& n) { return n.name == c; }))
        throw pt::ValueError("graph view: stage " + std::to_string(s) + "'s 'changed' names '" + c + "', which is not a node of that stage");
}

void GraphView::set_data(GraphViewData d) {
  validate(d);
  data_ = std::move(d);
  needs_layout_ = needs_fit_ = true;
  hovered_ = {};
  partition_ = PartitionIndex(data_.partition);
}

const std::string& GraphView::hovered_name() const {
  static const std::string none;
  return hovered_.stage < 0 ? none : data_.stages[hovered_.stage].graph.nodes[hovered_.node].name;
}

std::vector<std::string> GraphView::box_lines(const pt::ViewNode& n) const {
  std::vector<std::string> lines{n.label.empty() ? n.name : n.label};
  if (!n.label.empty() && n.label != n.name) lines.push_back(n.name);
  if (data_.show_annotations)
    for (const std::string& a : n.annotations) lines.push_back(a);
  return lines;
}

// Lays out every stage (needs the font for box sizes, so it runs inside a frame).
void GraphView::lay_out() {
  stages_.clear();
  has_focus_box_ = false;
  const float line_h = ImGui::GetTextLineHeight();
  float x = 0;
  world_h_ = 0;
  for (const GraphStage& st : data_.stages) {
    const std::vector<pt::ViewNode>& nodes = st.graph.nodes;
    std::map<std::string, int> index;
    for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i].name] = static_cast<int>(i);
    std::vector<std::vector<int>> nb(nodes.size());  // undirected, for focus
    for (const pt::ViewEdge& e : st.graph.edges) {
      nb[index[e.from]].push_back(index[e.to]);
      nb[index[e.to]].push_back(index[e.from]);
    }
    std::vector<int> dist(nodes.size(), data_.focus.empty() ? 0 : -1);
    std::vector<int> frontier;
    for (const std::string& f : data_.focus)
      if (index.count(f)) {
        dist[index[f]] = 0;
        frontier.push_back(index[f]);
      }
    for (int h = 0; h < data_.hops && !frontier.empty(); ++h) {
      std::vector<int> next;
      for (int v : frontier)
        for (int w : nb[v])
          if (dist[w] < 0) {
            dist[w] = h + 1;
            next.push_back(w);
          }
      frontier = std::move(next);
    }
    StageLayout sl;
    sl.local.assign(nodes.size(), -1);
    sl.changed.assign(nodes.size(), 0);
    for (size_t i = 0; i < nodes.size(); ++i)
      sl.changed[i] = std::find(st.changed.begin(), st.changed.end(), nodes[i].name) != st.changed.end();
    GraphLayoutInput in;
    in.h_gap = 18;  // compact: more of the graph at a readable scale
    in.v_gap = 28;
    const bool layered = has_layers(st.graph);
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (dist[i] < 0 || (!data_.show_params && nodes[i].kind == pt::NodeKind::get_attr)) continue;
      sl.local[i] = static_cast<int>(sl.shown.size());
      sl.shown.push_back(static_cast<int>(i));
      sl.changed_shown += sl.changed[i];
      if (layered) in.layers.push_back(static_cast<int>(nodes[i].layer));
      float w = 0;
      const auto lines = box_lines(nodes[i]);
      for (const std::string& l : lines) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
      in.sizes.push_back({w + 2 * kPad, static_cast<float>(lines.size()) * line_h + kPad});
    }
    for (const pt::ViewEdge& e : st.graph.edges) {
      const int a = sl.local[index[e.from]], b = sl.local[index[e.to]];
      if (a >= 0 && b >= 0) in.edges.emplace_back(a, b);
    }
    sl.layout = layout_graph(in);
    sl.x = x;
    if (!data_.focus.empty())
      for (size_t i = 0; i < sl.shown.size(); ++i) {
        if (dist[sl.shown[i]] != 0) continue;
        const LayoutBox& b = sl.layout.boxes[i];
        const WorldRect r{x + b.x, b.y, x + b.x + b.w, b.y + b.h};
        focus_box_ = has_focus_box_ ? WorldRect{std::min(focus_box_.x0, r.x0), std::min(focus_box_.y0, r.y0), std::max(focus_box_.x1, r.x1), std::max(focus_box_.y1, r.y1)} : r;
        has_focus_box_ = true;
      }
    const float title_w = st.title.empty() ? 0 : ImGui::CalcTextSize(st.title.c_str()).x;
    x += std::max(sl.layout.width, title_w) + kStageGap;
    world_h_ = std::max(world_h_, sl.layout.height);
    stages_.push_back(std::move(sl));
  }
  world_w_ = std::max(0.0f, x - kStageGap);
  needs_layout_ = false;
}

ImU32 GraphView::fill_of(const pt::ViewNode& n) const {
  if (const auto v = data_.metric.of(n.name)) return value_colour(data_.metric.position(*v));
  return style_of(n).fill;
}

// A delegated node gets a blue band on its box's left edge, a node that stayed float an orange one.
void GraphView::draw_partition_mark(ImDrawList* dl, const std::string& node, ImVec2 p0, ImVec2 p1, float zoom) const {
  const PartitionMark m = partition_.mark(node);
  if (m == PartitionMark::none) return;
  dl->AddRectFilled(p0, ImVec2(p0.x + std::max(3.0f, 5 * zoom), p1.y), m == PartitionMark::delegated ? kDelegated : kStaysFloat, 4 * zoom,
                    ImDrawFlags_RoundCornersLeft);
}

// "▮ delegated to xnnpack (n)  ▮ float (m)", counting the marked nodes shown in every stage.
void GraphView::draw_partition_legend(ImDrawList* dl, ImVec2 at) const {
  int delegated = 0, stays_float = 0;
  for (size_t s = 0; s < stages_.size(); ++s)
    for (int i : stages_[s].shown) {
      const PartitionMark m = partition_.mark(data_.stages[s].graph.nodes[i].name);
      delegated += m == PartitionMark::delegated;
      stays_float += m == PartitionMark::float_op;
    }
  const auto [first, second] = partition_legend(data_.partition, delegated, stays_float);
  const float h = ImGui::GetTextLineHeight();
  dl->AddRectFilled(ImVec2(at.x, at.y + 2), ImVec2(at.x + 6, at.y + h - 2), kDelegated);
  dl->AddText(ImVec2(at.x + 10, at.y), palette::kText, first.c_str());
  const float x = at.x + 10 + ImGui::CalcTextSize(first.c_str()).x + 16;
  dl->AddRectFilled(ImVec2(x, at.y + 2), ImVec2(x + 6, at.y + h - 2), kStaysFloat);
  dl->AddText(ImVec2(x + 10, at.y), palette::kText, second.c_str());
}

void GraphView::draw() {
  if (needs_layout_) lay_out();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.x < 20 || avail.y < 20) return;
  origin_ = origin;
  ImGuiIO& io = ImGui::GetIO();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line_h = ImGui::GetTextLineHeight();
  const float title_h = line_h + 10, legend_h = (data_.metric.empty() ? 0 : line_h + 8) + (partition_.empty() ? 0 : line_h + 8);
  // Everything below is relative to origin: the graph's area (under the stage titles, above the
  // legend), the world's extent, the pointer.
  const WorldRect area{0, title_h, avail.x, avail.y - legend_h};
  const WorldRect world{0, 0, std::max(1.0f, world_w_), std::max(1.0f, world_h_)};
  const ImVec2 mouse(io.MousePos.x - origin.x, io.MousePos.y - origin.y);
  const ViewportOptions opts = [&] {
    ViewportOptions o;
    o.fit_all = fit_all_;
    return o;
  }();
  if (avail.x != last_avail_.x || avail.y != last_avail_.y) {  // resized: a view nobody moved is fitted again
    if (!user_moved_) needs_fit_ = true;
    last_avail_ = avail;
  }
  auto refit = [&] {
    view_ = initial_view(world, area, has_focus_box_ ? &focus_box_ : nullptr, opts);
    needs_fit_ = user_moved_ = false;
  };
  if (needs_fit_) refit();
  {
    const float zw = std::min(opts.max_zoom, (area.w() - 2 * opts.margin) / world.w());
    content_height_ = title_h + legend_h + 2 * opts.margin + world.h() * std::max(zw, opts.min_zoom) + 2 * ImGui::GetStyle().WindowPadding.y;
  }

  // Controls: zoom out / in / fit-all buttons bottom-right (while the pointer is over the view, or
  // in fit-all mode), the overview in the corner under them (while the graph is not wholly shown).
  const bool over_view = ImGui::IsWindowHovered();
  const bool whole = ptv::shows_all(world, area, view_);
  struct Button {
    WorldRect r;
    const char* label;
    const char* tip;
  };
  const Minimap map = minimap_box(world, area, std::min(150.0f, area.w() * 0.25f), std::min(90.0f, area.h() * 0.4f));
  std::vector<Button> buttons;  // bottom right: above the overview, or in the corner
  if (over_view || fit_all_) {
    const char* labels[3] = {"-", "+", fit_all_ ? "readable" : "fit all"};
    const char* tips[3] = {"zoom out (or ctrl + wheel)", "zoom in (or ctrl + wheel)",
                           fit_all_ ? "back to readable text: drag to pan, the overview shows where you are" : "show the whole graph (small text)"};
    const float bottom = whole ? area.y1 - 4 : map.box.y0 - 8, h = line_h + 4;
    float right = area.x1 - 3;
    for (int k = 2; k >= 0; --k) {
      const float w = ImGui::CalcTextSize(labels[k]).x + 14;
      buttons.insert(buttons.begin(), {{right - w, bottom - h, right, bottom}, labels[k], tips[k]});
      right -= w + 3;
    }
  }
  int hot_button = -1;
  bool over_map = false;
  if (over_view) {
    for (size_t k = 0; k < buttons.size(); ++k)
      if (buttons[k].r.contains(mouse.x, mouse.y)) hot_button = static_cast<int>(k);
    over_map = !whole && map.box.contains(mouse.x, mouse.y);
  }
  auto to_screen = [&](float x, float y) { return ImVec2(origin.x + view_.x + x * view_.zoom, origin.y + view_.y + y * view_.zoom); };

  // Hit test (before drawing, so the hovered node is highlighted in this frame); not through the
  // controls, and only inside the graph's area.
  hovered_ = {};
  if (over_view && hot_button < 0 && !over_map && !minimap_drag_ && area.contains(mouse.x, mouse.y)) {
    for (size_t s = 0; s < stages_.size() && hovered_.stage < 0; ++s)
      for (size_t i = 0; i < stages_[s].shown.size(); ++i) {
        const LayoutBox& b = stages_[s].layout.boxes[i];
        const ImVec2 p0 = to_screen(stages_[s].x + b.x, b.y), p1 = to_screen(stages_[s].x + b.x + b.w, b.y + b.h);
        if (io.MousePos.x >= p0.x && io.MousePos.x <= p1.x && io.MousePos.y >= p0.y && io.MousePos.y <= p1.y) {
          hovered_ = {static_cast<int>(s), stages_[s].shown[i]};
          break;
        }
      }
  }
  // Interaction: buttons, the overview, a click selects (synced by name), drag pans, wheel zooms.
  const ImVec2 centre((area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2);
  bool moved = false;
  if (over_view && hot_button < 0 && !over_map && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && hovered_.stage < 0) {
    refit();
  } else if (over_view && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    if (hot_button == 0 || hot_button == 1) {
      view_ = zoom_about(view_, hot_button == 0 ? view_.zoom / 1.25f : view_.zoom * 1.25f, centre.x, centre.y);
      moved = true;
    } else if (hot_button == 2) {
      fit_all_ = !fit_all_;
      ViewportOptions o = opts;
      o.fit_all = fit_all_;
      view_ = initial_view(world, area, has_focus_box_ ? &focus_box_ : nullptr, o);
      user_moved_ = false;
    } else if (over_map) {
      minimap_drag_ = true;
    } else {  // on a node or the background: a drag pans, a click (no drag) on a node selects it
      dragging_ = true;
      press_view_ = view_;
      press_node_ = hovered_name();
    }
  }
  // A press that moved more than a few pixels is a drag (pans from where the press was).
  const bool drag_moved = io.MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] > 16;
  if (dragging_ && drag_moved) {
    const ImVec2 d = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0);
    view_.x = press_view_.x + d.x;
    view_.y = press_view_.y + d.y;
    moved = true;
  }
  if (dragging_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !drag_moved && !press_node_.empty() && press_node_ == hovered_name())
    selected_ = selected_ == press_node_ ? "" : press_node_;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) dragging_ = minimap_drag_ = false;
  if (minimap_drag_ && !whole) {
    view_ = centre_on(view_, world.x0 + (mouse.x - map.box.x0) / map.scale, world.y0 + (mouse.y - map.box.y0) / map.scale, area);
    moved = true;
  }
  if (over_view && io.MouseWheel != 0) {
    view_ = zoom_about(view_, view_.zoom * std::pow(1.15f, io.MouseWheel), mouse.x, mouse.y);
    moved = true;
  }
  if (over_view && io.MouseWheelH != 0) {
    view_.x += io.MouseWheelH * 40;
    moved = true;
  }
  if (moved) {
    view_ = keep_visible(view_, world, area);
    user_moved_ = true;
  }
  shows_all_ = ptv::shows_all(world, area, view_);

  dl->PushClipRect(ImVec2(origin.x, origin.y + area.y0), ImVec2(origin.x + area.x1, origin.y + area.y1), true);
  ImFont* font = ImGui::GetFont();
  const float zoom = view_.zoom, font_px = ImGui::GetFontSize() * zoom;
  for (size_t s = 0; s < stages_.size(); ++s) {
    const GraphStage& st = data_.stages[s];
    const StageLayout& sl = stages_[s];
    // Edges first, under the boxes; those of the hovered or selected node stand out.
    std::map<std::string, int> index;
    for (size_t i = 0; i < st.graph.nodes.size(); ++i) index[st.graph.nodes[i].name] = static_cast<int>(i);
    size_t route = 0;
    for (const pt::ViewEdge& e : st.graph.edges) {
      const int a = index[e.from], b = index[e.to];
      if (sl.local[a] < 0 || sl.local[b] < 0) continue;
      const auto& pts = sl.layout.routes[route++];
      const bool lit = (!selected_.empty() && (e.from == selected_ || e.to == selected_)) ||
                       (hovered_.stage == static_cast<int>(s) && (a == hovered_.node || b == hovered_.node));
      const ImU32 col = lit ? palette::kBarHover : palette::kAxis;
      std::vector<ImVec2> screen;
      for (const LayoutPoint& p : pts) screen.push_back(to_screen(sl.x + p.x, p.y));
      dl->AddPolyline(screen.data(), static_cast<int>(screen.size()), col, 0, lit ? 2.0f : 1.2f);
      arrow_head(dl, screen.back(), screen[screen.size() - 2], col, 7 * std::max(0.6f, zoom));
    }
    for (size_t i = 0; i < sl.shown.size(); ++i) {
      const pt::ViewNode& n = st.graph.nodes[sl.shown[i]];
      const LayoutBox& b = sl.layout.boxes[i];
      const ImVec2 p0 = to_screen(sl.x + b.x, b.y), p1 = to_screen(sl.x + b.x + b.w, b.y + b.h);
      const BoxStyle style = style_of(n);
      const bool sel = !selected_.empty() && n.name == selected_;
      const bool hov = hovered_.stage == static_cast<int>(s) && hovered_.node == sl.shown[i];
      dl->AddRectFilled(p0, p1, fill_of(n), 4 * zoom);
      dl->AddRect(p0, p1, sel ? palette::kText : style.border, 4 * zoom, 0, sel ? 3.0f : hov ? 2.0f : 1.0f);
      draw_partition_mark(dl, n.name, p0, p1, zoom);
      if (sl.changed[sl.shown[i]]) {  // new in this stage: an outline in the range colour around the box
        const float o = 3 * zoom;
        dl->AddRect(ImVec2(p0.x - o, p0.y - o), ImVec2(p1.x + o, p1.y + o), palette::kRange, 6 * zoom, 0, 2.0f);
      }
      if (font_px >= 5) {
        const auto lines = box_lines(n);
        for (size_t k = 0; k < lines.size(); ++k) {
          const ImU32 col = k == 0 ? palette::kText : palette::kMuted;
          dl->AddText(font, font_px, ImVec2(p0.x + kPad * zoom, p0.y + (kPad / 2 + line_h * static_cast<float>(k)) * zoom), col, lines[k].c_str());
        }
      }
    }
  }
  dl->PopClipRect();

  // Stage titles, kept in the title band while the view pans (and inside their stage's columns).
  for (size_t s = 0; s < stages_.size(); ++s) {
    const GraphStage& st = data_.stages[s];
    if (st.title.empty()) continue;
    const StageLayout& sl = stages_[s];
    const float tw = ImGui::CalcTextSize(st.title.c_str()).x;
    const float left = to_screen(sl.x, 0).x, right = to_screen(sl.x + sl.layout.width, 0).x;
    const float x = std::max(std::min(origin.x + 4, right - tw), left);
    const float y = std::max(origin.y + 4, to_screen(0, 0).y - line_h - 6);
    dl->PushClipRect(ImVec2(std::max(origin.x, left), origin.y), ImVec2(right + (kStageGap - 6) * zoom, origin.y + avail.y), true);
    dl->AddText(ImVec2(x, y), palette::kText, st.title.c_str());
    if (sl.changed_shown > 0) {  // how many nodes this stage added, in the outline's colour
      const std::string added = "  +" + std::to_string(sl.changed_shown) + " new";
      dl->AddText(ImVec2(x + tw, y), palette::kRange, added.c_str());
    }
    dl->PopClipRect();
  }

  if (!shows_all_) {  // the overview: whole graph, the part in view outlined, selected nodes marked
    const ImVec2 m0(origin.x + map.box.x0, origin.y + map.box.y0), m1(origin.x + map.box.x1, origin.y + map.box.y1);
    dl->AddRectFilled(ImVec2(m0.x - 3, m0.y - 3), ImVec2(m1.x + 3, m1.y + 3), IM_COL32(255, 255, 255, 235), 3);
    dl->AddRect(ImVec2(m0.x - 3, m0.y - 3), ImVec2(m1.x + 3, m1.y + 3), over_map || minimap_drag_ ? palette::kBarHover : palette::kGrid, 3);
    auto to_map = [&](float x, float y) { return ImVec2(m0.x + (x - world.x0) * map.scale, m0.y + (y - world.y0) * map.scale); };
    for (size_t s = 0; s < stages_.size(); ++s) {
      const GraphStage& st = data_.stages[s];
      const StageLayout& sl = stages_[s];
      for (size_t i = 0; i < sl.shown.size(); ++i) {
        const pt::ViewNode& n = st.graph.nodes[sl.shown[i]];
        const LayoutBox& b = sl.layout.boxes[i];
        ImVec2 p0 = to_map(sl.x + b.x, b.y), p1 = to_map(sl.x + b.x + b.w, b.y + b.h);
        p1 = ImVec2(std::max(p1.x, p0.x + 1), std::max(p1.y, p0.y + 1));
        dl->AddRectFilled(p0, p1, data_.metric.of(n.name) ? fill_of(n) : style_of(n).border);
        if (!selected_.empty() && n.name == selected_)
          dl->AddRect(ImVec2(p0.x - 2, p0.y - 2), ImVec2(p1.x + 2, p1.y + 2), palette::kText, 0, 0, 1.5f);
      }
    }
    const WorldRect seen = visible_world(area, view_);
    const ImVec2 v0 = to_map(std::max(seen.x0, world.x0), std::max(seen.y0, world.y0));
    const ImVec2 v1 = to_map(std::min(seen.x1, world.x1), std::min(seen.y1, world.y1));
    if (v1.x > v0.x && v1.y > v0.y) {
      dl->AddRectFilled(v0, v1, IM_COL32(25, 90, 170, 28));
      dl->AddRect(v0, v1, palette::kBarHover, 0, 0, 1.5f);
    }
  }

  for (size_t k = 0; k < buttons.size(); ++k) {
    const ImVec2 b0(origin.x + buttons[k].r.x0, origin.y + buttons[k].r.y0), b1(origin.x + buttons[k].r.x1, origin.y + buttons[k].r.y1);
    const bool hot = hot_button == static_cast<int>(k);
    dl->AddRectFilled(b0, b1, hot ? IM_COL32(226, 236, 251, 255) : IM_COL32(248, 249, 250, 255), 3);
    dl->AddRect(b0, b1, hot ? palette::kBarHover : palette::kGrid, 3);
    const ImVec2 ts = ImGui::CalcTextSize(buttons[k].label);
    dl->AddText(ImVec2((b0.x + b1.x - ts.x) / 2, (b0.y + b1.y - ts.y) / 2), palette::kText, buttons[k].label);
  }

  if (!partition_.empty())
    draw_partition_legend(dl, ImVec2(origin.x + 4, origin.y + avail.y - line_h - 4 - (data_.metric.empty() ? 0 : line_h + 8)));
  if (!data_.metric.empty()) {  // legend: the metric's colour scale, bottom left
    const ImVec2 a(origin.x + 4, origin.y + avail.y - line_h - 4);
    const std::string lo = fmt(data_.metric.lo()), hi = fmt(data_.metric.hi());
    const std::string title = data_.metric.label();
    dl->AddText(a, palette::kText, title.c_str());
    float x = a.x + ImGui::CalcTextSize(title.c_str()).x + 8;
    dl->AddText(ImVec2(x, a.y), palette::kMuted, lo.c_str());
    x += ImGui::CalcTextSize(lo.c_str()).x + 4;
    for (int k = 0; k < 20; ++k) dl->AddRectFilled(ImVec2(x + k * 4.0f, a.y + 2), ImVec2(x + k * 4.0f + 4, a.y + line_h - 2), value_colour(k / 19.0));
    dl->AddText(ImVec2(x + 84, a.y), palette::kMuted, hi.c_str());
  }

  if (hovered_.stage >= 0) {
    const pt::ViewNode& n = data_.stages[hovered_.stage].graph.nodes[hovered_.node];
    ImGui::BeginTooltip();
    ImGui::Text("%s", n.name.c_str());
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kMuted), "%s  %s", n.op.c_str(), n.target.c_str());
    if (!n.shape.empty() || !n.dtype.empty()) ImGui::TextUnformatted(shape_text(n).c_str());
    for (const std::string& l : n.annotations) ImGui::TextUnformatted(l.c_str());
    for (const std::string& l : n.qparams) ImGui::TextUnformatted(l.c_str());
    if (stages_[hovered_.stage].changed[hovered_.node])
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kRange), "new in this stage");
    if (partition_.mark(n.name) == PartitionMark::delegated) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kDelegated), "delegated");
    if (partition_.mark(n.name) == PartitionMark::float_op)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kStaysFloat), "stays float: %s", partition_.reason(n.name).c_str());
    if (const auto v = data_.metric.of(n.name)) ImGui::Text("%s: %s", data_.metric.label().c_str(), fmt(*v).c_str());
    ImGui::EndTooltip();
  } else if (hot_button >= 0) {
    ImGui::SetTooltip("%s", buttons[hot_button].tip);
  } else if (over_map && !minimap_drag_) {
    ImGui::SetTooltip("overview: click or drag to move the view");
  }
  ImGui::Dummy(avail);
}

}  // namespace ptv
