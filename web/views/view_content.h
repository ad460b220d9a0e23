// view_content.h — what every view is: something a canvas draws (view_canvas.h), with the items the
// pointer is over or picked, and its controls.
//
// Controls are numbers the learner sets by direct input on the view — a histogram's draggable range
// is the control "range" = [min, max]. Every view has the same controls interface; a view without
// controls has none, and rejects any. The page reads and sets them as plain data (the handle's
// controls() -> { range: [min, max] }, setControls(); web/app/views.js), keeps them in the URL
// (web/app/url_state.js: range:min,max) and writes them back into the view's spec, at the spec
// fields each control names, so a view made again from its spec shows what the learner left.
// A view's readout is what it computes for its current controls (a histogram range's SQNR, ...).
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace ptv {

struct Control {
  std::string name;                 // "range"
  std::vector<double> value;        // [min, max]
  std::vector<std::string> fields;  // where each number of value lives in the view's spec: "range.min", "range.max"
};
// Controls to set, by name.
using ControlValues = std::map<std::string, std::vector<double>>;
// Named numbers, in the order a page shows them: { sqnr, clipped, scale, zero_point }.
using Readout = std::vector<std::pair<std::string, double>>;

class ViewContent {
 public:
  virtual ~ViewContent() = default;
  // Runs inside an ImGui window that covers the whole canvas.
  virtual void draw() = 0;
  // The view's item under the pointer / picked by a click (a bin, a point, a bar group, a node),
  // -1 for none; pages and tests read them.
  virtual int hovered_item() const { return -1; }
  virtual int selected_item() const { return -1; }

  // The controls and their current values; none for a view without controls.
  virtual std::vector<Control> controls() const { return {}; }
  // Sets controls as the learner's input would. pt::ValueError naming the control when the view has
  // no control of that name or the value does not fit it; on error nothing changes.
  virtual void set_controls(const ControlValues& values);
  // What the view computes for its current controls; empty when it computes nothing.
  virtual Readout readout() const { return {}; }
  // How many times the learner's input (a drag) changed a control, so the page can tell.
  int input_changes() const { return input_changes_; }
  // The CSS cursor the pointer should show over the view now ("" for the default).
  virtual const char* cursor() const { return ""; }

 protected:
  int input_changes_ = 0;  // a view adds one for each change its input makes to a control
};

inline void ViewContent::set_controls(const ControlValues& values) {
  if (!values.empty()) throw pt::ValueError("setControls(): this view has no controls, but '" + values.begin()->first + "' was given");
}

}  // namespace ptv
