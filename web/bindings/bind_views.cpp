// bind_views.cpp — Embind for web/views: ViewCanvas (one canvas = WebGL2 + ImGui context), the view
// kinds and how each reads its spec, and the controls every view has. Thin translation: JS objects
// become the views' plain C++ structs (field types are checked here, values by the views' validate()
// and the engine). The JS side that owns canvases, feeds pointer events and schedules frames is
// web/app/views.js.
//
//   const v = M.create_view_canvas('#view-1');   // null + take_error() on failure
//   v.resize(cssW, cssH, devicePixelRatio);
//   M.check_view_kind(spec);     // ValueError unless spec.view names a view kind (kViews below)
//   M.set_view(v, { view: 'histogram', lo, hi, counts, range: { min, max, label }, clipped, log_y });
//   M.set_view(v, { view: 'histogram', lo, hi, counts, values, range: { min, max, label, draggable: true },
//                   quant: { quant_min, quant_max, symmetric, dtype } });   // a draggable range
//   M.set_view(v, { view: 'line', series: [{ name, x, y }], marks: [{ x, label }], x_label, y_label });
//   M.set_view(v, { view: 'bar', labels, series: [{ name, values }], y_label });
//   M.set_view(v, { view: 'graph', stages: [{ title, nodes, edges }], focus, hops, show_annotations, show_params,
//                   metric: { name: 'SQNR', unit: 'dB', values: { node name: number } },     // graph_metric.h, optional
//                   partition: { backend, delegated: [names], float: [{ name, reason }] } });   // graph_partition.h, optional
//     (or one stage: { view: 'graph', nodes, edges, ... }; nodes and edges as gm.graph_view() gives them: graph_view_js.h)
//   M.set_view(v, { view: 'integer_picture', node, requantization, relu?, input_zero_point, output_zero_point, qmin, qmax,
//                   elements: [{ coords, inputs, weights, products, accumulator, bias, accumulator_with_bias, multiplier,
//                                fixed_multiplier, shift, scaled, output, bias_f32?, output_f32?, reference? }], element });
//     // control: element; requantization 'f32_output' (the float output stage) reads bias_f32 and output_f32, not output
//   M.graph_state(v);   // { hovered, selected, zoom, screen_x, screen_y, fit_all, shows_all, content_height,
//                       //   stages: [{ crossings, boxes: [{ index, x, y, w, h, layer }] }] }
//                       // a world point (x, y) is at canvas pixel (screen_x + x * zoom, screen_y + y * zoom);
//                       // shows_all: the whole graph is in view (else an overview is drawn, bottom right);
//                       // content_height: the canvas CSS height that would show it whole at a readable scale
//   while (v.frame(performance.now())) await nextAnimationFrame();
//   v.hovered_item(); v.selected_item();
//
// Controls, the same for every view (web/views/view_content.h); a control crosses as
// { name, value: [numbers], fields: ['range.min', 'range.max'] } (the spec fields its numbers live in):
//   M.view_controls(v);                  // [control], [] for a view without controls
//   M.set_view_controls(v, { range: [min, max] });   // as the learner's input would (typed error + take_error())
//   M.spec_controls(spec, controls);     // a view not made yet: the controls its spec gives, after setting
//                                        // `controls` (undefined: none), checked as the live view checks them
//   M.view_readout(v);                   // { sqnr, clipped, scale, zero_point } for a draggable histogram, the chosen
//                                        // element's numbers for an integer picture, else null
//   M.view_input_changes(v);             // how many control changes the learner's input made (a drag)
//   M.view_cursor(v);                    // the CSS cursor the pointer should show ('ew-resize' over a range end, else '')
#include <emscripten/bind.h>

#include <cmath>
#include <memory>

#include "chart_common.h"
#include "chart_views.h"
#include "common.h"
#include "graph_view.h"
#include "graph_view_js.h"
#include "histogram_view.h"
#include "integer_picture_view.h"
#include "spec_reader.h"
#include "view_canvas.h"

using emscripten::val;
using ptv::ViewCanvas;
using ptv::ViewContent;
using namespace ptjs::spec;

namespace {

ViewCanvas* create_view_canvas(const std::string& selector) {
  return ptjs::guarded([&]() -> ViewCanvas* { return new ViewCanvas(selector); });
}

// ---- each view kind's spec reader --------------------------------------------------------------

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
    // The raw values pt::range_quantization quantizes (float32, as the engine computes) and how qparams follow the range.
    for (double v : numbers(spec, "values", false, w)) d.values.push_back(static_cast<float>(v));
    const val quant = spec["quant"];
    require_object(quant, w + ".quant");
    d.quant.quant_min = integer(quant, "quant_min", NAN, w + ".quant");
    d.quant.quant_max = integer(quant, "quant_max", NAN, w + ".quant");
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

// One stage: { title?, nodes, edges, changed? }, nodes and edges as gm.graph_view() gives them; `changed`
// names the nodes this stage added to the one before it.
ptv::GraphStage stage_from_js(const val& st, const std::string& where) {
  require_object(st, where);
  return {string_or(st, "title", where), ptjs::graph_view_from_js(st, where), strings(st, "changed", where)};
}

// { backend?, delegated: [names], float: [{ name, reason }] }, or absent (no partition).
ptv::GraphPartition partition_from_js(const val& p, const std::string& w) {
  ptv::GraphPartition out;
  if (absent(p)) return out;
  require_object(p, w);
  out.backend = string_or(p, "backend", w);
  out.delegated = strings(p, "delegated", w);
  each(p, "float", true, w, [&](const val& f, const std::string& where) {
    require_object(f, where);
    out.float_nodes.emplace_back(string_or(f, "name", where), string_or(f, "reason", where));
  });
  return out;
}

// { name, unit?, values: { node name: number } } (graph_metric.h); the numbers are checked by validate().
ptv::GraphMetric metric_from_js(const val& m, const std::string& where) {
  require_object(m, where);
  ptv::GraphMetric out{string_or(m, "name", where), string_or(m, "unit", where), {}};
  const val values = m["values"];
  require_object(values, where + ".values");
  const val keys = val::global("Object").call<val>("keys", values);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    const std::string node = keys[i].as<std::string>();
    out.values[node] = number_or(values, node.c_str(), 0, where + ".values");
  }
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
  if (!absent(spec["metric"])) d.metric = metric_from_js(spec["metric"], w + ": metric");
  d.partition = partition_from_js(spec["partition"], w + ".partition");
  return d;
}

// An element's fields; a float output (f32_output) has no code: bias_f32 and output_f32 instead, and a float reference.
ptv::IntegerElement integer_element_from_js(const val& e, bool float_output, const std::string& w) {
  require_object(e, w);
  auto ints = [&](const char* key) {
    std::vector<int64_t> out;
    for (double v : numbers(e, key, key == std::string("coords"), w)) out.push_back(static_cast<int64_t>(v));
    return out;
  };
  ptv::IntegerElement x;
  x.coords = ints("coords");
  x.inputs = ints("inputs");
  x.weights = ints("weights");
  x.products = ints("products");
  x.accumulator = integer(e, "accumulator", NAN, w);
  x.bias = integer(e, "bias", 0, w);
  x.accumulator_with_bias = integer(e, "accumulator_with_bias", float_output ? static_cast<double>(x.accumulator) : NAN, w);
  x.multiplier = number_or(e, "multiplier", NAN, w);
  x.fixed_multiplier = integer(e, "fixed_multiplier", 0, w);
  x.shift = integer(e, "shift", 0, w);
  x.scaled = number_or(e, "scaled", NAN, w);
  x.output = integer(e, "output", float_output ? 0 : NAN, w);
  x.bias_f32 = number_or(e, "bias_f32", float_output ? NAN : 0, w);  // required for a float output (validate())
  x.output_f32 = number_or(e, "output_f32", float_output ? NAN : 0, w);
  x.has_reference = !absent(e["reference"]);
  if (x.has_reference) x.reference = float_output ? number_or(e, "reference", NAN, w) : static_cast<double>(integer(e, "reference", NAN, w));
  return x;
}

ptv::IntegerPictureData integer_picture_from_js(const val& spec) {
  const std::string w = "integer picture";
  require_object(spec, w);
  ptv::IntegerPictureData d;
  d.node = string_or(spec, "node", w);
  d.requantization = string_or(spec, "requantization", w);
  if (d.requantization.empty()) d.requantization = "fp32";
  const bool float_output = ptv::float_output(d);
  const val relu = spec["relu"];
  if (!absent(relu) && !relu.isTrue() && !relu.isFalse()) throw pt::TypeError(w + ".relu must be a boolean");
  d.relu = relu.isTrue();
  d.input_zero_point = integer(spec, "input_zero_point", 0, w);
  d.output_zero_point = integer(spec, "output_zero_point", 0, w);
  d.qmin = integer(spec, "qmin", -128, w);
  d.qmax = integer(spec, "qmax", 127, w);
  each(spec, "elements", false, w, [&](const val& e, const std::string& where) { d.elements.push_back(integer_element_from_js(e, float_output, where)); });
  const int64_t element = integer(spec, "element", 0, w);
  if (element < 0 || element > 1 << 20) throw pt::ValueError(w + ": 'element' must be an index into elements, got " + std::to_string(element));
  d.element = static_cast<int>(element);
  return d;
}

// ---- the view kinds ----------------------------------------------------------------------------

// A view kind: the name a spec's `view` gives, and its view made from a spec, or a view of this
// kind given a new spec (false when `view` is of another kind). Both read and validate the spec
// first: on error nothing changes.
struct ViewKind {
  const char* name;
  std::unique_ptr<ViewContent> (*make)(const val& spec);
  bool (*update)(ViewContent& view, const val& spec);
};

template <class View, auto read> constexpr ViewKind view_kind(const char* name) {
  return {name,
          [](const val& spec) -> std::unique_ptr<ViewContent> {
            auto view = std::make_unique<View>();
            view->set_data(read(spec));
            return view;
          },
          [](ViewContent& view, const val& spec) {
            auto* same = dynamic_cast<View*>(&view);
            if (same) same->set_data(read(spec));
            return same != nullptr;
          }};
}

// Every view a spec can name. A new view: its .h / .cpp in web/views, its spec reader above, a row here.
constexpr ViewKind kViews[] = {
    view_kind<ptv::HistogramView, histogram_from_js>("histogram"),
    view_kind<ptv::LineChartView, line_from_js>("line"),
    view_kind<ptv::BarChartView, bar_from_js>("bar"),
    view_kind<ptv::GraphView, graph_from_js>("graph"),
    view_kind<ptv::IntegerPictureView, integer_picture_from_js>("integer_picture"),
};

// The kind spec.view names; ValueError listing the kinds otherwise.
const ViewKind& kind_of(const val& spec) {
  const val name = absent(spec) ? val::undefined() : spec["view"];
  std::string known;
  for (const ViewKind& k : kViews) {
    if (name.isString() && name.as<std::string>() == k.name) return k;
    known += (known.empty() ? "" : ", ") + std::string(k.name);
  }
  const std::string shown = name.isString() ? "'" + name.as<std::string>() + "'" : val::global("String")(name).as<std::string>();
  throw pt::ValueError("views: unknown view " + shown + "; known: " + known);
}

void check_view_kind(const val& spec) {
  ptjs::guarded([&] {
    kind_of(spec);
    return 0;
  });
}

// Shows the spec on the canvas: updates the view it shows when that is of the spec's kind, else
// replaces it. On any error the canvas keeps what it showed.
void set_view(ViewCanvas& canvas, const val& spec) {
  ptjs::guarded([&] {
    const ViewKind& kind = kind_of(spec);
    if (canvas.content() && kind.update(*canvas.content(), spec)) canvas.invalidate();
    else canvas.set_content(kind.make(spec));
    return 0;
  });
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
    st.set("changed_shown", sl.changed_shown);
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

// ---- controls, the same for every view ----------------------------------------------------------

ptv::ControlValues controls_from_js(const val& controls) {
  const std::string w = "setControls()";
  if (absent(controls) || controls.typeOf().as<std::string>() != "object")
    throw pt::TypeError(w + ": controls must be an object such as { range: [min, max] }");
  ptv::ControlValues out;
  const val keys = val::global("Object").call<val>("keys", controls);
  for (unsigned i = 0; i < keys["length"].as<unsigned>(); ++i) {
    const std::string name = keys[i].as<std::string>();
    out[name] = number_list(controls[name], w + "." + name);
  }
  return out;
}

val controls_to_js(const std::vector<ptv::Control>& controls) {
  val out = val::array();
  for (const ptv::Control& c : controls) {
    val o = val::object();
    o.set("name", c.name);
    val value = val::array();
    for (double v : c.value) value.call<void>("push", v);
    o.set("value", value);
    o.set("fields", ptjs::strings_to_js(c.fields));
    out.call<void>("push", o);
  }
  return out;
}

val view_controls(ViewCanvas& canvas) {
  return controls_to_js(canvas.content() ? canvas.content()->controls() : std::vector<ptv::Control>{});
}

void set_view_controls(ViewCanvas& canvas, const val& controls) {
  ptjs::guarded([&] {
    const ptv::ControlValues values = controls_from_js(controls);
    if (!canvas.content()) throw pt::ValueError("setControls(): the canvas shows no view");
    canvas.content()->set_controls(values);
    canvas.invalidate();
    return 0;
  });
}

// For a view not made yet: the controls of the view its spec makes, after setting `controls` (unless
// undefined) as the live view would, with the same checks.
val spec_controls(const val& spec, const val& controls) {
  return ptjs::guarded([&] {
    const std::unique_ptr<ViewContent> view = kind_of(spec).make(spec);
    if (!controls.isUndefined()) view->set_controls(controls_from_js(controls));
    return controls_to_js(view->controls());
  });
}

val view_readout(ViewCanvas& canvas) {
  const ptv::Readout r = canvas.content() ? canvas.content()->readout() : ptv::Readout{};
  if (r.empty()) return val::null();
  val out = val::object();
  for (const auto& [name, v] : r) out.set(name, v);
  return out;
}

int view_input_changes(ViewCanvas& canvas) { return canvas.content() ? canvas.content()->input_changes() : 0; }
std::string view_cursor(ViewCanvas& canvas) { return canvas.content() ? canvas.content()->cursor() : ""; }

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
  function("check_view_kind", &check_view_kind);
  function("set_view", &set_view);
  function("graph_state", &graph_state);
  function("view_controls", &view_controls);
  function("set_view_controls", &set_view_controls);
  function("spec_controls", &spec_controls);
  function("view_readout", &view_readout);
  function("view_input_changes", &view_input_changes);
  function("view_cursor", &view_cursor);
}
