// bind_views.cpp — Embind for web/views: ViewCanvas (one canvas = WebGL2 + ImGui context) and the
// data each view draws. Thin translation: JS objects become the views' plain C++ structs.
// The JS side that owns canvases, feeds pointer events and schedules frames is web/app/views.js.
//
//   const v = M.create_view_canvas('#view-1');   // null + take_error() on failure
//   v.resize(cssW, cssH, devicePixelRatio);
//   M.set_histogram(v, { lo, hi, counts, range: { min, max, label }, clipped, log_y });
//   while (v.frame(performance.now())) await nextAnimationFrame();
#include <emscripten/bind.h>

#include <cmath>
#include <memory>

#include "common.h"
#include "histogram_view.h"
#include "view_canvas.h"

using emscripten::val;
using ptv::HistogramView;
using ptv::ViewCanvas;

namespace {

ViewCanvas* create_view_canvas(const std::string& selector) {
  return ptjs::guarded([&]() -> ViewCanvas* { return new ViewCanvas(selector); });
}

double number_or(const val& obj, const char* key, double fallback) {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return fallback;
  if (!v.isNumber()) throw pt::TypeError(std::string("histogram: '") + key + "' must be a number");
  return v.as<double>();
}

std::string string_or(const val& obj, const char* key) {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return "";
  if (!v.isString()) throw pt::TypeError(std::string("histogram: '") + key + "' must be a string");
  return v.as<std::string>();
}

ptv::HistogramData histogram_from_js(const val& spec) {
  if (spec.isNull() || spec.typeOf().as<std::string>() != "object")
    throw pt::TypeError("histogram: the data must be an object { lo, hi, counts, range?, clipped?, log_y? }");
  ptv::HistogramData d;
  d.lo = number_or(spec, "lo", NAN);
  d.hi = number_or(spec, "hi", NAN);
  const val counts = spec["counts"];
  if (counts.isUndefined() || counts.isNull() || !counts["length"].isNumber())
    throw pt::TypeError("histogram: 'counts' must be an array or typed array of numbers");
  d.counts = emscripten::convertJSArrayToNumberVector<double>(counts);
  const val range = spec["range"];
  if (!range.isUndefined() && !range.isNull()) {
    d.has_range = true;
    d.range_min = number_or(range, "min", NAN);
    d.range_max = number_or(range, "max", NAN);
    d.range_label = string_or(range, "label");
  }
  d.clipped = number_or(spec, "clipped", -1);
  d.log_y = spec["log_y"].isTrue();
  return d;
}

// Puts a histogram on the canvas (replacing whatever it showed) or updates the one it shows.
void set_histogram(ViewCanvas& canvas, const val& spec) {
  ptjs::guarded([&] {
    ptv::HistogramData d = histogram_from_js(spec);
    auto* view = dynamic_cast<HistogramView*>(canvas.content());
    if (!view) {
      auto fresh = std::make_unique<HistogramView>();
      fresh->set_data(std::move(d));
      canvas.set_content(std::move(fresh));
    } else {
      view->set_data(std::move(d));
      canvas.invalidate();
    }
    return 0;
  });
}

int hovered_bin(ViewCanvas& canvas) {
  auto* view = dynamic_cast<HistogramView*>(canvas.content());
  return view ? view->hovered_bin() : -1;
}

int selected_bin(ViewCanvas& canvas) {
  auto* view = dynamic_cast<HistogramView*>(canvas.content());
  return view ? view->selected_bin() : -1;
}

}  // namespace

EMSCRIPTEN_BINDINGS(pt_views) {
  using namespace emscripten;
  class_<ViewCanvas>("ViewCanvas")
      .function("resize", &ViewCanvas::resize)
      .function("pointer_move", &ViewCanvas::pointer_move)
      .function("pointer_button", &ViewCanvas::pointer_button)
      .function("wheel", &ViewCanvas::wheel)
      .function("pointer_leave", &ViewCanvas::pointer_leave)
      .function("frame", &ViewCanvas::frame)
      .function("frames_drawn", &ViewCanvas::frames_drawn);
  function("create_view_canvas", &create_view_canvas, allow_raw_pointers());
  function("set_histogram", &set_histogram);
  function("hovered_bin", &hovered_bin);
  function("selected_bin", &selected_bin);
}
