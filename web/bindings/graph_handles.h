// graph_handles.h — copyable Embind handles over a Model and a GraphModule (both own move-only
// state), shared by bind_graph.cpp and bind_pt2e.cpp. A handle shares its object; clone() copies.
#pragma once
#include <memory>

#include "core/error.h"
#include "graph/graph.h"
#include "graph/models.h"

namespace ptjs {

struct ModelHandle {
  std::shared_ptr<pt::Model> model;
  pt::Model& get() const {
    if (!model) throw pt::RuntimeError("model handle is empty");
    return *model;
  }
};

struct GraphModuleHandle {
  std::shared_ptr<pt::GraphModule> gm;
  pt::GraphModule& get() const {
    if (!gm) throw pt::RuntimeError("graph module handle is empty");
    return *gm;
  }
  static GraphModuleHandle own(pt::GraphModule&& g) { return {std::make_shared<pt::GraphModule>(std::move(g))}; }
};

}  // namespace ptjs
