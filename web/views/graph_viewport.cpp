// graph_viewport.cpp — the view transforms described in graph_viewport.h.
#include "graph_viewport.h"

#include <algorithm>

namespace ptv {

namespace {

// Screen offset along one axis (screen = t + world * z) for world [w0, w1] in area [a0, a1].
float place(float w0, float w1, float a0, float a1, const float* roi, float z, float m, bool centre_fit) {
  const float in0 = a0 + m, in1 = std::max(a0 + m, a1 - m), span = in1 - in0;
  if ((w1 - w0) * z <= span + 0.5f) return centre_fit ? (in0 + in1) / 2 - (w0 + w1) / 2 * z : in0 - w0 * z;
  float t = in0 - w0 * z;  // the graph's start at the margin...
  if (roi && (roi[1] - roi[0]) * z <= span) t = (in0 + in1) / 2 - (roi[0] + roi[1]) / 2 * z;  // ...or the roi centred
  else if (roi && (roi[0] - w0) * z > span / 2) t = in0 - roi[0] * z;  // ...or the roi's start, unless near the graph's
  t = std::min(t, in0 - w0 * z);  // no empty space before the graph's start...
  return std::max(t, in1 - w1 * z);  // ...nor after its end
}

float keep_axis(float t, float w0, float w1, float a0, float a1, float z, float keep) {
  const float k = std::min(keep, (w1 - w0) * z);
  t = std::max(t, a0 + k - w1 * z);
  return std::min(t, a1 - k - w0 * z);
}

}  // namespace

ViewTransform initial_view(const WorldRect& world, const WorldRect& area, const WorldRect* roi, const ViewportOptions& o) {
  const float fit = std::min((area.w() - 2 * o.margin) / std::max(1.0f, world.w()), (area.h() - 2 * o.margin) / std::max(1.0f, world.h()));
  float z = std::min(fit, o.max_zoom);
  z = std::clamp(z, o.fit_all ? kZoomMin : std::min(o.min_zoom, o.max_zoom), kZoomMax);
  const bool has_roi = roi && roi->w() >= 0 && roi->h() >= 0;
  const float rx[2] = {has_roi ? roi->x0 : 0, has_roi ? roi->x1 : 0}, ry[2] = {has_roi ? roi->y0 : 0, has_roi ? roi->y1 : 0};
  ViewTransform t;
  t.zoom = z;
  // Horizontally a graph that fits is centred; vertically it hangs from the top (under the titles).
  t.x = place(world.x0, world.x1, area.x0, area.x1, has_roi ? rx : nullptr, z, o.margin, true);
  t.y = place(world.y0, world.y1, area.y0, area.y1, has_roi ? ry : nullptr, z, o.margin, false);
  return t;
}

bool shows_all(const WorldRect& world, const WorldRect& area, const ViewTransform& t) {
  const float e = 0.5f;
  return t.x + world.x0 * t.zoom >= area.x0 - e && t.x + world.x1 * t.zoom <= area.x1 + e &&
         t.y + world.y0 * t.zoom >= area.y0 - e && t.y + world.y1 * t.zoom <= area.y1 + e;
}

WorldRect visible_world(const WorldRect& area, const ViewTransform& t) {
  return {(area.x0 - t.x) / t.zoom, (area.y0 - t.y) / t.zoom, (area.x1 - t.x) / t.zoom, (area.y1 - t.y) / t.zoom};
}

ViewTransform zoom_about(const ViewTransform& t, float zoom, float sx, float sy) {
  const float z = std::clamp(zoom, kZoomMin, kZoomMax);
  return {z, sx - (sx - t.x) * (z / t.zoom), sy - (sy - t.y) * (z / t.zoom)};
}

ViewTransform centre_on(const ViewTransform& t, float wx, float wy, const WorldRect& area) {
  return {t.zoom, (area.x0 + area.x1) / 2 - wx * t.zoom, (area.y0 + area.y1) / 2 - wy * t.zoom};
}

ViewTransform keep_visible(const ViewTransform& t, const WorldRect& world, const WorldRect& area, float keep) {
  return {t.zoom, keep_axis(t.x, world.x0, world.x1, area.x0, area.x1, t.zoom, keep),
          keep_axis(t.y, world.y0, world.y1, area.y0, area.y1, t.zoom, keep)};
}

Minimap minimap_box(const WorldRect& world, const WorldRect& area, float max_w, float max_h) {
  Minimap m;
  m.scale = std::min(max_w / std::max(1.0f, world.w()), max_h / std::max(1.0f, world.h()));
  m.box.x1 = area.x1 - 6;
  m.box.y1 = area.y1 - 6;
  m.box.x0 = m.box.x1 - std::max(1.0f, world.w()) * m.scale;
  m.box.y0 = m.box.y1 - std::max(1.0f, world.h()) * m.scale;
  return m;
}

}  // namespace ptv
