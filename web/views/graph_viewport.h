// graph_viewport.h — where the graph view looks: the world (laid-out boxes, graph_layout.h) is
// drawn at screen = (t.x + world_x * t.zoom, t.y + world_y * t.zoom). Pure geometry: no ImGui, no
// engine, tested natively (tests/engine/views/).
//
// The one rule that keeps a lesson's graph readable: the first view of a graph never shrinks text
// below a minimum scale (min_zoom). When the whole graph fits at that scale it is shown whole and
// centred; when it does not, the view opens at that scale on the region of interest (the focused
// nodes, else the graph's top-left, i.e. the first stage's inputs), and the learner pans / zooms,
// with an overview (minimap_box) showing where the view is. fit_all = true is the other mode of
// the view's "fit" button: the whole graph, however small.
//
//   ViewportOptions o;                                  // min_zoom 0.85, max_zoom 1.5, margin 8
//   ViewTransform t = initial_view(world, area, &focus_box, o);
//   if (!shows_all(world, area, t)) { Minimap m = minimap_box(world, area, 160, 100); ... }
#pragma once

namespace ptv {

struct WorldRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float w() const { return x1 - x0; }
  float h() const { return y1 - y0; }
  bool contains(float x, float y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
};

struct ViewTransform {
  float zoom = 1;
  float x = 0, y = 0;  // screen position of world (0, 0)
};

struct ViewportOptions {
  float min_zoom = 0.85f;  // text scale below which a first view pans instead of shrinking
  float max_zoom = 1.5f;   // a small graph is not blown up beyond this
  float margin = 8;        // screen pixels kept free around the graph inside the area
  bool fit_all = false;    // true: the whole graph whatever the scale (down to kZoomMin)
};

constexpr float kZoomMin = 0.02f, kZoomMax = 4.0f;  // the range of fit_all, wheel and buttons

// The first view of `world` (the graph's extent) in `area` (the screen rectangle the graph may
// use). roi: the region to show first when the graph does not fit (null or empty: the top-left).
// Along each axis: the graph centred when it fits (horizontally; vertically it hangs from the
// top); else the roi centred when it fits, else the roi's start (left / top) at the margin — or
// the graph's start when the roi starts within half a view of it; then clamped so no space shows
// past the graph's edges.
ViewTransform initial_view(const WorldRect& world, const WorldRect& area, const WorldRect* roi, const ViewportOptions& o);

// True when every point of `world` is drawn inside `area` (within half a pixel).
bool shows_all(const WorldRect& world, const WorldRect& area, const ViewTransform& t);

// The world rectangle `area` shows under t.
WorldRect visible_world(const WorldRect& area, const ViewTransform& t);

// Zoom to `zoom` (clamped to kZoomMin..kZoomMax) keeping the world point under screen (sx, sy) still.
ViewTransform zoom_about(const ViewTransform& t, float zoom, float sx, float sy);

// Moves the view (same zoom) so world point (wx, wy) is at the centre of `area`.
ViewTransform centre_on(const ViewTransform& t, float wx, float wy, const WorldRect& area);

// Keeps at least `keep` screen pixels of the graph inside `area` along each axis (a pan cannot
// lose the graph); a graph smaller than `keep` stays wholly inside.
ViewTransform keep_visible(const ViewTransform& t, const WorldRect& world, const WorldRect& area, float keep = 48);

// The overview: the whole world scaled into at most max_w x max_h screen pixels, in the bottom-
// right corner of `area` (inset by 6). world point (wx, wy) is at (box.x0 + (wx - world.x0) * scale, ...).
struct Minimap {
  WorldRect box;
  float scale = 1;
};
Minimap minimap_box(const WorldRect& world, const WorldRect& area, float max_w, float max_h);

}  // namespace ptv
