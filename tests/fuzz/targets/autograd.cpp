// autograd.cpp — fuzz target: autograd and training (engine/train: autograd.h's Tape, loss.h, optim.h) on a
// random small graph (graph_input.h, over the targets that have a backward and a few that do not) or a zoo
// model, exported or prepared for QAT (fake quant's straight-through masks): forward recorded with input
// gradients or not, then backward with output gradients of every kind — a loss's (cross_entropy with any
// labels, mse_loss against any target), a tensor of the right or a wrong shape, special values, None, too
// few or too many — now and then after the graph was edited (a RuntimeError), then a second backward (a
// RuntimeError, as torch's), and an SGD or Adam step with any hyper-parameters.
#include "graph/targets.h"
#include "graph_input.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "train/autograd.h"
#include "train/loss.h"
#include "train/optim.h"

using namespace pt;

namespace {

std::vector<std::string> differentiable_targets() {
  std::vector<std::string> t = {target::conv2d, target::linear, target::relu, target::hardtanh, target::sigmoid,
                                target::max_pool2d, target::adaptive_avg_pool2d, target::mean_dim, target::add,
                                target::mul, target::div, target::sqrt, target::reshape, target::view, target::flatten,
                                target::zeros_like, target::cat, target::batch_norm};
  for (const std::string& other : registered_targets())  // and one without a backward, now and then
    if (!find_backward(other)) return t.push_back(other), t;
  return t;
}

// One output gradient for an output of `out`'s shape.
std::optional<Tensor> output_grad(fuzz::Input& in, const Tensor& out) {
  switch (in.byte() % 6) {
    case 0: return std::nullopt;
    case 1: {
      Tensor labels = Tensor::zeros({out.dim() ? out.size(0) : 1}, DType::Int32);
      for (int64_t i = 0; i < labels.numel(); ++i) labels.data<int32_t>()[i] = static_cast<int32_t>(in.range(-2, 12));
      return cross_entropy(out, labels).grad;
    }
    case 2: return mse_loss(out, in.tensor(in.flag() ? out.shape() : in.small_shape())).grad;
    case 3: return in.tensor(in.small_shape());  // most likely the wrong shape
    default: return in.tensor(out.shape());
  }
}

void optimizer_step(fuzz::Input& in, GraphModule& gm) {
  std::vector<Parameter> ps = parameters(gm);
  if (in.flag()) {
    SGD opt(ps, {in.special_double(), in.special_double(), in.special_double(), in.special_double(), in.flag(), in.flag()});
    opt.step();
  } else {
    Adam opt(ps, {in.special_double(), in.special_double(), in.special_double(), in.special_double(), in.special_double(),
                  in.flag(), in.flag()});
    opt.step();
    if (in.flag()) opt.zero_grad(in.flag());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  static const std::vector<std::string> targets = differentiable_targets();
  GraphModule other;
  Node* stranger = other.graph.placeholder("stranger");
  return fuzz::expect_typed([&] {
    GraphModule gm;
    std::vector<Tensor> inputs;
    if (in.flag()) {
      fuzz::RandomGraph r = fuzz::random_graph(in, targets, stranger);
      gm = std::move(r.gm);
      inputs = std::move(r.inputs);
    } else {
      fuzz::ZooGraph z = fuzz::zoo_graph(in, 2);
      gm = std::move(z.gm);
      if (in.flag()) {
        XNNPACKQuantizer q;
        q.set_global(get_symmetric_quantization_config({.is_per_channel = in.flag(), .is_qat = true}));
        gm = prepare_qat_pt2e(gm, q);
      }
      inputs = example_inputs(z.model, in.range(1, 2));
      if (in.byte() % 4 == 0) inputs = {in.tensor(in.small_shape())};
    }
    Tape tape(gm, inputs, {.input_grads = in.flag()});
    std::vector<std::optional<Tensor>> grads;
    for (const Tensor& out : tape.outputs()) grads.push_back(output_grad(in, out));
    if (in.byte() % 8 == 0) grads.resize(static_cast<size_t>(in.range(0, 3)));  // too few or too many
    if (in.byte() % 16 == 0) {  // an edit between recording and backward
      const std::vector<Node*> nodes = gm.graph.nodes();
      if (Node* n = in.pick(nodes); n->users().empty() && n->op != OpKind::output) gm.graph.erase_node(n);
    }
    tape.backward(grads);
    bool second_refused = false;
    try {
      tape.backward(grads);
    } catch (const RuntimeError&) {
      second_refused = true;
    }
    if (!second_refused) throw std::logic_error("a second backward on a released tape was not a RuntimeError");
    optimizer_step(in, gm);
  });
}
