// test_graph_viewport.cpp — the graph view's pure geometry (web/views/graph_layout.h and
// graph_viewport.h, no ImGui): layered boxes never overlap, edges go down, and the first view of a
// graph never shrinks text below the readable scale — it shows the focused region or the top-left
// instead, and the whole graph only when it fits (or when asked to fit all).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "graph_layout.h"
#include "graph_viewport.h"

using namespace ptv;

namespace {

// A chain of `n` ops, each with `params` parameter inputs and a skip edge every `skip` nodes:
// the shape of a small CNN's prepared graph (observers and weights beside every op).
GraphLayoutInput cnn_like(int n, int params, int skip) {
  GraphLayoutInput in;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> width(60, 200);
  int prev = -1;
  for (int i = 0; i < n; ++i) {
    const int op = static_cast<int>(in.sizes.size());
    in.sizes.push_back({width(rng), 34});
    if (prev >= 0) in.edges.emplace_back(prev, op);
    if (skip > 0 && i >= skip && i % skip == 0) in.edges.emplace_back(op - skip * (params + 1), op);
    for (int p = 0; p < params; ++p) {
      in.sizes.push_back({width(rng), 22});
      in.edges.emplace_back(static_cast<int>(in.sizes.size()) - 1, op);
    }
    prev = op;
  }
  return in;
}

bool overlap(const LayoutBox& a, const LayoutBox& b) { return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h; }

WorldRect world_of(const GraphLayout& g) { return {0, 0, g.width, g.height}; }

bool inside(const WorldRect& in, const WorldRect& r) { return r.x0 >= in.x0 - 0.5f && r.x1 <= in.x1 + 0.5f && r.y0 >= in.y0 - 0.5f && r.y1 <= in.y1 + 0.5f; }

}  // namespace

TEST_CASE("layered layout: no overlapping boxes, every edge goes down, boxes inside the extent", "[layout]") {
  for (int params : {0, 1, 2}) {
    const GraphLayoutInput in = cnn_like(30, params, 4);
    const GraphLayout g = layout_graph(in);
    REQUIRE(g.boxes.size() == in.sizes.size());
    for (size_t i = 0; i < g.boxes.size(); ++i) {
      CHECK(g.boxes[i].x >= -0.01f);
      CHECK(g.boxes[i].x + g.boxes[i].w <= g.width + 0.01f);
      CHECK(g.boxes[i].y + g.boxes[i].h <= g.height + 0.01f);
      for (size_t j = i + 1; j < g.boxes.size(); ++j) CHECK_FALSE(overlap(g.boxes[i], g.boxes[j]));
    }
    for (auto [a, b] : in.edges) CHECK(g.boxes[a].y + g.boxes[a].h <= g.boxes[b].y);
    REQUIRE(g.routes.size() == in.edges.size());
  }
}

TEST_CASE("layered layout: a chain of ops with weights stays straight, its weights beside it (no staircase)", "[layout]") {
  const GraphLayoutInput in = cnn_like(20, 4, 0);  // conv + batch_norm's four tensors at every step
  const GraphLayout g = layout_graph(in);
  const auto centre = [&](int v) { return g.boxes[v].x + g.boxes[v].w / 2; };
  std::vector<float> row_width(64, 0);
  for (const LayoutBox& b : g.boxes) row_width[b.layer] += b.w + in.h_gap;
  const float widest = *std::max_element(row_width.begin(), row_width.end());
  for (int i = 1; i < 20; ++i) CHECK(centre(i * 5) == Approx(centre(0)).margin(1));  // ops are every 5th node
  CHECK(g.width <= widest * 1.5f);
}

TEST_CASE("layered layout: a weight's chain (weight -> observer -> conv) sits just above its conv", "[layout]") {
  // x -> c0 -> c1 -> ... -> c5; each c_i also reads w_i -> obs_i (a prepared graph's weight observers).
  GraphLayoutInput in;
  const int k = 6;
  for (int i = 0; i < 3 * k + 1; ++i) in.sizes.push_back({80, 30});
  for (int i = 0; i < k; ++i) {
    const int c = 1 + 3 * i, w = c + 1, obs = c + 2;
    in.edges.emplace_back(i == 0 ? 0 : c - 3, c);
    in.edges.emplace_back(w, obs);
    in.edges.emplace_back(obs, c);
  }
  const GraphLayout g = layout_graph(in);
  for (int i = 0; i < k; ++i) {
    const int c = 1 + 3 * i;
    CHECK(g.boxes[c + 2].layer == g.boxes[c].layer - 1);  // the observer right above its conv
    CHECK(g.boxes[c + 1].layer == g.boxes[c].layer - 2);  // the weight above its observer
  }
  CHECK(g.width < 4 * (80 + in.h_gap));  // no row of all the weights at the top
}

TEST_CASE("layered layout rejects cycles and unknown nodes", "[layout]") {
  GraphLayoutInput in;
  in.sizes = {{10, 10}, {10, 10}};
  in.edges = {{0, 1}, {1, 0}};
  CHECK_THROWS_WITH(layout_graph(in), Catch::Contains("cycle"));
  in.edges = {{0, 2}};
  CHECK_THROWS_WITH(layout_graph(in), Catch::Contains("outside"));
}

TEST_CASE("initial view: a small graph is shown whole, centred, hung from the top, not blown up", "[viewport]") {
  const WorldRect world{0, 0, 200, 120}, area{0, 30, 860, 260};
  const ViewportOptions o;
  const ViewTransform t = initial_view(world, area, nullptr, o);
  CHECK(t.zoom == Approx(o.max_zoom));
  CHECK(shows_all(world, area, t));
  CHECK(t.x + 100 * t.zoom == Approx(430));       // centred horizontally
  CHECK(t.y == Approx(area.y0 + o.margin));       // its top under the titles
}

TEST_CASE("initial view: a graph too big for the canvas keeps readable text and opens on its top-left", "[viewport]") {
  const GraphLayout g = layout_graph(cnn_like(40, 2, 4));  // a prepared tiny model: ~120 boxes
  const WorldRect world = world_of(g), area{0, 24, 860, 260};
  const ViewportOptions o;
  const ViewTransform t = initial_view(world, area, nullptr, o);
  CHECK(t.zoom == Approx(o.min_zoom));
  CHECK_FALSE(shows_all(world, area, t));
  const WorldRect seen = visible_world(area, t);
  if (world.w() * t.zoom > area.w() - 2 * o.margin) CHECK(seen.x0 == Approx(-o.margin / t.zoom));  // the left edge, not the middle
  else CHECK(seen.x0 < 0);
  CHECK(seen.y0 == Approx(-o.margin / t.zoom));  // the top: the graph's inputs
  // fit_all: the other mode of the view's "fit" button shows everything, whatever the scale.
  ViewportOptions all = o;
  all.fit_all = true;
  const ViewTransform f = initial_view(world, area, nullptr, all);
  CHECK(shows_all(world, area, f));
  CHECK(f.zoom < o.min_zoom);
}

TEST_CASE("initial view: focused nodes are inside the first view, and no space shows past the graph's edges", "[viewport]") {
  const WorldRect world{0, 0, 2400, 900}, area{0, 24, 860, 260};
  const ViewportOptions o;
  for (const WorldRect roi : {WorldRect{1000, 400, 1200, 440}, WorldRect{2300, 850, 2400, 900}, WorldRect{0, 0, 90, 30}}) {
    const ViewTransform t = initial_view(world, area, &roi, o);
    CHECK(t.zoom == Approx(o.min_zoom));
    const WorldRect seen = visible_world(area, t);
    CHECK(inside(seen, roi));
    CHECK(t.x <= area.x0 + o.margin + 0.01f);                             // the graph starts at or left of the margin
    CHECK(t.x + world.x1 * t.zoom >= area.x1 - o.margin - 0.01f);         // and ends at or right of it
    CHECK(t.y <= area.y0 + o.margin + 0.01f);
    CHECK(t.y + world.y1 * t.zoom >= area.y1 - o.margin - 0.01f);
  }
  // A focus region wider than the canvas: its left part is shown, from its start...
  const WorldRect wide{800, 300, 2000, 800};
  const ViewTransform t = initial_view(world, area, &wide, o);
  CHECK(visible_world(area, t).x0 == Approx(800 - o.margin / t.zoom));
  CHECK(visible_world(area, t).y0 == Approx(300 - o.margin / t.zoom));
  // ...or from the graph's start when the region starts within half a view of it (three stages
  // side by side, focused on the same names in each: the first stage is shown whole).
  const WorldRect stages{120, 20, 2300, 600};
  const ViewTransform s = initial_view(world, area, &stages, o);
  CHECK(visible_world(area, s).x0 == Approx(-o.margin / s.zoom));
  CHECK(visible_world(area, s).y0 == Approx(-o.margin / s.zoom));
}

TEST_CASE("initial view: over many graph and canvas sizes the text scale never goes below the minimum", "[viewport]") {
  const ViewportOptions o;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> len(20, 4000), side(120, 1200), pos(0, 1);
  for (int k = 0; k < 2000; ++k) {
    const WorldRect world{0, 0, len(rng), len(rng)}, area{0, 24, side(rng), side(rng) + 24};
    const float rx = pos(rng) * world.x1, ry = pos(rng) * world.y1;
    const WorldRect roi{rx, ry, std::min(world.x1, rx + 120), std::min(world.y1, ry + 40)};
    const ViewTransform t = initial_view(world, area, &roi, o);
    REQUIRE(t.zoom >= o.min_zoom);
    REQUIRE(t.zoom <= o.max_zoom);
    if (roi.w() * t.zoom <= area.w() - 2 * o.margin && roi.h() * t.zoom <= area.h() - 2 * o.margin) REQUIRE(inside(visible_world(area, t), roi));
    // Whole when it fits inside the margins at the readable scale; never whole when it cannot.
    const bool fits = world.w() * o.min_zoom <= area.w() - 2 * o.margin && world.h() * o.min_zoom <= area.h() - 2 * o.margin;
    const bool cannot = world.w() * o.min_zoom > area.w() + 1 || world.h() * o.min_zoom > area.h() + 1;
    INFO("world " << world.x1 << " x " << world.y1 << ", area " << area.w() << " x " << area.h() << ", zoom " << t.zoom << " at " << t.x << ", " << t.y);
    if (fits) REQUIRE(shows_all(world, area, t));
    if (cannot) REQUIRE_FALSE(shows_all(world, area, t));
  }
}

TEST_CASE("zoom about a point keeps it still, a pan cannot lose the graph, the minimap keeps the aspect", "[viewport]") {
  const ViewTransform t{0.85f, -300, 40};
  const ViewTransform z = zoom_about(t, 1.3f, 410, 120);
  CHECK((410 - z.x) / z.zoom == Approx((410 - t.x) / t.zoom));
  CHECK((120 - z.y) / z.zoom == Approx((120 - t.y) / t.zoom));
  CHECK(zoom_about(t, 100, 0, 0).zoom == kZoomMax);
  CHECK(zoom_about(t, 0.001f, 0, 0).zoom == kZoomMin);

  const WorldRect world{0, 0, 2000, 800}, area{0, 24, 860, 260};
  const ViewTransform far{1, 5000, -9000};
  const ViewTransform k = keep_visible(far, world, area, 48);
  CHECK(k.x + world.x0 * k.zoom <= area.x1 - 48 + 0.01f);
  CHECK(k.y + world.y1 * k.zoom >= area.y0 + 48 - 0.01f);
  const WorldRect tiny{0, 0, 20, 10};
  const ViewTransform kt = keep_visible({1, -500, 900}, tiny, area, 48);
  CHECK(shows_all(tiny, area, kt));

  const ViewTransform c = centre_on(t, 1000, 400, area);
  const WorldRect seen = visible_world(area, c);
  CHECK((seen.x0 + seen.x1) / 2 == Approx(1000));
  CHECK((seen.y0 + seen.y1) / 2 == Approx(400));

  const Minimap m = minimap_box(world, area, 160, 100);
  CHECK(m.box.w() <= 160.01f);
  CHECK(m.box.h() <= 100.01f);
  CHECK(m.box.w() / m.box.h() == Approx(world.w() / world.h()));
  CHECK(inside(area, m.box));
}
