// chart_common.h — what every chart view shares: number formatting, round tick positions, the plot
// rectangle with its data-to-screen mapping, axes with ticks, a legend, and series colours.
// Charts draw with ImDrawList inside the canvas-wide ImGui window (view_canvas.h).
#pragma once
#include <string>
#include <vector>

#include "imgui.h"

namespace ptv {

std::string fmt(double v);  // "%.4g", with -0 and 1e-13 shown as 0
// Round tick positions covering [a, b]: steps of 1, 2 or 5 times a power of ten, about `target` of them.
std::vector<double> nice_ticks(double a, double b, int target);
// The i-th series colour (cycles through a colour-blind-friendly set).
ImU32 series_colour(size_t i);

// The plot rectangle [p0, p1] on screen and the data box [x0, x1] x [y0, y1] it shows.
struct PlotArea {
  ImVec2 p0, p1;
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  float sx(double x) const { return p0.x + static_cast<float>((x - x0) / (x1 - x0)) * (p1.x - p0.x); }
  float sy(double y) const { return p1.y - static_cast<float>((y - y0) / (y1 - y0)) * (p1.y - p0.y); }
  double data_x(float px) const { return x0 + (px - p0.x) / (p1.x - p0.x) * (x1 - x0); }
  bool contains(ImVec2 p) const { return p.x >= p0.x && p.x <= p1.x && p.y >= p0.y && p.y <= p1.y; }
  bool usable() const { return p1.x - p0.x >= 20 && p1.y - p0.y >= 20; }
};

// The plot rectangle inside the space left in the current ImGui window, with room for y tick
// labels on the left, x tick labels (and an optional axis label) below, `top` pixels above.
PlotArea plot_area_in_window(float top, bool x_label);

// Grid lines and tick labels on the left (y) and below (x); the two axis lines.
void draw_y_axis(ImDrawList* dl, const PlotArea& a, int target_ticks);
void draw_x_axis(ImDrawList* dl, const PlotArea& a);
// Axis titles: x centred below the tick labels, y at the top-left corner above the plot.
void draw_axis_labels(ImDrawList* dl, const PlotArea& a, const std::string& x_label, const std::string& y_label);
// A row of colour swatches and names starting at `pos`; returns its height.
float draw_legend(ImDrawList* dl, ImVec2 pos, const std::vector<std::string>& names);

}  // namespace ptv
