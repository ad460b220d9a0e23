// graph.cpp — fuzz target: graph construction and running (engine/graph/graph.h, interpreter.h, passes.h) on
// random graphs (graph_input.h) over every registered target (the aten float ops and the quantized_decomposed
// ops, or a target no table has): lint, shape propagation, the interpreter, fold_bn, dead-code elimination,
// clone and node erasure.
#include "graph_input.h"
#include "graph/interpreter.h"
#include "graph/passes.h"

using namespace pt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  static const std::vector<std::string> targets = registered_targets();
  GraphModule other;  // a node of another graph, for dangling arguments (outlives gm's use of it)
  Node* stranger = other.graph.placeholder("stranger");
  return fuzz::expect_typed([&] {
    fuzz::RandomGraph r = fuzz::random_graph(in, targets, stranger);
    GraphModule& gm = r.gm;
    const std::vector<Tensor>& inputs = r.inputs;
    fuzz::expect_typed([&] { gm.graph.lint(); });
    fuzz::expect_typed([&] { propagate_shapes(gm, inputs); });
    fuzz::expect_typed([&] { run_graph(gm, inputs); });
    fuzz::expect_typed([&] { fold_bn(gm); });
    fuzz::expect_typed([&] { GraphModule copy = gm.clone(); run_graph(copy, inputs); });
    fuzz::expect_typed([&] { eliminate_dead_code(gm); });
    for (int i = 0, n = static_cast<int>(in.range(0, 3)); i < n; ++i) {
      fuzz::expect_typed([&] {
        std::vector<Node*> now = gm.graph.nodes();
        if (now.empty()) return;  // every node already erased
        Node* victim = in.pick(now);
        if (in.flag()) gm.graph.replace_all_uses_with(victim, in.pick(now));
        gm.graph.erase_node(victim);
      });
    }
    fuzz::expect_typed([&] { gm.graph.lint(); run_graph(gm, inputs); });
  });
}
