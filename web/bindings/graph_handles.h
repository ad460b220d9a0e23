// graph_handles.h — the handles over the graph rooms' objects (a Model, a GraphModule), shared by the
// bindings that take or return them; handle.h is their one shape.
#pragma once
#include "graph/graph.h"
#include "graph/models.h"
#include "handle.h"

namespace ptjs {

using ModelHandle = Handle<pt::Model>;
using GraphModuleHandle = Handle<pt::GraphModule>;

}  // namespace ptjs
