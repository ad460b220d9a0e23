// chart_views.h — line charts (calibration timelines, training curves) and grouped bar charts
// (per-channel or per-layer SQNR). Like every view they draw numbers the engine produced and
// compute nothing about quantization. Hovering shows the values under the pointer.
//
//   line: series [{ name, x (optional: 0, 1, 2 ... when empty), y }], marks [{ x, label }], axis labels
//   bar:  labels (one group per label), series [{ name, values (one per label) }], y axis label
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "view_content.h"

namespace ptv {

struct LineSeries {
  std::string name;
  std::vector<double> x;  // ascending; empty = 0, 1, 2, ...
  std::vector<double> y;  // a NaN or infinite y leaves a gap
};

struct LineMark {
  double x = 0;
  std::string label;
};

struct LineChartData {
  std::vector<LineSeries> series;
  std::vector<LineMark> marks;  // vertical lines, e.g. the batch where a spike enters calibration
  std::string x_label, y_label;
};

struct BarSeries {
  std::string name;
  std::vector<double> values;  // one per label; NaN = no bar
};

struct BarChartData {
  std::vector<std::string> labels;
  std::vector<BarSeries> series;
  std::string y_label;
};

// Throw pt::ValueError naming the field when the data cannot be drawn.
void validate(const LineChartData& d);
void validate(const BarChartData& d);

// A chart that keeps its validated data and the item under the pointer; the kinds differ in draw().
template <class Data> class ChartView : public ViewContent {
 public:
  void set_data(Data d) {  // validates first: on error the old data stays
    validate(d);
    data_ = std::move(d);
    hovered_index_ = -1;
  }
  int hovered_item() const override { return hovered_index_; }

 protected:
  Data data_;
  int hovered_index_ = -1;
};

class LineChartView : public ChartView<LineChartData> {  // hovered: the nearest point of series 0, or -1
 public:
  void draw() override;
};

class BarChartView : public ChartView<BarChartData> {  // hovered: the label group, or -1
 public:
  void draw() override;
};

}  // namespace ptv
