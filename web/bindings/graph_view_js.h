// graph_view_js.h — the engine's graph-view data (pt::GraphView, engine/graph/report.h) as plain JS
// data and back: the one form in which it crosses to the page. gm.graph_view() writes it; a graph
// view's stages are read back into the same type the view draws (web/views/graph_view.h).
//
//   { nodes: [{ name, op, kind, target, label, shape, dtype, layer, is_observer, annotations, details, value? }],
//     edges: [{ from, to, arg_index, label }] }
//
// Each field is the ViewNode / ViewEdge member of that name, but for two: `kind` is node_kind_name()
// of ViewNode::kind, and `details` holds ViewNode::qparams (the hover lines). Read back, only `name`
// is required: a node without `kind` is an op, one without `layer` leaves the layout to find layers; a node
// with `value` (gm.graph_view(values)) is refused: the view takes per-node numbers as its spec's `metric`
// (web/views/graph_metric.h), one mechanism for every stage.
#pragma once
#include <emscripten/val.h>

#include <string>

#include "graph/report.h"

namespace ptjs {

emscripten::val graph_view_to_js(const pt::GraphView& v);
// `where` names the object in TypeError / ValueError messages.
pt::GraphView graph_view_from_js(const emscripten::val& data, const std::string& where);

}  // namespace ptjs
