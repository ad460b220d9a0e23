// chart_views.cpp — draws LineChartData and BarChartData (see chart_views.h).
#include "chart_views.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "chart_common.h"
#include "core/error.h"
#include "imgui.h"
#include "view_style.h"

namespace ptv {

namespace {

double x_at(const LineSeries& s, size_t i) { return s.x.empty() ? static_cast<double>(i) : s.x[i]; }

// Index of the point of `s` whose x is nearest to `x` (s.x ascending), or -1 for an empty series.
int nearest_index(const LineSeries& s, double x) {
  const size_t n = s.y.size();
  if (n == 0) return -1;
  size_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (x_at(s, mid) < x) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && std::abs(x_at(s, lo - 1) - x) <= std::abs(x_at(s, lo) - x)) --lo;
  return static_cast<int>(lo);
}

// [lo, hi] padded by 5% (or by 1 when flat), so lines do not run along the plot's border.
void pad_range(double& lo, double& hi) {
  if (!(lo <= hi)) { lo = 0; hi = 1; return; }
  const double pad = hi > lo ? (hi - lo) * 0.05 : 1.0;
  lo -= pad;
  hi += pad;
}

std::vector<std::string> names_of(const auto& series) {
  std::vector<std::string> names;
  for (const auto& s : series) names.push_back(s.name);
  return names;
}

// The series' legend (when there are several) and, under it, the chart's plot rectangle.
PlotArea legend_and_plot_area(ImDrawList* dl, const auto& series, bool x_label) {
  const float legend_h = series.size() > 1 ? draw_legend(dl, ImGui::GetCursorScreenPos(), names_of(series)) : 0;
  ImGui::Dummy(ImVec2(1, legend_h));
  return plot_area_in_window(ImGui::GetTextLineHeight() + 6, x_label);
}

}  // namespace

void validate(const LineChartData& d) {
  if (d.series.empty() || d.series.size() > 16)
    throw pt::ValueError("line chart: 'series' must hold 1 to 16 series, got " + std::to_string(d.series.size()));
  for (size_t k = 0; k < d.series.size(); ++k) {
    const LineSeries& s = d.series[k];
    const std::string where = "line chart: series[" + std::to_string(k) + "]";
    if (s.y.empty() || s.y.size() > 1000000) throw pt::ValueError(where + ".y must hold 1 to 1000000 values");
    if (!s.x.empty() && s.x.size() != s.y.size())
      throw pt::ValueError(where + ".x has " + std::to_string(s.x.size()) + " values but y has " + std::to_string(s.y.size()));
    for (size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.x[i])) throw pt::ValueError(where + ".x[" + std::to_string(i) + "] is not finite");
      if (i > 0 && s.x[i] < s.x[i - 1]) throw pt::ValueError(where + ".x must be ascending, but x[" + std::to_string(i) + "] < x[" + std::to_string(i - 1) + "]");
    }
  }
  for (size_t i = 0; i < d.marks.size(); ++i)
    if (!std::isfinite(d.marks[i].x)) throw pt::ValueError("line chart: marks[" + std::to_string(i) + "].x is not finite");
}

void validate(const BarChartData& d) {
  if (d.labels.empty() || d.labels.size() > 10000)
    throw pt::ValueError("bar chart: 'labels' must hold 1 to 10000 labels, got " + std::to_string(d.labels.size()));
  if (d.series.empty() || d.series.size() > 16)
    throw pt::ValueError("bar chart: 'series' must hold 1 to 16 series, got " + std::to_string(d.series.size()));
  for (size_t k = 0; k < d.series.size(); ++k) {
    const BarSeries& s = d.series[k];
    if (s.values.size() != d.labels.size())
      throw pt::ValueError("bar chart: series[" + std::to_string(k) + "].values has " + std::to_string(s.values.size()) +
                           " values for " + std::to_string(d.labels.size()) + " labels");
    for (size_t i = 0; i < s.values.size(); ++i)
      if (std::isinf(s.values[i])) throw pt::ValueError("bar chart: series[" + std::to_string(k) + "].values[" + std::to_string(i) + "] is infinite");
  }
}

void LineChartView::draw() {
  const LineChartData& d = data_;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  PlotArea area = legend_and_plot_area(dl, d.series, !d.x_label.empty());
  if (!area.usable()) return;

  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const LineSeries& s : d.series) {
    for (size_t i = 0; i < s.y.size(); ++i) {
      x0 = std::min(x0, x_at(s, i));
      x1 = std::max(x1, x_at(s, i));
      if (std::isfinite(s.y[i])) { y0 = std::min(y0, s.y[i]); y1 = std::max(y1, s.y[i]); }
    }
  }
  if (!(x1 > x0)) { x0 -= 0.5; x1 += 0.5; }
  pad_range(y0, y1);
  area.x0 = x0; area.x1 = x1; area.y0 = y0; area.y1 = y1;
  draw_y_axis(dl, area, 4);
  draw_x_axis(dl, area);
  draw_axis_labels(dl, area, d.x_label, d.y_label);

  for (const LineMark& m : d.marks) {
    if (m.x < x0 || m.x > x1) continue;
    const float x = area.sx(m.x);
    dl->AddLine(ImVec2(x, area.p0.y), ImVec2(x, area.p1.y), palette::kRange, 1.5f);
    dl->AddText(ImVec2(x + 3, area.p0.y + 2), palette::kRange, m.label.c_str());
  }

  dl->PushClipRect(area.p0, area.p1, true);
  for (size_t k = 0; k < d.series.size(); ++k) {
    const LineSeries& s = d.series[k];
    std::vector<ImVec2> run;  // consecutive finite points, drawn as one polyline
    auto flush = [&] {
      if (run.size() == 1) dl->AddCircleFilled(run[0], 2.0f, series_colour(k));
      else if (run.size() > 1) dl->AddPolyline(run.data(), static_cast<int>(run.size()), series_colour(k), 0, 1.75f);
      run.clear();
    };
    for (size_t i = 0; i < s.y.size(); ++i) {
      if (std::isfinite(s.y[i])) run.emplace_back(area.sx(x_at(s, i)), area.sy(s.y[i]));
      else flush();
    }
    flush();
  }
  dl->PopClipRect();

  hovered_index_ = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsWindowHovered() && area.contains(mouse)) {
    const double mx = area.data_x(mouse.x);
    hovered_index_ = nearest_index(d.series[0], mx);
    const float gx = area.sx(x_at(d.series[0], hovered_index_));
    dl->AddLine(ImVec2(gx, area.p0.y), ImVec2(gx, area.p1.y), palette::kAxis);
    ImGui::BeginTooltip();
    for (size_t k = 0; k < d.series.size(); ++k) {
      const int i = nearest_index(d.series[k], mx);
      const double y = d.series[k].y[i];
      if (std::isfinite(y)) dl->AddCircleFilled(ImVec2(area.sx(x_at(d.series[k], i)), area.sy(y)), 3.5f, series_colour(k));
      const std::string name = d.series[k].name.empty() ? "y" : d.series[k].name;
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(series_colour(k)), "%s", name.c_str());
      ImGui::SameLine();
      ImGui::Text("x=%s  y=%s", fmt(x_at(d.series[k], i)).c_str(), fmt(y).c_str());
    }
    ImGui::EndTooltip();
  }
  ImGui::Dummy(ImGui::GetContentRegionAvail());
}

void BarChartView::draw() {
  const BarChartData& d = data_;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  PlotArea area = legend_and_plot_area(dl, d.series, false);
  if (!area.usable()) return;

  double y0 = 0, y1 = 0;  // bars grow from 0, so the range always holds 0
  for (const BarSeries& s : d.series)
    for (double v : s.values)
      if (std::isfinite(v)) { y0 = std::min(y0, v); y1 = std::max(y1, v); }
  const double pad = (y1 - y0) * 0.05;
  if (y1 > 0) y1 += pad;
  if (y0 < 0) y0 -= pad;
  if (y1 == y0) y1 = 1;
  const size_t n = d.labels.size(), m = d.series.size();
  area.x0 = 0; area.x1 = static_cast<double>(n); area.y0 = y0; area.y1 = y1;
  draw_y_axis(dl, area, 4);
  draw_axis_labels(dl, area, "", d.y_label);
  dl->AddLine(ImVec2(area.p0.x, area.sy(0)), ImVec2(area.p1.x, area.sy(0)), palette::kAxis);

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  hovered_index_ = -1;
  if (ImGui::IsWindowHovered() && area.contains(mouse))
    hovered_index_ = std::min(static_cast<int>(n) - 1, static_cast<int>(area.data_x(mouse.x)));

  const float group_w = (area.p1.x - area.p0.x) / static_cast<float>(n);
  const float bar_w = group_w * 0.8f / static_cast<float>(m);
  for (size_t i = 0; i < n; ++i) {
    const float gx = area.sx(static_cast<double>(i));
    if (static_cast<int>(i) == hovered_index_)
      dl->AddRectFilled(ImVec2(gx, area.p0.y), ImVec2(gx + group_w, area.p1.y), palette::kGrid);
    for (size_t k = 0; k < m; ++k) {
      const double v = d.series[k].values[i];
      if (!std::isfinite(v)) continue;
      const float bx = gx + group_w * 0.1f + bar_w * static_cast<float>(k);
      const float ya = area.sy(0), yb = area.sy(v);
      dl->AddRectFilled(ImVec2(bx, std::min(ya, yb)), ImVec2(bx + std::max(1.0f, bar_w - 1), std::max(ya, yb)), series_colour(k));
    }
  }
  // Labels under the groups, every k-th one when they would overlap.
  float widest = 0;
  for (const std::string& l : d.labels) widest = std::max(widest, ImGui::CalcTextSize(l.c_str()).x);
  const size_t every = std::max<size_t>(1, static_cast<size_t>(std::ceil((widest + 6) / std::max(1.0f, group_w))));
  for (size_t i = 0; i < n; i += every) {
    const float w = ImGui::CalcTextSize(d.labels[i].c_str()).x;
    dl->AddText(ImVec2(area.sx(i + 0.5) - w / 2, area.p1.y + 5), palette::kMuted, d.labels[i].c_str());
  }
  if (hovered_index_ >= 0) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(d.labels[hovered_index_].c_str());
    for (size_t k = 0; k < m; ++k) {
      const std::string name = d.series[k].name.empty() ? "value" : d.series[k].name;
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(series_colour(k)), "%s", name.c_str());
      ImGui::SameLine();
      ImGui::TextUnformatted(fmt(d.series[k].values[hovered_index_]).c_str());
    }
    ImGui::EndTooltip();
  }
  ImGui::Dummy(ImGui::GetContentRegionAvail());
}

}  // namespace ptv
