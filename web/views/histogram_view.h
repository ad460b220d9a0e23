// histogram_view.h — a histogram chart: bins of equal width over [lo, hi], the quantization range
// the engine chose (two vertical lines, the bins outside it drawn as clipped), and the clipped mass
// as the engine computed it. Hovering a bin shows its interval and count; clicking a bin selects it
// (outlined, its numbers shown in the header line), clicking it again clears the selection.
//
// The view draws what it is given: range and clipped mass come from the engine (an observer's
// min_val / max_val, a qparams table), the counts from whoever binned the data. In headless mode
// (the lesson runner) the same HistogramData is the view's output.
//
// A draggable range (JS: range: { min, max, label?, draggable: true }, with the raw `values` and
// quant: { quant_min, quant_max, symmetric?: false, dtype?: 'int8' }) is the view's control "range"
// = [min, max] (view_content.h; spec fields range.min, range.max): pressing within kGrabPx of a range
// line grabs that end (the pointer shows a resize cursor over it), dragging moves it within [lo, hi]
// and never past the other end; a click elsewhere still selects a bin. For the current range the
// view shows a readout line, "SQNR 38.21 dB   clipped 0.41%   scale 0.0118 zp -128": the engine's
// pt::range_quantization (engine/quant/range_quantization.h), recomputed only when the range
// changes. The readout's clipped share replaces the data's `clipped` (which described the range it
// came with).
#pragma once
#include <string>
#include <vector>

#include "quant/range_quantization.h"
#include "view_content.h"

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
  bool draggable = false;       // range.draggable: the learner may drag the range's ends (needs has_range)
  std::vector<float> values;    // draggable: the raw data the readout quantizes (float32, as the engine's)
  pt::RangeQuant quant;         // draggable: how qparams follow the range
};

// Throws pt::ValueError naming the field when the data cannot be drawn.
void validate(const HistogramData& d);

class HistogramView : public ViewContent {
 public:
  static constexpr float kGrabPx = 5;  // how near (CSS px) to a range line a press grabs it

  void set_data(HistogramData d);  // validates first: on error the old data stays
  int hovered_item() const override { return hovered_bin_; }    // a bin, or -1
  int selected_item() const override { return selected_bin_; }  // a bin, or -1
  void draw() override;

  // A draggable range is the control "range" = [min, max]; a histogram without one has no controls.
  std::vector<Control> controls() const override;
  // ValueError naming 'range' when the view has no draggable range, the value is not [min, max] or
  // min < max does not hold; on error nothing changes. Not counted as the learner's input.
  void set_controls(const ControlValues& values) override;
  // { sqnr, clipped, scale, zero_point } for the current range; empty unless the range is draggable.
  Readout readout() const override;
  // "ew-resize" while the pointer is over a range end or drags one.
  const char* cursor() const override { return on_range_end() ? "ew-resize" : ""; }

 private:
  bool on_range_end() const { return near_handle_ >= 0 || dragging_ >= 0; }  // the pointer is over or drags an end
  void apply_range(double min, double max);  // recomputes the readout first; throws, changing nothing

  HistogramData data_;
  pt::RangeQuantization readout_;
  int hovered_bin_ = -1;
  int selected_bin_ = -1;
  int near_handle_ = -1;  // 0 the min line, 1 the max line, -1 none (under the pointer)
  int dragging_ = -1;     // the end being dragged, -1 none
};

}  // namespace ptv
