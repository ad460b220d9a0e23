// graph_layout.cpp — the layered layout described in graph_layout.h.
#include "graph_layout.h"

#include <algorithm>
#include <functional>
#include <string>

#include "core/error.h"
#include "graph/report.h"

namespace ptv {

namespace {

// The layered graph: real nodes 0..n-1, then one dummy vertex per layer an edge passes through.
struct Layered {
  std::vector<int> layer;
  std::vector<float> w, h;
  std::vector<std::vector<int>> succ, pred;  // unit-span edges only
  int add(int l, float width, float height) {
    layer.push_back(l);
    w.push_back(width);
    h.push_back(height);
    succ.emplace_back();
    pred.emplace_back();
    return static_cast<int>(layer.size()) - 1;
  }
  void link(int a, int b) {
    succ[a].push_back(b);
    pred[b].push_back(a);
  }
};

// Crossings between every pair of neighbouring layers, given each vertex's position in its row.
int count_crossings(const Layered& g, const std::vector<std::vector<int>>& rows, const std::vector<int>& pos) {
  int total = 0;
  for (size_t l = 0; l + 1 < rows.size(); ++l) {
    std::vector<std::pair<int, int>> segs;
    for (int u : rows[l])
      for (int v : g.succ[u]) segs.emplace_back(pos[u], pos[v]);
    for (size_t i = 0; i < segs.size(); ++i)
      for (size_t j = i + 1; j < segs.size(); ++j)
        if ((segs[i].first - segs[j].first) * (segs[i].second - segs[j].second) < 0) ++total;
  }
  return total;
}

void index_rows(const std::vector<std::vector<int>>& rows, std::vector<int>& pos) {
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) pos[row[i]] = static_cast<int>(i);
}

}  // namespace

GraphLayout layout_graph(const GraphLayoutInput& in) {
  const int n = static_cast<int>(in.sizes.size());
  std::vector<std::vector<int>> succ(n), pred(n);
  for (auto [a, b] : in.edges) {
    if (a < 0 || a >= n || b < 0 || b >= n)
      throw pt::ValueError("graph layout: edge (" + std::to_string(a) + ", " + std::to_string(b) + ") names a node outside 0.." + std::to_string(n - 1));
    succ[a].push_back(b);
    pred[b].push_back(a);
  }

  // 1. Layers: the given ones or the engine's longest path (which rejects a cycle). Ordered by layer
  // (then index, so input order is kept), the nodes are in topological order: every edge goes down.
  std::vector<int> layer = in.layers.empty() ? pt::longest_path_layers(n, in.edges) : in.layers;
  if (static_cast<int>(layer.size()) != n || std::any_of(layer.begin(), layer.end(), [](int l) { return l < 0; }))
    throw pt::ValueError("graph layout: 'layers' must hold one layer >= 0 per node (" + std::to_string(n) + "), got " +
                         std::to_string(layer.size()));
  for (auto [a, b] : in.edges)
    if (layer[a] >= layer[b])
      throw pt::ValueError("graph layout: edge (" + std::to_string(a) + ", " + std::to_string(b) + ") goes from layer " +
                           std::to_string(layer[a]) + " to layer " + std::to_string(layer[b]) + "; layers must rise along every edge");
  std::vector<int> order(n);
  for (int v = 0; v < n; ++v) order[v] = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return layer[a] < layer[b]; });
  // Then "hanging" nodes move down next to their first consumer: sources (parameters, inputs) and
  // single-consumer nodes fed only by hanging nodes (a weight's observer, its quantize / dequantize),
  // so a weight chain sits beside its conv, not in the first rows.
  std::vector<bool> hanging(n, false);
  for (int v : order) {
    hanging[v] = pred[v].empty() || succ[v].size() == 1;
    for (int u : pred[v]) hanging[v] = hanging[v] && hanging[u];
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int v = *it;
    if (!hanging[v] || succ[v].empty()) continue;
    int lowest = layer[succ[v][0]];
    for (int w : succ[v]) lowest = std::min(lowest, layer[w]);
    layer[v] = lowest - 1;
  }
  // Layers left empty (given layers of a subset of a graph) are dropped: rows are the layers in use.
  std::vector<int> used(layer.begin(), layer.end());
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (int& l : layer) l = static_cast<int>(std::lower_bound(used.begin(), used.end(), l) - used.begin());
  const int layers = static_cast<int>(used.size());

  // 2. Dummy vertices on long edges; remember each edge's chain for its route.
  Layered g;
  for (int v = 0; v < n; ++v) g.add(layer[v], in.sizes[v].x, in.sizes[v].y);
  std::vector<std::vector<int>> chains;
  for (auto [a, b] : in.edges) {
    std::vector<int> chain{a};
    for (int l = layer[a] + 1; l < layer[b]; ++l) chain.push_back(g.add(l, 0, 0));
    chain.push_back(b);
    for (size_t i = 0; i + 1 < chain.size(); ++i) g.link(chain[i], chain[i + 1]);
    chains.push_back(std::move(chain));
  }
  const int total = static_cast<int>(g.layer.size());

  // 3. Order within layers: first by a depth-first walk from the sources (keeps chains together),
  // then barycenter sweeps; keep the order with the fewest crossings.
  std::vector<std::vector<int>> rows(std::max(layers, 1));
  std::vector<bool> seen(total, false);
  std::function<void(int)> visit = [&](int v) {
    if (seen[v]) return;
    seen[v] = true;
    rows[g.layer[v]].push_back(v);
    for (int w : g.succ[v]) visit(w);
  };
  for (int v : order)
    if (pred[v].empty()) visit(v);
  std::vector<int> pos(total, 0);
  index_rows(rows, pos);
  auto best_rows = rows;
  int best = count_crossings(g, rows, pos);
  for (int iter = 0; iter < 12 && best > 0; ++iter) {
    const bool down = iter % 2 == 0;
    for (int k = 0; k < static_cast<int>(rows.size()); ++k) {
      const int l = down ? k : static_cast<int>(rows.size()) - 1 - k;
      std::vector<std::pair<double, int>> keyed;
      for (int v : rows[l]) {
        const auto& nb = down ? g.pred[v] : g.succ[v];
        double key = pos[v];
        if (!nb.empty()) {
          key = 0;
          for (int u : nb) key += pos[u];
          key /= static_cast<double>(nb.size());
        }
        keyed.emplace_back(key, v);
      }
      std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t i = 0; i < keyed.size(); ++i) rows[l][i] = keyed[i].second;
      index_rows(rows, pos);
    }
    const int c = count_crossings(g, rows, pos);
    if (c < best) {
      best = c;
      best_rows = rows;
    }
  }
  rows = best_rows;
  index_rows(rows, pos);

  // 4. x: move toward the neighbours' mean, then place each row in order without overlap, by
  // priority (Brandes-Koepf style): dummies (long edges stay straight), then ops, then leaves (a
  // parameter or an output hanging on one op). Each vertex gets its wish clamped between the ones
  // already placed, leaving room for those still to come, so the main chain of a program stays
  // straight and its weights sit beside it instead of pushing it sideways layer after layer.
  std::vector<float> cx(total, 0);
  auto sep = [&](int a, int b) { return (g.w[a] + g.w[b]) / 2 + ((g.w[a] > 0 && g.w[b] > 0) ? in.h_gap : in.h_gap / 2); };
  auto is_leaf = [&](int v) { return v < n && g.pred[v].size() + g.succ[v].size() == 1; };
  auto priority = [&](int v) { return v >= n ? 2 : is_leaf(v) ? 0 : 1; };
  auto pack = [&](const std::vector<int>& row, const std::vector<float>& wish) {
    const size_t m = row.size();
    std::vector<float> pre(m, 0);  // pre[i]: the least distance from row[0] to row[i]
    for (size_t i = 1; i < m; ++i) pre[i] = pre[i - 1] + sep(row[i - 1], row[i]);
    std::vector<size_t> by(m);
    for (size_t i = 0; i < m; ++i) by[i] = i;
    std::stable_sort(by.begin(), by.end(), [&](size_t a, size_t b) { return priority(row[a]) > priority(row[b]); });
    std::vector<bool> placed(m, false);
    std::vector<float> x(m, 0);
    for (size_t i : by) {
      float lo = -1e30f, hi = 1e30f;
      for (size_t j = i; j-- > 0;)
        if (placed[j]) {
          lo = x[j] + pre[i] - pre[j];
          break;
        }
      for (size_t j = i + 1; j < m; ++j)
        if (placed[j]) {
          hi = x[j] - (pre[j] - pre[i]);
          break;
        }
      x[i] = std::clamp(wish[i], lo, std::max(lo, hi));
      placed[i] = true;
    }
    for (size_t i = 0; i < m; ++i) cx[row[i]] = x[i];
  };
  for (const auto& row : rows) {
    std::vector<float> wish(row.size(), 0);
    for (size_t i = 1; i < row.size(); ++i) wish[i] = wish[i - 1] + sep(row[i - 1], row[i]);
    pack(row, wish);
  }
  for (int iter = 0; iter < 10; ++iter) {
    const bool down = iter % 2 == 0;
    for (int k = 0; k < static_cast<int>(rows.size()); ++k) {
      const auto& row = rows[down ? k : static_cast<int>(rows.size()) - 1 - k];
      std::vector<float> wish;
      for (int v : row) {
        const auto& nb = down ? g.pred[v] : g.succ[v];
        // Leaves (a parameter feeding only v, an output fed only by v) follow v, not v them:
        // otherwise each op of a chain drifts toward its weights and the graph becomes a staircase.
        float sum = 0, count = 0, leaf_sum = 0, leaves = 0;
        for (int u : nb) {
          const bool leaf = down ? (g.pred[u].empty() && g.succ[u].size() == 1) : (g.succ[u].empty() && g.pred[u].size() == 1);
          (leaf ? leaf_sum : sum) += cx[u];
          (leaf ? leaves : count) += 1;
        }
        wish.push_back(count > 0 ? sum / count : leaves > 0 ? leaf_sum / leaves : cx[v]);
      }
      if (!row.empty()) pack(row, wish);
    }
  }
  float left = 0, right = 0;
  if (total > 0) {
    left = cx[0] - g.w[0] / 2;
    right = cx[0] + g.w[0] / 2;
    for (int v = 0; v < total; ++v) {
      left = std::min(left, cx[v] - g.w[v] / 2);
      right = std::max(right, cx[v] + g.w[v] / 2);
    }
  }
  for (float& x : cx) x -= left;

  // 5. y: rows stacked, each as tall as its tallest box.
  std::vector<float> row_top(rows.size(), 0), row_h(rows.size(), 0);
  float y = 0;
  for (size_t l = 0; l < rows.size(); ++l) {
    for (int v : rows[l]) row_h[l] = std::max(row_h[l], g.h[v]);
    row_top[l] = y;
    y += row_h[l] + in.v_gap;
  }

  GraphLayout out;
  out.crossings = best;
  out.width = right - left;
  out.height = rows.empty() ? 0 : y - in.v_gap;
  for (int v = 0; v < n; ++v) {
    const int l = g.layer[v];
    out.boxes.push_back({cx[v] - g.w[v] / 2, row_top[l] + (row_h[l] - g.h[v]) / 2, g.w[v], g.h[v], l});
  }
  for (const auto& chain : chains) {
    std::vector<LayoutPoint> route;
    const LayoutBox& from = out.boxes[chain.front()];
    const LayoutBox& to = out.boxes[chain.back()];
    route.push_back({cx[chain.front()], from.y + from.h});
    for (size_t i = 1; i + 1 < chain.size(); ++i) {
      const int l = g.layer[chain[i]];
      route.push_back({cx[chain[i]], row_top[l]});
      route.push_back({cx[chain[i]], row_top[l] + row_h[l]});
    }
    route.push_back({cx[chain.back()], to.y});
    out.routes.push_back(std::move(route));
  }
  return out;
}

}  // namespace ptv
