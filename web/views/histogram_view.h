// histogram_view.h — a histogram chart: bins of equal width over [lo, hi], the quantization range
// the engine chose (two vertical lines, the bins outside it drawn as clipped), and the clipped mass
// as the engine computed it. Hovering a bin shows its interval and count; clicking a bin selects it
// (outlined, its numbers shown in the header line), clicking it again clears the selection.
//
// The view draws what it is given and computes no quantization: range and clipped mass come from
// the engine (an observer's min_val / max_val, a qparams table), the counts from whoever binned
// the data. In headless mode (the lesson runner) the same HistogramData is the view's output.
#pragma once
#include <string>
#include <vector>

#include "view_canvas.h"

namespace ptv {

// The chart's title is not here: the page shows it as HTML around the canvas (any script, accessible).
struct HistogramData {
  double lo = 0, hi = 1;        // the interval the bins cover
  std::vector<double> counts;   // counts.size() bins of width (hi - lo) / counts.size()
  bool has_range = false;       // draw the chosen range [range_min, range_max]
  double range_min = 0, range_max = 0;
  std::string range_label;      // e.g. "MinMaxObserver"
  double clipped = -1;          // fraction of the data outside the range (0..1); < 0: not shown
  bool log_y = false;           // log10(1 + count) on the y axis, for heavy tails
};

// Throws pt::ValueError naming the field when the data cannot be drawn.
void validate(const HistogramData& d);

class HistogramView : public ViewContent {
 public:
  void set_data(HistogramData d);  // validates first: on error the old data stays
  const HistogramData& data() const { return data_; }
  int hovered_item() const override { return hovered_bin_; }    // a bin, or -1
  int selected_item() const override { return selected_bin_; }  // a bin, or -1
  void draw() override;

 private:
  HistogramData data_;
  int hovered_bin_ = -1;
  int selected_bin_ = -1;
};

}  // namespace ptv
