// bind_views.cpp — Embind for web/views: ViewCanvas (one canvas = WebGL2 + ImGui context) and the
// data each view draws. Thin translation: JS objects become the views' plain C++ structs (field
// types are checked here, values by the views' validate()).
// The JS side that owns canvases, feeds pointer events and schedules frames is web/app/views.js.
//
//   const v = M.create_view_canvas('#view-1');   // null + take_error() on failure
//   v.resize(cssW, cssH, devicePixelRatio);
//   M.set_view(v, 'histogram', { lo, hi, counts, range: { min, max, label }, clipped, log_y });
//   M.set_view(v, 'histogram', { lo, hi, counts, values, range: { min, max, label, draggable: true },
//                                quant: { quant_min, quant_max, symmetric, dtype } });   // a draggable range
//   M.view_controls(v);          // { range: [min, max] } for a draggable histogram, else null
//   M.set_view_controls(v, { range: [min, max] });   // moves it (typed error + take_error() on bad input)
//   M.view_readout(v);           // { sqnr, clipped, scale, zero_point } for the current range, else null
//   M.view_drags(v);             // how many range changes the learner made by dragging (changes = a drag)
//   M.view_cursor(v);            // the CSS cursor the pointer should show: 'ew-resize' over a range end, else 
//   M.set_view(v, 'line', { series: [{ name, x, y }], marks: [{ x, label }], x_label, y_label });
//   M.set_view(v, 'bar', { labels, series: [{ name, values }], y_label });
//   M.set_view(v, 'graph', { stages: [{ title, nodes, edges }], focus, hops, show_annotations, show_params, value_label });
//     (or one stage: { nodes, edges, ... }; nodes and edges as gm.graph_view() returns them)
//   M.graph_state(v);   // { hovered, selected, zoom, screen_x, screen_y, fit_all, shows_all, content_height,
//                       //   stages: [{ crossings, boxes: [{ index, x, y, w, h, layer }] }] }
//                       // a world point (x, y) is at canvas pixel (screen_x + x * zoom, screen_y + y * zoom);
//                       // shows_all: the whole graph is in view (else an overview is drawn, bottom right);
//                       // content_height: the canvas CSS height that would show it whole at a readable scale
//   while (v.frame(performance.now())) await nextAnimationFrame();
//   v.hovered_item(); v.selected_item();
#include <emscripten/bind.h>

#include <cmath>
#include <memory>

#include "chart_common.h"
#include "chart_views.h"
#include "common.h"
#include "graph_view.h"
#include "histogram_view.h"
#include "view_canvas.h"

using emscripten::val;
using ptv::ViewCanvas;

namespace {

ViewCanvas* create_view_canvas(const std::string& selector) {
  return ptjs::guarded([&]() -> ViewCanvas* { return new ViewCanvas(selector); });
}

// Field readers: `where` names the view and field in the error message.
bool absent(const val& v) { return v.isUndefined() || v.isNull(); }

void require_object(const val& v, const std::string& where) {
  if (absent(v) || v.typeOf().as<std::string>() != "object") throw pt::TypeError(where + " must be an object");
}

double number_or(const val& obj, const char* key, double fallback, const std::string& where) {
  const val v = obj[key];
  if (absent(v)) return fallback;
  if (!v.isNumber()) throw pt::TypeError(where + "." + key + " must be a number");
  return v.as<double>();
}

std::string string_or(const val& obj, const char* key, const std::string& where) {
  const val v = obj[key];
  if (absent(v)) return "";
  if (!v.isString()) throw pt::TypeError(where + "." + key + " must be a string");
  return v.as<std::string>();
}

bool is_list(const val& v) {
  return !absent(v) && (v.isArray() || val::global("ArrayBuffer").call<bool>("isView", v));
}

std::vector<double> numbers(const val& obj, const char* key, bool optional, const std::string& where) {
  const val v = obj[key];
  if (absent(v) && optional) return {};
  if (!is_list(v)) throw pt::TypeError(where + "." + key + " must be an array or typed array of numbers");
  std::vector<double> out = emscripten::convertJSArrayToNumberVector<double>(v);
  const unsigned n = v["length"].as<unsigned>();
  if (v.isArray())  // a plain array may hold non-numbers, which convert to NaN: name the first one
    for (unsigned i = 0; i < n; ++i)
      if (!v[i].isNumber()) throw pt::TypeError(where + "." + key + "[" + std::to_string(i) + "] is not a number");
  return out;
}

// Calls f(item, "where[i]") for each element of the array obj[key].
template <class F> void each(const val& obj, const char* key, bool optional, const std::string& where, F&& f) {
  const val v = obj[key];
  if (absent(v) && optional) return;
  if (absent(v) || !v.isArray()) throw pt::TypeError(where + "." + key + " must be an array");
  const unsigned n = v["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) f(v[i], where + "." + key + "[" + std::to_string(i) + "]");
}

ptv::HistogramData histogram_from_js(const val& spec) {
  const std::string w = "histogram";
  require_object(spec, w);
  ptv::HistogramData d;
  d.lo = number_or(spec, "lo", NAN, w);
  d.hi = number_or(spec, "hi", NAN, w);
  d.counts = numbers(spec, "counts", false, w);
  const val range = spec["range"];
  if (!absent(range)) {
    require_object(range, w + ".range");
    d.has_range = true;
    d.range_min = number_or(range, "min", NAN, w + ".range");
    d.range_max = number_or(range, "max", NAN, w + ".range");
    d.range_label = string_or(range, "label", w + ".range");
    d.draggable = range["draggable"].isTrue();
  }
  if (d.draggable) {
    // The raw values the readout quantizes (float32, as the engine computes) and how qparams follow the range.
    for (double v : numbers(spec, "values", false, w)) d.values.push_back(static_cast<float>(v));
    const val quant = spec["quant"];
    require_object(quant, w + ".quant");
    auto integer = [&](const char* key) {
      const double v = number_or(quant, key, NAN, w + ".quant");
      if (!std::isfinite(v) || v != std::floor(v) || std::abs(v) > 2147483648.0)
        throw pt::ValueError("histogram: 'quant." + std::string(key) + "' must be an integer, got " + ptv::fmt(v));
      return static_cast<int64_t>(v);
    };
    d.quant.quant_min = integer("quant_min");
    d.quant.quant_max = integer("quant_max");
    d.quant.symmetric = quant["symmetric"].isTrue();
    const std::string dtype = string_or(quant, "dtype", w + ".quant");
    if (!dtype.empty()) {
      try {
        d.quant.dtype = pt::dtype_from_name(dtype);
      } catch (const pt::Error&) {
        throw pt::ValueError("histogram: 'quant.dtype' must be int8, uint8, int16 or int32, got '" + dtype + "'");
      }
    }
  }
  d.clipped = number_or(spec, "clipped", -1, w);
  d.log_y = spec["log_y"].isTrue();
  return d;
}

ptv::LineChartData line_from_js(const val& spec) {
  const std::string w = "line chart";
  require_object(spec, w);
  ptv::LineChartData d;
  each(spec, "series", false, w, [&](const val& s, const std::string& where) {
    require_object(s, where);
    d.series.push_back({string_or(s, "name", where), numbers(s, "x", true, where), numbers(s, "y", false, where)});
  });
  each(spec, "marks", true, w, [&](const val& m, const std::string& where) {
    require_object(m, where);
    d.marks.push_back({number_or(m, "x", NAN, where), string_or(m, "label", where)});
  });
  d.x_label = string_or(spec, "x_label", w);
  d.y_label = string_or(spec, "y_label", w);
  return d;
}

ptv::BarChartData bar_from_js(const val& spec) {
  const std::string w = "bar chart";
  require_object(spec, w);
  ptv::BarChartData d;
  const val labels = spec["labels"];
  if (absent(labels) || !labels.isArray()) throw pt::TypeError(w + ".labels must be an array of strings");
  const unsigned n = labels["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const val l = labels[i];
    if (!l.isString() && !l.isNumber()) throw pt::TypeError(w + ".labels[" + std::to_string(i) + "] must be a string or a number");
    d.labels.push_back(l.isString() ? l.as<std::string>() : ptv::fmt(l.as<double>()));
  }
  each(spec, "series", false, w, [&](const val& s, const std::string& where) {
    require_object(s, where);
    d.series.push_back({string_or(s, "name", where), numbers(s, "values", false, where)});
  });
  d.y_label = string_or(spec, "y_label", w);
  return d;
}

std::vector<std::string> strings(const val& obj, const char* key, const std::string& where) {
  std::vector<std::string> out;
  each(obj, key, true, where, [&](const val& s, const std::string& w) {
    if (!s.isString()) throw pt::TypeError(w + " must be a string");
    out.push_back(s.as<std::string>());
  });
  return out;
}

// One stage: { title?, nodes: [...], edges: [{ from, to }] }; nodes as gm.graph_view() gives them
// ({ name, op, target, label, shape, dtype, is_observer, annotations, value? }) plus details?: [strings].
ptv::GraphStage stage_from_js(const val& st, const std::string& where) {
  require_object(st, where);
  ptv::GraphStage out;
  out.title = string_or(st, "title", where);
  each(st, "nodes", false, where, [&](const val& n, const std::string& w) {
    require_object(n, w);
    ptv::GraphNodeData d;
    d.name = string_or(n, "name", w);
    d.op = string_or(n, "op", w);
    d.target = string_or(n, "target", w);
    d.label = string_or(n, "label", w);
    const val shape = n["shape"];
    if (is_list(shape) && shape["length"].as<unsigned>() > 0) {
      d.shape = "[";
      for (double v : numbers(n, "shape", false, w)) d.shape += (d.shape.size() > 1 ? ", " : "") + ptv::fmt(v);
      d.shape += "]";
    }
    const std::string dtype = string_or(n, "dtype", w);
    if (!dtype.empty()) d.shape += (d.shape.empty() ? "" : " ") + dtype;
    d.is_observer = n["is_observer"].isTrue();
    d.annotations = strings(n, "annotations", w);
    d.details = strings(n, "details", w);
    d.has_value = !absent(n["value"]);
    d.value = number_or(n, "value", 0, w);
    out.nodes.push_back(std::move(d));
  });
  each(st, "edges", false, where, [&](const val& e, const std::string& w) {
    require_object(e, w);
    out.edges.push_back({string_or(e, "from", w), string_or(e, "to", w)});
  });
  return out;
}

ptv::GraphViewData graph_from_js(const val& spec) {
  const std::string w = "graph view";
  require_object(spec, w);
  ptv::GraphViewData d;
  if (absent(spec["stages"])) d.stages.push_back(stage_from_js(spec, w));
  else each(spec, "stages", false, w, [&](const val& st, const std::string& where) { d.stages.push_back(stage_from_js(st, where)); });
  d.focus = strings(spec, "focus", w);
  d.hops = static_cast<int>(number_or(spec, "hops", 1, w));
  d.show_annotations = !spec["show_annotations"].isFalse();
  d.show_params = !spec["show_params"].isFalse();
  d.value_label = string_or(spec, "value_label", w);
  return d;
}

// The graph view's state for pages and tests: hovered / selected node names and, per stage, the
// laid-out boxes (world coordinates) and crossings. Empty until the view has drawn once.
val graph_state(ViewCanvas& canvas) {
  val out = val::object();
  auto* view = dynamic_cast<ptv::GraphView*>(canvas.content());
  if (!view) return val::null();
  out.set("hovered", view->hovered_name());
  out.set("selected", view->selected_name());
  val stages = val::array();
  for (const auto& sl : view->stage_layouts()) {
    val st = val::object();
    st.set("crossings", sl.layout.crossings);
    val boxes = val::array();
    for (size_t i = 0; i < sl.shown.size(); ++i) {
      const ptv::LayoutBox& b = sl.layout.boxes[i];
      val o = val::object();
      o.set("index", sl.shown[i]);
      o.set("x", sl.x + b.x);
      o.set("y", b.y);
      o.set("w", b.w);
      o.set("h", b.h);
      o.set("layer", b.layer);
      boxes.call<void>("push", o);
    }
    st.set("boxes", boxes);
    stages.call<void>("push", st);
  }
  out.set("stages", stages);
  out.set("zoom", view->zoom());
  out.set("screen_x", view->screen_origin().x);
  out.set("screen_y", view->screen_origin().y);
  out.set("fit_all", view->fit_all());
  out.set("shows_all", view->shows_all());
  out.set("content_height", view->content_height());
  return out;
}

// Shows `data` on the canvas as a view of `kind`: updates the view it shows when that is the same
// kind, else replaces it. On any error the canvas keeps what it showed.
template <class View, class Data> void show(ViewCanvas& canvas, Data d) {
  if (auto* view = dynamic_cast<View*>(canvas.content())) {
    view->set_data(std::move(d));
    canvas.invalidate();
  } else {
    auto fresh = std::make_unique<View>();
    fresh->set_data(std::move(d));
    canvas.set_content(std::move(fresh));
  }
}

void set_view(ViewCanvas& canvas, const std::string& kind, const val& data) {
  ptjs::guarded([&] {
    if (kind == "histogram") show<ptv::HistogramView>(canvas, histogram_from_js(data));
    else if (kind == "line") show<ptv::LineChartView>(canvas, line_from_js(data));
    else if (kind == "bar") show<ptv::BarChartView>(canvas, bar_from_js(data));
    else if (kind == "graph") show<ptv::GraphView>(canvas, graph_from_js(data));
    else throw pt::ValueError("views: unknown view '" + kind + "'; known: histogram, line, bar, graph");
    return 0;
  });
}

// A draggable histogram's controls and readout (web/app/views.js: handle.controls(), setControls(), readout()).
ptv::HistogramView* draggable_histogram(ViewCanvas& canvas) {
  auto* view = dynamic_cast<ptv::HistogramView*>(canvas.content());
  return view && view->data().draggable ? view : nullptr;
}

val view_controls(ViewCanvas& canvas) {
  const ptv::HistogramView* view = draggable_histogram(canvas);
  if (!view) return val::null();
  val range = val::array();
  range.call<void>("push", view->data().range_min);
  range.call<void>("push", view->data().range_max);
  val out = val::object();
  out.set("range", range);
  return out;
}

void set_view_controls(ViewCanvas& canvas, const val& controls) {
  ptjs::guarded([&] {
    const std::string w = "setControls()";
    require_object(controls, w);
    const std::vector<double> r = numbers(controls, "range", false, w);
    if (r.size() != 2) throw pt::ValueError(w + ": 'range' must be [min, max], got " + std::to_string(r.size()) + " numbers");
    ptv::HistogramView* view = draggable_histogram(canvas);
    if (!view) throw pt::ValueError(w + ": this view has no draggable 'range' (a histogram with range.draggable: true)");
    view->set_range(r[0], r[1]);
    canvas.invalidate();
    return 0;
  });
}

val view_readout(ViewCanvas& canvas) {
  const ptv::HistogramView* view = draggable_histogram(canvas);
  if (!view) return val::null();
  const ptv::RangeReadout& r = *view->readout();
  val out = val::object();
  out.set("sqnr", r.sqnr);
  out.set("clipped", r.clipped);
  out.set("scale", r.scale);
  out.set("zero_point", static_cast<double>(r.zero_point));
  return out;
}

int view_drags(ViewCanvas& canvas) {
  const ptv::HistogramView* view = draggable_histogram(canvas);
  return view ? view->drags() : 0;
}

std::string view_cursor(ViewCanvas& canvas) {
  const ptv::HistogramView* view = draggable_histogram(canvas);
  return view && view->resize_cursor() ? "ew-resize" : "";
}

int hovered_item(ViewCanvas& canvas) { return canvas.content() ? canvas.content()->hovered_item() : -1; }
int selected_item(ViewCanvas& canvas) { return canvas.content() ? canvas.content()->selected_item() : -1; }

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
      .function("frames_drawn", &ViewCanvas::frames_drawn)
      .function("hovered_item", &hovered_item)
      .function("selected_item", &selected_item);
  function("create_view_canvas", &create_view_canvas, allow_raw_pointers());
  function("set_view", &set_view);
  function("graph_state", &graph_state);
  function("view_controls", &view_controls);
  function("set_view_controls", &set_view_controls);
  function("view_readout", &view_readout);
  function("view_drags", &view_drags);
  function("view_cursor", &view_cursor);
}
