// histogram_view.cpp — draws HistogramData with ImDrawList: axes with round ticks, bars split at
// the range lines (inside blue, outside red), the range band, a hover tooltip per bin; a draggable
// range's ends follow the pointer and its readout line (pt::range_quantization) follows the range.
#include "histogram_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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
  // A draggable range's values, range and quant settings are checked by pt::range_quantization (set_data).
  if (d.draggable && !d.has_range) throw pt::ValueError("histogram: 'range.draggable' needs a 'range' with min and max");
}

void HistogramView::set_data(HistogramData d) {
  validate(d);
  const pt::RangeQuantization r =
      d.draggable ? pt::range_quantization(d.values, d.range_min, d.range_max, d.quant) : pt::RangeQuantization{};
  data_ = std::move(d);
  readout_ = r;
  hovered_bin_ = -1;
  near_handle_ = dragging_ = -1;
  if (selected_bin_ >= static_cast<int>(data_.counts.size())) selected_bin_ = -1;
}

void HistogramView::apply_range(double min, double max) {
  const pt::RangeQuantization r = pt::range_quantization(data_.values, min, max, data_.quant);
  data_.range_min = min;
  data_.range_max = max;
  readout_ = r;
}

std::vector<Control> HistogramView::controls() const {
  if (!data_.draggable) return {};
  return {{"range", {data_.range_min, data_.range_max}, {"range.min", "range.max"}}};
}

void HistogramView::set_controls(const ControlValues& values) {
  for (const auto& [name, v] : values) {
    if (name != "range" || !data_.draggable)
      throw pt::ValueError("histogram: this view has no control '" + name +
                           "' (its draggable 'range' is one when range.draggable is true)");
    if (v.size() != 2) throw pt::ValueError("histogram: 'range' must be [min, max], got " + std::to_string(v.size()) + " numbers");
  }
  if (const auto it = values.find("range"); it != values.end()) apply_range(it->second[0], it->second[1]);
}

Readout HistogramView::readout() const {
  if (!data_.draggable) return {};
  return {{"sqnr", readout_.sqnr}, {"clipped", readout_.clipped}, {"scale", readout_.scale},
          {"zero_point", static_cast<double>(readout_.zero_point)}};
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
  // A draggable range's readout on a line of its own, so a long one never covers the selected bin.
  if (d.draggable) {
    char buf[160];
    if (std::isnan(readout_.sqnr)) std::snprintf(buf, sizeof buf, "SQNR n/a");  // all values 0: 0 / 0
    else if (std::isinf(readout_.sqnr)) std::snprintf(buf, sizeof buf, "SQNR inf dB");
    else std::snprintf(buf, sizeof buf, "SQNR %.2f dB", readout_.sqnr);
    const size_t used = std::strlen(buf);
    std::snprintf(buf + used, sizeof buf - used, "   clipped %.2f%%   scale %.4g zp %lld", readout_.clipped * 100.0,
                  readout_.scale, static_cast<long long>(readout_.zero_point));
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kText), "%s", buf);
  }
  // Header line: the selected bin on the left, the clipped mass on the right.
  if (selected_bin_ >= 0)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kBarHover), "%s", bin_text(selected_bin_).c_str());
  else
    ImGui::TextUnformatted("");
  if (d.clipped >= 0 && !d.draggable) {  // a dragged range's clipped share is in the readout
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

  // The chosen range's lines on screen, clamped to the plot; a drag below may move them.
  auto range_x0 = [&] { return d.has_range ? std::clamp(area.sx(d.range_min), p0.x, p1.x) : p0.x; };
  auto range_x1 = [&] { return d.has_range ? std::clamp(area.sx(d.range_max), p0.x, p1.x) : p1.x; };
  const float gx0 = range_x0(), gx1 = range_x1();  // where the lines were before this frame's drag

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  // A draggable range's ends: the one within kGrabPx of the pointer (over the plot or the labels
  // above it) is grabbed by a press and follows the pointer until release. When both lines sit at
  // the same x, the side the pointer is on picks the end, so either can be pulled away.
  near_handle_ = -1;
  bool grabbed = false;
  if (d.draggable) {
    if (ImGui::IsWindowHovered() && mouse.y >= p0.y - line_h - 2 && mouse.y <= p1.y) {
      const float d0 = std::abs(mouse.x - gx0), d1 = std::abs(mouse.x - gx1);
      if (std::min(d0, d1) <= kGrabPx) near_handle_ = (d1 < d0 || (d1 == d0 && mouse.x >= gx1)) ? 1 : 0;
    }
    if (near_handle_ >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      dragging_ = near_handle_;
      grabbed = true;
    }
    // The frame that sees the release still moves the end to where the pointer was let go: moves
    // and the release may arrive between the same two frames (view_canvas.h queues them).
    if (dragging_ >= 0 && !grabbed) {
      // One pixel of data keeps min < max; the dragged end stays on the plot.
      const double v = std::clamp(area.data_x(mouse.x), d.lo, d.hi), gap = (d.hi - d.lo) / pw;
      const double nmin = dragging_ == 0 ? std::min(v, d.range_max - gap) : d.range_min;
      const double nmax = dragging_ == 1 ? std::max(v, d.range_min + gap) : d.range_max;
      if (nmin != d.range_min || nmax != d.range_max) {
        try {
          apply_range(nmin, nmax);
          ++input_changes_;
        } catch (const pt::Error&) {
          // Validated data cannot fail here; if it did, the range stays where it was (draw() runs
          // outside guarded(), so nothing may escape to JS).
        }
      }
    }
    if (dragging_ >= 0 && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) dragging_ = -1;
  }
  // The range as it is now: a band behind the bars.
  const float rx0 = range_x0(), rx1 = range_x1();
  if (d.has_range) dl->AddRectFilled(ImVec2(rx0, p0.y), ImVec2(rx1, p1.y), palette::kRangeFill);

  // Hover: which bin is under the pointer (none while a range end is under it or dragged).
  hovered_bin_ = -1;
  if (ImGui::IsWindowHovered() && !on_range_end() && mouse.x >= p0.x && mouse.x < p1.x && mouse.y >= p0.y &&
      mouse.y <= p1.y)
    hovered_bin_ = std::min(n - 1, static_cast<int>((mouse.x - p0.x) / pw * n));
  if (hovered_bin_ >= 0 && !grabbed && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
    selected_bin_ = selected_bin_ == hovered_bin_ ? -1 : hovered_bin_;
  if (on_range_end()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);

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
      const int end = right ? 1 : 0;
      const bool hot = d.draggable && (dragging_ == end || (dragging_ < 0 && near_handle_ == end));
      dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), palette::kRange, hot ? 3.5f : 2.0f);
      // A draggable end has a grip at the top of its line, saying it can be moved.
      if (d.draggable) dl->AddRectFilled(ImVec2(x - 3, p0.y), ImVec2(x + 3, p0.y + 14), palette::kRange, 2.0f);
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
