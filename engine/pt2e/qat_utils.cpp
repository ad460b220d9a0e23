// qat_utils.cpp — _fuse_conv_bn_qat (prepare_qat_pt2e) and _fold_conv_bn_qat (convert_pt2e): the QAT
// conv-bn rewrites that make the weight fake-quant see, and the converted graph keep, the BN-scaled
// conv weight (see qat_utils.h; torchao pt2e/qat_utils.py, docs/algorithms.md).
#include "pt2e/qat_utils.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

#include "graph/passes.h"
#include "graph/targets.h"
#include "pt2e/quantizer.h"

namespace pt {

namespace {

// The convs torchao's _fuse_conv_bn_qat / _fold_conv_bn_qat build patterns for (F.conv1d, F.conv2d,
// F.conv_transpose1d, F.conv_transpose2d in qat_utils.py): the 1-d / 2-d part of
// _is_conv_or_conv_transpose_node.
constexpr std::array qat_convs = {target::conv1d, target::conv2d, target::conv_transpose1d, target::conv_transpose2d};

// The shape of a node's value: meta.val, or the tensor of a get_attr.
std::optional<Shape> shape_of(const GraphModule& gm, const Node* n) {
  if (n->meta.val) return n->meta.val->shape;
  if (n->op == OpKind::get_attr && gm.has_tensor(n->target)) return gm.get_tensor(n->target).shape();
  return std::nullopt;
}

void set_val(Node* n, const std::optional<Shape>& shape) {
  if (shape) n->meta.val = TensorMeta{*shape, DType::Float32};
}

// Rewrites every annotation's keys and Shared / Derived references through `map` (nodes not in it stay).
void remap_annotations(GraphModule& gm, const std::map<const Node*, Node*>& map) {
  const auto f = [&map](const Node* n) -> Node* {
    auto it = map.find(n);
    return it != map.end() ? it->second : const_cast<Node*>(n);
  };
  for (Node* n : gm.graph.nodes())
    if (get_annotation(n))
      if (auto r = n->meta.quantization_annotation->with_nodes_remapped(f)) n->meta.quantization_annotation = std::move(r);
}

// Rewrites one conv -> bn pair (checked by the caller).
void fuse_one(GraphModule& gm, Node* conv, Node* bn) {
  Graph& g = gm.graph;
  Node* x = arg_node(conv, 0);
  Node* w = arg_node(conv, 1);
  Node* b = arg_node(conv, 2);
  Node* bn_w = arg_node(bn, 1);
  Node* bn_b = arg_node(bn, 2);
  Node* bn_rm = arg_node(bn, 3);
  Node* bn_rv = arg_node(bn, 4);
  const bool transpose = is_call(conv, group::conv_transpose);
  const std::optional<Shape> w_shape = shape_of(gm, w);
  const std::optional<Shape> c_shape = shape_of(gm, bn_rv);
  const size_t rank = w_shape ? w_shape->size() : (is_call(conv, target::conv1d) || is_call(conv, target::conv_transpose1d) ? 3 : 4);
  std::vector<int64_t> weight_shape(rank, 1), bias_shape(rank, 1);
  weight_shape[transpose ? 1 : 0] = -1;
  bias_shape[1] = -1;
  auto reshaped = [&](const std::vector<int64_t>& target_shape) -> std::optional<Shape> {
    if (!c_shape || c_shape->size() != 1) return std::nullopt;
    Shape s(target_shape.begin(), target_shape.end());
    for (auto& d : s)
      if (d == -1) d = (*c_shape)[0];
    return s;
  };
  const auto stack = conv->meta.nn_module_stack;
  auto make = [&](const char* target, std::vector<Arg> args, const std::optional<Shape>& shape) {
    Node* n = g.insert_before(conv, OpKind::call_function, target, std::move(args), "");
    set_val(n, shape);
    n->meta.nn_module_stack = stack;
    return n;
  };

  Node* add = make(target::add, {bn_rv, 1e-5}, c_shape);
  Node* sqrt = make(target::sqrt, {add}, c_shape);
  Node* sf = make(target::div, {bn_w, sqrt}, c_shape);
  Node* sf_w = make(target::reshape, {sf, weight_shape}, reshaped(weight_shape));
  Node* w_scaled = make(target::mul, {w, sf_w}, w_shape);
  Node* zero_bias = b ? make(target::zeros_like, {b}, c_shape) : nullptr;

  std::vector<Arg> conv_args = conv->args();
  if (conv_args.size() < 3) conv_args.resize(3);
  conv_args[1] = Arg(w_scaled);
  conv_args[2] = zero_bias ? Arg(zero_bias) : Arg();
  Node* new_conv = g.insert_before(conv, OpKind::call_function, conv->target, std::move(conv_args), "");
  new_conv->meta = conv->meta;
  // input_qspec_map re-keyed by position: input, weight, bias (torchao
  // _update_conv_input_qspec_map_after_replacement).
  if (const QuantizationAnnotation* a = get_annotation(conv)) {
    auto copy = std::make_shared<QuantizationAnnotation>(*a);
    copy->input_qspec_map.clear();
    const std::vector<Node*> keys = {x, w_scaled, zero_bias};
    for (size_t i = 0; i < a->input_qspec_map.size() && i < keys.size(); ++i)
      if (keys[i]) copy->input_qspec_map.emplace_back(keys[i], a->input_qspec_map[i].second);
    new_conv->meta.quantization_annotation = std::move(copy);
  }
  Node* sf_b = make(target::reshape, {sf, bias_shape}, reshaped(bias_shape));
  const std::optional<Shape> out_shape = shape_of(gm, conv);
  Node* y = make(target::div, {new_conv, sf_b}, out_shape);
  if (b) {
    Node* b_r = make(target::reshape, {b, bias_shape}, reshaped(bias_shape));
    y = make(target::add, {y, b_r}, out_shape);
  }
  Node* new_bn = g.insert_before(conv, OpKind::call_function, target::batch_norm,
                                 {y, bn_w, bn_b, bn_rm, bn_rv, true, 0.1, 1e-5, true}, "");
  new_bn->meta = bn->meta;

  // The new nodes sit where the conv was; the old BN's users now read the new BN. Annotations are
  // remapped to the new nodes before the old ones are erased (erasing drops what annotations say about them).
  g.replace_all_uses_with(bn, new_bn);
  std::map<const Node*, Node*> old_to_new = {{conv, new_conv}, {bn, new_bn}, {w, w_scaled}};
  if (b) old_to_new[b] = zero_bias;
  remap_annotations(gm, old_to_new);
  g.erase_node(bn);
  g.erase_node(conv);
}

bool fusable(const Node* conv) {
  if (!is_call(conv, qat_convs) || conv->users().size() != 1) return false;
  const Node* bn = conv->users()[0];
  if (!is_call(bn, target::batch_norm) || arg_node(bn, 0) != conv || bn->args().size() < 5) return false;
  for (size_t i = 1; i <= 4; ++i)
    if (!arg_node(bn, i)) return false;
  if (!arg_node(conv, 0) || !arg_node(conv, 1)) return false;
  // A literal (non-None, non-node) bias cannot be matched by the pattern's placeholder usefully.
  if (conv->args().size() > 2 && !conv->args()[2].is_none() && !arg_node(conv, 2)) return false;
  return true;
}

// dq(q(v)) -> {q, v}, each node with a single user in the chain; nullopt otherwise.
std::optional<std::pair<Node*, Node*>> qdq_source(Node* dq) {
  if (!is_call(dq, group::dequantize) || dq->users().size() != 1) return std::nullopt;
  Node* q = arg_node(dq, 0);
  if (!is_call(q, group::quantize) || !only_user(q, dq)) return std::nullopt;
  Node* v = arg_node(q, 0);
  if (!v) return std::nullopt;
  return std::make_pair(q, v);
}

struct QuantizedPattern {
  Node* conv = nullptr;
  Node* bn = nullptr;
  Node* w = nullptr;         // the float weight get_attr
  Node* w_q = nullptr;       // its quantize node (input becomes w)
  Node* b = nullptr;         // the conv bias (add's reshape input), or null
  Node* b_q = nullptr;       // bias quantize node if the zero bias was quantized
};

std::optional<QuantizedPattern> match_quantized(Node* bn) {
  if (!is_call(bn, target::batch_norm)) return std::nullopt;
  QuantizedPattern p;
  p.bn = bn;
  Node* y = arg_node(bn, 0);
  if (!y || !only_user(y, bn)) return std::nullopt;
  if (is_call(y, target::add)) {
    Node* r = arg_node(y, 1);
    if (!is_call(r, target::reshape) || !only_user(r, y)) return std::nullopt;
    p.b = arg_node(r, 0);
    if (!p.b) return std::nullopt;
    y = arg_node(y, 0);
    if (!y || y->users().size() != 1) return std::nullopt;
  }
  if (!is_call(y, target::div)) return std::nullopt;
  Node* conv = arg_node(y, 0);
  if (!is_call(conv, qat_convs) || !only_user(conv, y)) return std::nullopt;
  p.conv = conv;
  const auto wq = qdq_source(arg_node(conv, 1));
  if (!wq || !is_call(wq->second, target::mul) || !only_user(wq->second, wq->first)) return std::nullopt;
  p.w_q = wq->first;
  p.w = arg_node(wq->second, 0);
  if (!p.w || p.w->op != OpKind::get_attr) return std::nullopt;
  Node* bias = arg_node(conv, 2);
  if (!bias) {
    if (p.b) return std::nullopt;  // with-bias pattern needs a zero bias in the conv
    return p;
  }
  if (!p.b) return std::nullopt;
  if (const auto bq = qdq_source(bias)) {
    p.b_q = bq->first;
    bias = bq->second;
  }
  if (!is_call(bias, target::zeros_like) || arg_node(bias, 0) != p.b) return std::nullopt;
  if (p.b->op != OpKind::get_attr) return std::nullopt;
  return p;
}

void set_arg(Graph& g, Node* n, size_t i, Arg a) {
  std::vector<Arg> args = n->args();
  if (args.size() <= i) args.resize(i + 1);
  args[i] = std::move(a);
  g.set_args(n, std::move(args));
}

}  // namespace

int _fuse_conv_bn_qat(GraphModule& gm) {
  gm.graph.eliminate_dead_code();
  int count = 0;
  for (Node* n : gm.graph.nodes()) {
    if (!gm.graph.contains(n) || !fusable(n)) continue;
    fuse_one(gm, n, n->users()[0]);
    ++count;
  }
  gm.graph.lint();
  return count;
}

int _fold_conv_bn_qat(GraphModule& gm) {
  Graph& g = gm.graph;
  g.eliminate_dead_code();
  int count = 0;
  for (Node* n : g.nodes()) {
    if (!g.contains(n)) continue;
    const auto p = match_quantized(n);
    if (!p) continue;
    // w -> q -> dq -> conv(b) -> batch_norm, keeping the q / dq literals and buffers.
    set_arg(g, p->w_q, 0, Arg(p->w));
    if (p->b_q) set_arg(g, p->b_q, 0, Arg(p->b));
    else if (p->b) set_arg(g, p->conv, 2, Arg(p->b));
    else set_arg(g, p->conv, 2, Arg());
    set_arg(g, p->bn, 0, Arg(p->conv));
    g.eliminate_dead_code();
    fold_bn_weights_into_conv_node(gm, p->conv, p->w, p->b, p->bn);
    ++count;
  }
  g.eliminate_dead_code();
  g.lint();
  return count;
}

}  // namespace pt
