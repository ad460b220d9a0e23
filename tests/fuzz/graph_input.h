// graph_input.h — a random graph for the fuzz targets, drawn from fuzz_input.h's Input: placeholders and
// parameters of small shapes, then call_function nodes of any target from a list (or a target no table has)
// whose arguments are earlier nodes, node lists, ints, floats, bools, int lists or None in any place; now
// and then an argument that points forward (a cycle) or at a node of another graph (dangling).
//
//   pt::GraphModule other;                                      // outlives gm: its node is the stranger
//   pt::fuzz::RandomGraph r = pt::fuzz::random_graph(in, registered_targets(), other.graph.placeholder("s"));
//   run_graph(r.gm, r.inputs);
//   pt::fuzz::ZooGraph z = pt::fuzz::zoo_graph(in);             // or a model of the zoo, exported
#pragma once
#include <string>
#include <vector>

#include "core/generator.h"
#include "fuzz_input.h"
#include "graph/graph.h"
#include "graph/models.h"

namespace pt::fuzz {

inline Arg any_arg(Input& in, const std::vector<Node*>& earlier, Node* stranger) {
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

struct RandomGraph {
  GraphModule gm;
  std::vector<Tensor> inputs;  // one per placeholder, and now and then one too many
  std::vector<Node*> nodes;    // placeholders, get_attrs, then the call_function nodes
};

// Parameters are named "p<i>.weight" (trainable: not buffers).
inline RandomGraph random_graph(Input& in, const std::vector<std::string>& targets, Node* stranger) {
  RandomGraph r;
  GraphModule& gm = r.gm;
  std::vector<Node*>& nodes = r.nodes;
  for (int i = 0, n = static_cast<int>(in.range(1, 3)); i < n; ++i) {
    nodes.push_back(gm.graph.placeholder("x"));
    r.inputs.push_back(in.tensor(in.small_shape(0, 4)));
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
  if (in.byte() % 4 == 0) r.inputs.push_back(in.tensor(in.small_shape()));  // one input too many
  return r;
}

// A model of the zoo (graph/models.h), its weights from manual_seed(0), exported on a batch of `batch`.
struct ZooGraph {
  Model model;
  GraphModule gm;
};
inline ZooGraph zoo_graph(Input& in, int64_t batch = 1) {
  static const std::vector<std::string> models = model_names();
  manual_seed(0);
  Model m = get_model(in.pick(models));
  GraphModule gm = export_module(m, example_inputs(m, batch));
  return {std::move(m), std::move(gm)};
}

}  // namespace pt::fuzz
