// histogram_view.cpp — draws HistogramData with ImDrawList: axes with round ticks, bars split at
// the range lines (inside blue, outside red), the range band, a hover tooltip per bin.
#include "histogram_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "chart_common.h"
#include "core/error.h"
#include "imgui.h"
#include "view_style.h"

namespace ptv {

void validate(const HistogramData& d) {
  if (!std::isfinite(d.lo) || !std::isfinite(d.hi) || !(d.lo < d.hi))
    throw pt::ValueError("histogram: 'lo' and 'hi' must be finite with lo < hi, got lo=" + fmt(d.lo) + " hi=" + fmt(d.hi));
  if (d.counts.empty() || d.counts.size() > 100000)
    throw pt::ValueError("histogram: 'counts' must hold 1 to 100000 bins, got " + std::to_string(d.counts.size()));
  for (size_t i = 0; i < d.counts.size(); ++i)
    if (!std::isfinite(d.counts[i]) || d.counts[i] < 0)
      throw pt::ValueError("histogram: 'counts' must be finite and >= 0, but counts[" + std::to_string(i) + "] is " + fmt(d.counts[i]));
  if (d.has_range && (!std::isfinite(d.range_min) || !std::isfinite(d.range_max) || d.range_min > d.range_max))
    throw pt::ValueError("histogram: 'range' must be finite with min <= max, got min=" + fmt(d.range_min) + " max=" + fmt(d.range_max));
  if (d.clipped > 1 || std::isnan(d.clipped))
    throw pt::ValueError("histogram: 'clipped' is a fraction in [0, 1], got " + fmt(d.clipped));
}

void HistogramView::set_data(HistogramData d) {
  validate(d);
  data_ = std::move(d);
  hovered_bin_ = -1;
  if (selected_bin_ >= static_cast<int>(data_.counts.size())) selected_bin_ = -1;
}

void HistogramView::draw() {
  const HistogramData& d = data_;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  const int n = static_cast<int>(d.counts.size());
  const double bin_w = (d.hi - d.lo) / n;
  auto bin_text = [&](int i) {
    return "bin " + std::to_string(i) + ": [" + fmt(d.lo + bin_w * i) + ", " + fmt(d.lo + bin_w * (i + 1)) +
           ")  count " + fmt(d.counts[i]);
  };
  // Header line: the selected bin on the left, the clipped mass on the right.
  if (selected_bin_ >= 0)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kBarHover), "%s", bin_text(selected_bin_).c_str());
  else
    ImGui::TextUnformatted("");
  if (d.clipped >= 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "clipped: %.3g%%", d.clipped * 100.0);
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(buf).x);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kClipped), "%s", buf);
  }

  const float line_h = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  PlotArea area = plot_area_in_window(d.has_range ? line_h + 4 : 4, false);
  if (!area.usable()) return;  // canvas too small to draw a chart
  auto yval = [&](double c) { return d.log_y ? std::log10(1.0 + c) : c; };
  double ymax = 0;
  for (double c : d.counts) ymax = std::max(ymax, yval(c));
  area.x0 = d.lo;
  area.x1 = d.hi;
  area.y0 = 0;
  area.y1 = ymax > 0 ? ymax : 1;
  const ImVec2 p0 = area.p0, p1 = area.p1;
  const float pw = p1.x - p0.x;
  draw_y_axis(dl, area, 4);  // counts, or log10(1 + count)
  draw_x_axis(dl, area);

  // The chosen range: a band behind the bars, clamped to the plot.
  const float rx0 = d.has_range ? std::clamp(area.sx(d.range_min), p0.x, p1.x) : p0.x;
  const float rx1 = d.has_range ? std::clamp(area.sx(d.range_max), p0.x, p1.x) : p1.x;
  if (d.has_range) dl->AddRectFilled(ImVec2(rx0, p0.y), ImVec2(rx1, p1.y), palette::kRangeFill);

  // Hover: which bin is under the pointer.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  hovered_bin_ = -1;
  if (ImGui::IsWindowHovered() && mouse.x >= p0.x && mouse.x < p1.x && mouse.y >= p0.y && mouse.y <= p1.y)
    hovered_bin_ = std::min(n - 1, static_cast<int>((mouse.x - p0.x) / pw * n));
  if (hovered_bin_ >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
    selected_bin_ = selected_bin_ == hovered_bin_ ? -1 : hovered_bin_;

  // Bars: the part of each bar inside the range in blue, outside in red.
  for (int i = 0; i < n; ++i) {
    if (d.counts[i] <= 0) continue;
    const float x0 = p0.x + pw * i / n, x1 = p0.x + pw * (i + 1) / n, y = area.sy(yval(d.counts[i]));
    const ImU32 inside = i == hovered_bin_ ? palette::kBarHover : palette::kBar;
    auto bar = [&](float a, float b, ImU32 col) {
      if (b > a) dl->AddRectFilled(ImVec2(a, y), ImVec2(b, p1.y), col);
    };
    bar(x0, std::min(x1, rx0), palette::kClipped);
    bar(std::max(x0, rx0), std::min(x1, rx1), inside);
    bar(std::max(x0, rx1), x1, palette::kClipped);
  }
  if (selected_bin_ >= 0) {
    const float x0 = p0.x + pw * selected_bin_ / n, x1 = p0.x + pw * (selected_bin_ + 1) / n;
    dl->AddRect(ImVec2(x0, area.sy(yval(d.counts[selected_bin_]))), ImVec2(x1, p1.y), palette::kText, 0, 0, 2.0f);
  }

  // Range lines with their values above the plot.
  if (d.has_range) {
    for (auto [x, v, right] : {std::tuple{rx0, d.range_min, false}, std::tuple{rx1, d.range_max, true}}) {
      dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), palette::kRange, 2.0f);
      const std::string s = (right ? "max " : "min ") + fmt(v);
      const float w = ImGui::CalcTextSize(s.c_str()).x;
      const float tx = std::clamp(right ? x + 3 : x - 3 - w, origin.x, origin.x + avail.x - w);
      dl->AddText(ImVec2(tx, p0.y - line_h - 2), palette::kRange, s.c_str());
    }
    if (!d.range_label.empty()) {
      const float w = ImGui::CalcTextSize(d.range_label.c_str()).x;
      dl->AddText(ImVec2((rx0 + rx1 - w) / 2, p0.y - line_h - 2), palette::kRange, d.range_label.c_str());
    }
  }

  if (hovered_bin_ >= 0) ImGui::SetTooltip("%s", bin_text(hovered_bin_).c_str());
  ImGui::Dummy(avail);
}

}  // namespace ptv
