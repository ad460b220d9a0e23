// graph.cpp — fuzz target: graph construction and running (engine/graph/graph.h, interpreter.h, passes.h) on
// random graphs: placeholders and parameters of small shapes, then call_function nodes of any registered
// target (the aten float ops and the quantized_decomposed ops, or a target no table has) whose arguments are
// earlier nodes, node lists, ints, floats, bools, int lists or None in any place; now and then an argument
// that points forward (a cycle) or at a node of another graph (dangling). Then lint, shape propagation, the
// interpreter, fold_bn, dead-code elimination, clone and node erasure.
#include "fuzz_input.h"
#include "graph/interpreter.h"
#include "graph/passes.h"

using namespace pt;

namespace {

Arg any_arg(fuzz::Input& in, const std::vector<Node*>& earlier, Node* stranger) {
  switch (in.byte() % 9) {
    case 0: return Arg();
    case 1: return Arg(in.edgy_int());
    case 2: return Arg(in.special_double());
    case 3: return Arg(in.flag());
    case 4: {
      std::vector<int64_t> v(static_cast<size_t>(in.range(0, 4)));
      for (int64_t& x : v) x = in.byte() % 4 == 0 ? in.edgy_int() : in.range(-2, 5);
      return Arg(v);
    }
    case 5: {
      std::vector<Node*> v(static_cast<size_t>(in.range(0, 3)));
      for (Node*& n : v) n = in.pick(earlier);
      return Arg(v);
    }
    case 6: return in.byte() % 8 == 0 ? Arg(stranger) : Arg(in.pick(earlier));
    default: return Arg(in.pick(earlier));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  static const std::vector<std::string> targets = registered_targets();
  GraphModule other;  // a node of another graph, for dangling arguments (outlives gm's use of it)
  Node* stranger = other.graph.placeholder("stranger");
  return fuzz::expect_typed([&] {
    GraphModule gm;
    std::vector<Node*> nodes;
    std::vector<Tensor> inputs;
    for (int i = 0, n = static_cast<int>(in.range(1, 3)); i < n; ++i) {
      nodes.push_back(gm.graph.placeholder("x"));
      inputs.push_back(in.tensor(in.small_shape(0, 4)));
    }
    for (int i = 0, n = static_cast<int>(in.range(0, 3)); i < n; ++i) {
      const std::string name = "p" + std::to_string(i) + ".weight";
      gm.set_tensor(name, in.tensor(in.small_shape(0, 4)));
      nodes.push_back(gm.graph.get_attr(name));
    }
    for (int i = 0, n = static_cast<int>(in.range(1, 8)); i < n; ++i) {
      std::vector<Arg> args;
      for (int j = 0, m = static_cast<int>(in.range(0, 6)); j < m; ++j) args.push_back(any_arg(in, nodes, stranger));
      nodes.push_back(gm.graph.call_function(in.name(targets), std::move(args)));
    }
    if (in.byte() % 8 == 0 && nodes.size() > 2) {  // an argument pointing forward: a cycle lint must name
      Node* early = nodes[static_cast<size_t>(in.range(0, static_cast<int64_t>(nodes.size()) - 2))];
      if (early->op == OpKind::call_function) gm.graph.set_args(early, {nodes.back()});
    }
    std::vector<Node*> results;
    for (int i = 0, n = static_cast<int>(in.range(1, 2)); i < n; ++i) results.push_back(in.pick(nodes));
    gm.graph.output(results);
    if (in.byte() % 4 == 0) inputs.push_back(in.tensor(in.small_shape()));  // one input too many
    fuzz::expect_typed([&] { gm.graph.lint(); });
    fuzz::expect_typed([&] { propagate_shapes(gm, inputs); });
    fuzz::expect_typed([&] { run_graph(gm, inputs); });
    fuzz::expect_typed([&] { fold_bn(gm); });
    fuzz::expect_typed([&] { GraphModule copy = gm.clone(); run_graph(copy, inputs); });
    fuzz::expect_typed([&] { eliminate_dead_code(gm); });
    for (int i = 0, n = static_cast<int>(in.range(0, 3)); i < n; ++i) {
      fuzz::expect_typed([&] {
        std::vector<Node*> now = gm.graph.nodes();
        Node* victim = in.pick(now);
        if (in.flag()) gm.graph.replace_all_uses_with(victim, in.pick(now));
        gm.graph.erase_node(victim);
      });
    }
    fuzz::expect_typed([&] { gm.graph.lint(); run_graph(gm, inputs); });
  });
}
