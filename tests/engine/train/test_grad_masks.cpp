// test_grad_masks.cpp — a fake quantize's straight-through mask left to the pass of relu's and max_pool2d's
// backward (autograd.h, GradArgs::grad_mask) gives the gradients bit for bit as grad × mask applied first. The
// reference is the same graph with a reshape to the same shape between each such op and its fake quantize:
// the fake quantize's source is then the reshape, so its gradient is multiplied out before relu / max_pool2d
// see it. Both graphs are clones of one prepared QAT model, run on the same batches.
#include "grad_case.h"

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/targets.h"
#include "ops/ops.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "train/autograd.h"
#include "train/loss.h"
#include "train/parameters.h"

using namespace pt;

namespace {

bool takes_mask(const Node* n) {
  return n && n->op == OpKind::call_function && (n->target == target::relu || n->target == target::max_pool2d);
}

// The fake quantizes (call_module nodes) that read a relu's or max_pool2d's output.
std::vector<Node*> masked_readers(const GraphModule& gm) {
  std::vector<Node*> out;
  for (Node* n : gm.graph.nodes())
    if (n->op == OpKind::call_module && !n->args().empty() && takes_mask(n->args()[0].node())) out.push_back(n);
  return out;
}

// A reshape to the node's own shape between each such op and its fake quantize.
void insert_reshapes(GraphModule& gm) {
  for (Node* fq : masked_readers(gm)) {
    Node* src = fq->args()[0].node();
    const Shape shape = src->meta.val->shape;
    Node* r = gm.graph.insert_after(src, OpKind::call_function, target::reshape, {src, std::vector<int64_t>(shape)},
                                    "same_shape");
    gm.graph.replace_input_with(fq, src, r);
  }
}

// One recorded forward and backward of cross_entropy; `blocked` (when given) counts the zeros of the masks.
void train_once(GraphModule& gm, const Tensor& x, const Tensor& labels, int64_t* blocked = nullptr) {
  zero_grad(gm);
  Tape tape(gm, {x});
  if (blocked)
    for (Node* fq : masked_readers(gm))
      if (auto mask = gm.get_module(fq->target)->grad_mask())
        for (uint8_t m : mask->span<uint8_t>()) *blocked += m == 0;
  tape.backward({cross_entropy(tape.outputs()[0], labels).grad});
}

}  // namespace

TEST_CASE("a fake quantize's mask taken in relu's and max_pool2d's backward: the gradients bit for bit") {
  manual_seed(3);
  Model m = get_model("tiny");
  const Tensor x = randn({8, 3, 16, 16});
  GraphModule gm = export_module(m, {x});
  move_exported_model_to_train(gm);
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_qat = true}));
  GraphModule prepared = prepare_qat_pt2e(gm, q);
  GraphModule fused = prepared.clone(), reference = prepared.clone();
  insert_reshapes(reference);
  // tiny: relu1 -> fq, pool -> fq, relu2 -> fq, relu3 -> fq, pool -> fq, relu4 -> fq.
  CHECK(masked_readers(fused).size() == 6);
  CHECK(masked_readers(reference).empty());

  const Tensor labels = Tensor::from<int32_t>({0, 1, 2, 3, 0, 1, 2, 3}, {8});
  // The observers first see x; then the batch norms' weights are tripled, so the activations of the next batch lie
  // partly outside the observers' ranges and the masks block some elements (a mask of ones would not tell a mask
  // applied from one left out).
  train_once(fused, x, labels);
  train_once(reference, x, labels);
  for (GraphModule* g : {&fused, &reference})
    for (const char* w : {"bn1.weight", "bn2.weight", "bn3.weight", "bn4.weight"})
      g->set_tensor(w, ops::mul(g->get_tensor(w), Tensor::scalar(3.f)));
  const Tensor x2 = randn(x.shape());
  int64_t blocked = 0;
  train_once(fused, x2, labels, &blocked);
  train_once(reference, x2, labels);
  std::printf("tiny QAT graph, masks in relu / max_pool2d backward vs applied first: %lld elements blocked\n",
              static_cast<long long>(blocked));
  CHECK(blocked > 0);
  for (const NamedTensor& p : named_parameters(fused)) {
    REQUIRE(pt::grad(fused, p.name));
    REQUIRE(pt::grad(reference, p.name));
    gradtest::check_bits("masks." + p.name, *pt::grad(fused, p.name), *pt::grad(reference, p.name));
  }
}

TEST_CASE("a relu read by a fake quantize and by another node: the mask is applied before the second gradient") {
  // A fake quantize module as prepare_qat_pt2e makes them (tiny's first relu's), in a graph of its own:
  // p -> relu -> fq -> output 0, relu -> mul 2 -> output 1: relu gets a masked gradient, then a plain one.
  manual_seed(4);
  Model m = get_model("tiny");
  GraphModule tiny = export_module(m, {randn({2, 3, 16, 16})});
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_qat = true}));
  GraphModule prepared = prepare_qat_pt2e(tiny, q);
  GraphModule gm;
  const Tensor p0 = randn({2, 3, 4, 4});
  gm.set_tensor("p", p0);
  Node* r = gm.graph.call_function(target::relu, {gm.graph.get_attr("p")});
  r->meta.val = TensorMeta{p0.shape()};
  gm.add_module("fq", prepared.get_module(masked_readers(prepared).at(0)->target)->clone());
  Node* twice = gm.graph.call_function(target::mul, {r, 2.0});
  Node* f = gm.graph.call_module("fq", {r});  // after mul: backward reaches it first, and relu's mask waits
  gm.graph.output({f, twice});
  GraphModule reference = gm.clone();
  insert_reshapes(reference);
  REQUIRE(masked_readers(gm).size() == 1);
  REQUIRE(masked_readers(reference).empty());

  // The observer sees p first; 3·p then lies partly outside its range, so the mask blocks some elements.
  const Tensor g0 = randn(p0.shape()), g1 = randn(p0.shape());
  auto grad_of_p = [&](GraphModule& g) {
    g.forward({});
    g.set_tensor("p", ops::mul(p0, Tensor::scalar(3.f)));
    zero_grad(g);
    Tape tape(g, {});
    int64_t blocked = 0;
    for (uint8_t v : g.get_module("fq")->grad_mask()->span<uint8_t>()) blocked += v == 0;
    CHECK(blocked > 0);
    tape.backward({g0, g1});
    return *pt::grad(g, "p");
  };
  gradtest::check_bits("relu read twice", grad_of_p(gm), grad_of_p(reference));
}
