// chart_common.cpp — see chart_common.h.
#include "chart_common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "view_style.h"

namespace ptv {

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

std::vector<double> nice_ticks(double a, double b, int target) {
  std::vector<double> ticks;
  const double span = b - a;
  if (!(span > 0) || !std::isfinite(span)) return ticks;
  const double raw = span / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  for (double t = std::ceil(a / step) * step; t <= b + step * 1e-9; t += step) ticks.push_back(t);
  return ticks;
}

ImU32 series_colour(size_t i) {
  // Okabe–Ito colours, readable with the common colour-vision deficiencies.
  static constexpr ImU32 colours[] = {IM_COL32(0, 114, 178, 255),  IM_COL32(230, 159, 0, 255),
                                      IM_COL32(0, 158, 115, 255),  IM_COL32(204, 121, 167, 255),
                                      IM_COL32(86, 180, 233, 255), IM_COL32(213, 94, 0, 255),
                                      IM_COL32(0, 0, 0, 255)};
  return colours[i % (sizeof colours / sizeof colours[0])];
}

PlotArea plot_area_in_window(float top, bool x_label) {
  const float line_h = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float left = 52, bottom = line_h + 6 + (x_label ? line_h + 2 : 0);
  PlotArea a;
  a.p0 = ImVec2(origin.x + left, origin.y + top);
  a.p1 = ImVec2(origin.x + avail.x - 6, origin.y + avail.y - bottom);
  return a;
}

void draw_y_axis(ImDrawList* dl, const PlotArea& a, int target_ticks) {
  const float line_h = ImGui::GetTextLineHeight();
  for (double t : nice_ticks(a.y0, a.y1, target_ticks)) {
    const float y = a.sy(t);
    dl->AddLine(ImVec2(a.p0.x, y), ImVec2(a.p1.x, y), palette::kGrid);
    const std::string s = fmt(t);
    dl->AddText(ImVec2(a.p0.x - 6 - ImGui::CalcTextSize(s.c_str()).x, y - line_h / 2), palette::kMuted, s.c_str());
  }
  dl->AddLine(ImVec2(a.p0.x, a.p0.y), ImVec2(a.p0.x, a.p1.y), palette::kAxis);
}

void draw_x_axis(ImDrawList* dl, const PlotArea& a) {
  const float pw = a.p1.x - a.p0.x;
  for (double t : nice_ticks(a.x0, a.x1, std::max(2, static_cast<int>(pw / 70)))) {
    const float x = a.sx(t);
    dl->AddLine(ImVec2(x, a.p1.y), ImVec2(x, a.p1.y + 4), palette::kAxis);
    const std::string s = fmt(t);
    dl->AddText(ImVec2(x - ImGui::CalcTextSize(s.c_str()).x / 2, a.p1.y + 5), palette::kMuted, s.c_str());
  }
  dl->AddLine(ImVec2(a.p0.x, a.p1.y), ImVec2(a.p1.x, a.p1.y), palette::kAxis);
}

void draw_axis_labels(ImDrawList* dl, const PlotArea& a, const std::string& x_label, const std::string& y_label) {
  const float line_h = ImGui::GetTextLineHeight();
  if (!x_label.empty()) {
    const float w = ImGui::CalcTextSize(x_label.c_str()).x;
    dl->AddText(ImVec2((a.p0.x + a.p1.x - w) / 2, a.p1.y + line_h + 8), palette::kText, x_label.c_str());
  }
  if (!y_label.empty()) dl->AddText(ImVec2(a.p0.x + 4, a.p0.y - line_h - 2), palette::kText, y_label.c_str());
}

float draw_legend(ImDrawList* dl, ImVec2 pos, const std::vector<std::string>& names) {
  const float line_h = ImGui::GetTextLineHeight();
  float x = pos.x;
  for (size_t i = 0; i < names.size(); ++i) {
    dl->AddRectFilled(ImVec2(x, pos.y + 3), ImVec2(x + 10, pos.y + line_h - 3), series_colour(i));
    dl->AddText(ImVec2(x + 14, pos.y), palette::kText, names[i].c_str());
    x += 14 + ImGui::CalcTextSize(names[i].c_str()).x + 16;
  }
  return names.empty() ? 0 : line_h + 4;
}

}  // namespace ptv
