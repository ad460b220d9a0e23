// passes.cpp — fold_bn (docs/algorithms.md, BN folding), dead-code elimination, the train / eval switch
// of batch norms.
#include "graph/passes.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "graph/targets.h"

namespace pt {
namespace {

// Argument i of `node` if it is a get_attr node, else nullptr (None, missing, or computed: the pass
// only folds constant parameters).
const Node* attr_arg(const Node* node, size_t i) {
  if (i >= node->args().size() || node->args()[i].is_none()) return nullptr;
  const Node* a = node->args()[i].node();
  return a && a->op == OpKind::get_attr ? a : nullptr;
}

// _fuse_conv_bn_ / _fuse_linear_bn_ look at these two batch-norm targets only (the training form
// aten.batch_norm.default included: its `training` flag is not read).
constexpr std::array fused_batch_norms = {target::native_batch_norm_legit_no_training, target::batch_norm};

// torchao _fuse_linear_bn_: a linear whose input is known to have more than 2 dims is not folded (Linear
// acts on the last dim, BatchNorm1d on dim 1; torchao warns and skips).
bool linear_input_over_2d(const Node* linear) {
  const Node* x = arg_node(linear, 0);
  return x && x->meta.val && x->meta.val->shape.size() > 2;
}

// One pass of torchao utils.py _fuse_conv_bn_ (ops = conv and conv_transpose) or _fuse_linear_bn_:
// every batch norm in graph order whose input is one of `ops` is folded into it; a weight node that
// was folded once is only "fake fused" the next time (the BN goes, the weight stays).
int fuse_bn_into(GraphModule& gm, const std::function<bool(const Node*)>& is_op) {
  const std::vector<Node*> nodes = gm.graph.nodes();
  if (std::none_of(nodes.begin(), nodes.end(), [](const Node* n) { return is_call(n, group::bn); })) return 0;
  int folded = 0;
  std::set<const Node*> fused_weights;
  for (Node* bn : nodes) {
    if (!gm.graph.contains(bn) || !is_call(bn, fused_batch_norms)) continue;  // erased getitems are skipped
    Node* op = arg_node(bn, 0);
    if (!is_op(op)) continue;
    const Node* weight = arg_node(op, 1);
    fold_bn_weights_into_conv_node(gm, op, weight, arg_node(op, 2), bn, fused_weights.count(weight) != 0);
    fused_weights.insert(weight);
    ++folded;
  }
  gm.graph.eliminate_dead_code();
  return folded;
}

// eps is argument 6 of the inference form, 7 of the training forms (torchao utils.py
// fold_bn_weights_into_conv_node).
double bn_eps(const Node* bn) {
  size_t i = is_call(bn, target::native_batch_norm_legit_no_training) ? 6 : 7;
  if (i >= bn->args().size()) return 1e-5;
  const Arg& a = bn->args()[i];
  if (auto* d = std::get_if<double>(&a.v)) return *d;
  if (auto* n = std::get_if<int64_t>(&a.v)) return static_cast<double>(*n);
  return 1e-5;
}

}  // namespace

void fold_bn_weights_into_conv_node(GraphModule& gm, Node* conv, const Node* w_node, const Node* b_node, Node* bn,
                                    bool fake_fuse) {
  Graph& g = gm.graph;
  if (!w_node || w_node->op != OpKind::get_attr)
    throw ValueError("fold_bn_weights_into_conv_node: node " + conv->name + ": the weight is not a get_attr node");
  if (b_node && b_node->op != OpKind::get_attr)
    throw ValueError("fold_bn_weights_into_conv_node: node " + conv->name + ": the bias is not a get_attr node");
  if (!is_call(bn, group::bn))
    throw ValueError("fold_bn_weights_into_conv_node: node " + bn->name + " is not a batch norm (" + bn->target + ")");
  for (size_t i : {3u, 4u})
    if (!attr_arg(bn, i))
      throw ValueError("fold_bn_weights_into_conv_node: node " + bn->name + ": running stats must be get_attr nodes");
  for (size_t i : {1u, 2u})  // weight / bias: None or a constant (torchao _get_tensor_constant_from_node)
    if (arg_node(bn, i) && !attr_arg(bn, i))
      throw ValueError("fold_bn_weights_into_conv_node: node " + bn->name + ": its weight / bias must be get_attr nodes");
  const Tensor& W = gm.get_tensor(w_node->target);
  const Tensor& mean = gm.get_tensor(attr_arg(bn, 3)->target);
  const Tensor& var = gm.get_tensor(attr_arg(bn, 4)->target);
  const Node* gamma_node = attr_arg(bn, 1);
  const Node* beta_node = attr_arg(bn, 2);
  const bool transpose = is_call(conv, group::conv_transpose);
  if (W.dtype() != DType::Float32 || W.dim() < 2)
    throw RuntimeError("fold_bn: node " + conv->name + ": weight " + w_node->name + " has shape " +
                       shape_str(W.shape()) + " " + dtype_name(W.dtype()) + ", expected a float32 weight");
  const int64_t C = W.size(transpose ? 1 : 0);
  auto check = [&](const Tensor& t, const char* what) {
    if (t.dtype() != DType::Float32 || t.dim() != 1 || t.size(0) != C)
      throw RuntimeError("fold_bn: node " + bn->name + ": " + what + " has shape " + shape_str(t.shape()) +
                         ", expected [" + std::to_string(C) + "] to match " + w_node->name);
  };
  check(mean, "running_mean");
  check(var, "running_var");
  if (gamma_node) check(gm.get_tensor(gamma_node->target), "weight");
  if (beta_node) check(gm.get_tensor(beta_node->target), "bias");
  if (b_node) check(gm.get_tensor(b_node->target), "conv bias");

  const float eps = static_cast<float>(bn_eps(bn));
  const bool is_linear = is_call(conv, group::linear);
  Tensor new_w = W.clone();
  Tensor new_b = Tensor::empty({C});
  std::vector<float> scales(static_cast<size_t>(C));
  for (int64_t c = 0; c < C; ++c) {
    const float r = 1.f / std::sqrt(var.data<float>()[c] + eps);
    const float gamma = gamma_node ? gm.get_tensor(gamma_node->target).data<float>()[c] : 1.f;
    const float beta = beta_node ? gm.get_tensor(beta_node->target).data<float>()[c] : 0.f;
    const float b = b_node ? gm.get_tensor(b_node->target).data<float>()[c] : 0.f;
    scales[static_cast<size_t>(c)] = gamma * r;
    // Same float order as torch: conv (b - mean) * r * gamma + beta, linear (b - mean) * (gamma * r) + beta.
    new_b.data<float>()[c] = is_linear ? (b - mean.data<float>()[c]) * (gamma * r) + beta
                                       : (b - mean.data<float>()[c]) * r * gamma + beta;
  }
  // Output-channel axis 0 (axis 1 for conv_transpose: [in, out, k...], groups = 1).
  const int64_t inner = W.numel() / (W.size(0) * W.size(1));
  float* pw = new_w.data<float>();
  for (int64_t i = 0; i < W.numel(); ++i) {
    const int64_t c = transpose ? (i / inner) % W.size(1) : i / (W.numel() / C);
    pw[i] = pw[i] * scales[static_cast<size_t>(c)];
  }
  if (fake_fuse) {  // torchao: the weight (folded already) and the conv's bias stay; no bias becomes zeros
    new_w = W.clone();
    new_b = b_node ? gm.get_tensor(b_node->target).clone() : Tensor::zeros({C});
  }

  // All checks passed: now change the module and the graph.
  gm.set_tensor(w_node->target, new_w);
  if (b_node) {
    gm.set_tensor(b_node->target, new_b);
  } else {
    const std::string target = w_node->target + "_bias";
    gm.set_tensor(target, new_b);
    Node* bias = g.insert_before(conv, OpKind::get_attr, target, {}, target);
    bias->meta.val = TensorMeta{{C}, DType::Float32};
    std::vector<Arg> args = conv->args();
    if (args.size() < 3) args.resize(3);
    args[2] = Arg(bias);
    g.set_args(conv, std::move(args));
  }
  if (!is_call(bn, target::batch_norm)) {  // the other forms return a tuple: (out, save_mean, save_invstd)
    for (Node* user : std::vector<Node*>(bn->users())) {
      auto* idx = user->args().size() > 1 ? std::get_if<int64_t>(&user->args()[1].v) : nullptr;
      if (is_call(user, target::getitem) && idx && *idx == 0) {
        g.replace_all_uses_with(user, conv);
        g.erase_node(user);
      }
    }
    // Other getitems (save_mean / save_invstd) are dead in inference graphs; leave them to DCE.
    for (Node* user : std::vector<Node*>(bn->users()))
      if (user->users().empty()) g.erase_node(user);
  } else {
    g.replace_all_uses_with(bn, conv);
  }
  if (bn->users().empty()) g.erase_node(bn);
}

namespace {

int set_batch_norm_training(GraphModule& gm, bool training) {
  int changed = 0;
  for (Node* n : gm.graph.nodes()) {
    if (!is_call(n, target::batch_norm) || n->args().size() < 6) continue;
    auto* t = std::get_if<bool>(&n->args()[5].v);
    if (!t)
      throw TypeError("node " + n->name + ": batch_norm argument 5 (training) is " + n->args()[5].str() +
                      ", expected a bool literal");
    if (*t == training) continue;
    std::vector<Arg> args = n->args();
    args[5] = Arg(training);
    gm.graph.set_args(n, std::move(args));
    ++changed;
  }
  return changed;
}

}  // namespace

int fold_bn(GraphModule& gm) {
  const int convs = fuse_bn_into(gm, [](const Node* n) { return is_call(n, group::conv) || is_call(n, group::conv_transpose); });
  const int linears = fuse_bn_into(gm, [](const Node* n) { return is_call(n, group::linear) && !linear_input_over_2d(n); });
  return convs + linears;
}

int eliminate_dead_code(GraphModule& gm) { return gm.graph.eliminate_dead_code(); }

int move_exported_model_to_train(GraphModule& gm) { return set_batch_norm_training(gm, true); }
int move_exported_model_to_eval(GraphModule& gm) { return set_batch_norm_training(gm, false); }

}  // namespace pt
