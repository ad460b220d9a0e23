// convert.cpp — observer → q/dq rewrite, DuplicateDQPass, fold_quantize (see convert.h).
#include "pt2e/convert.h"

#include <algorithm>
#include <set>

#include "graph/interpreter.h"
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"
#include "pt2e/observer_module.h"
#include "pt2e/qat_utils.h"
#include "pt2e/reference_representation.h"
#include "pt2e/quantizer_utils.h"

namespace pt {

namespace {

// A fresh root attribute name: prefix + smallest free k.
std::string new_attr_name(const GraphModule& gm, const std::string& prefix) {
  for (int k = 0;; ++k) {
    const std::string name = prefix + std::to_string(k);
    if (!gm.has_tensor(name) && !gm.get_module(name) && !gm.graph.find(name)) return name;
  }
}

Node* buffer_before(GraphModule& gm, Node* anchor, const std::string& prefix, const Tensor& value) {
  const std::string name = new_attr_name(gm, prefix);
  gm.set_tensor(name, value, /*is_buffer=*/true);
  Node* attr = gm.graph.insert_before(anchor, OpKind::get_attr, name, {}, name);
  attr->meta.val = TensorMeta{value.shape(), value.dtype()};
  return attr;
}

bool conversion_supported(const ObserverBase& obs) {
  static const std::set<DType> quantized = {DType::Int8, DType::UInt8, DType::Int16, DType::Int32};
  return obs.is_dynamic() || quantized.count(obs.dtype()) != 0;
}

// Named as torch.fx names what convert creates: quantize_per_tensor_default, getitem, choose_qparams_tensor.
Node* call_before(GraphModule& gm, Node* anchor, const char* target, std::vector<Arg> args) {
  return gm.graph.insert_before(anchor, OpKind::call_function, target, std::move(args), Graph::fx_name_hint(target));
}

// q(input) -> dq with the same qparams, in place of the observer `anchor`; returns the dq. Both carry the
// observer's meta.custom (torchao convert.py add_quantize_dequantize_node_info gives the q and dq nodes
// the observer node's provenance).
Node* quantize_dequantize(GraphModule& gm, Node* anchor, const char* q_target, const char* dq_target, QDQArgs a) {
  Node* q = call_before(gm, anchor, q_target, qdq_arg_list(a));
  a.input = q;
  Node* dq = call_before(gm, anchor, dq_target, qdq_arg_list(a));
  q->meta.custom = dq->meta.custom = anchor->meta.custom;
  return dq;
}

// The quant_min / quant_max the q / dq ops get: torchao passes the observer's attributes on, and the
// quantized_decomposed ops take only ints, so a None one (ObserverConfig::none) cannot be converted.
QRange op_range(const Node* node, const ObserverBase& obs) {
  const std::optional<QRange> r = obs.config().quant_range();
  if (!r)
    throw RuntimeError("convert_pt2e: observer " + node->name + " (" + obs.type_name() +
                       ") has quant_min / quant_max None; the quantized_decomposed ops need ints (give the spec a "
                       "quant_min and quant_max)");
  return *r;
}

// torchao convert.py, dynamic branch: getattr(activation_post_process, "eps", finfo(float32).eps). An
// observer has an eps attribute (its buffer, or PlaceholderObserver's); a fake quantize has none.
double dynamic_eps(const ObserverBase& obs) {
  return obs.is_fake_quantize() ? kFloat32Eps : static_cast<double>(obs.config().eps);
}

// Replaces one observer node; returns the node its users now read.
Node* replace_observer(GraphModule& gm, Node* node, const ObserverBase& obs) {
  Node* input = node->args()[0].node();
  if (!conversion_supported(obs)) return input;
  const QRange r = op_range(node, obs);
  QDQArgs a{input, {}, {}, std::nullopt, r.quant_min, r.quant_max, obs.dtype()};
  if (obs.is_dynamic()) {
    if (obs.dtype() != DType::Int8 && obs.dtype() != DType::UInt8)
      throw ValueError("dynamic quantization supports int8 and uint8 only, got " + std::string(dtype_name(obs.dtype())));
    const ChooseQParamsArgs c{input, a.quant_min, a.quant_max, dynamic_eps(obs), a.dtype};
    Node* choose = call_before(gm, node, is_symmetric(obs.qscheme()) ? target::choose_qparams_symmetric
                                                                     : target::choose_qparams,
                               choose_qparams_arg_list(c));
    a.scale = call_before(gm, node, target::getitem, {choose, 0});
    a.zero_point = call_before(gm, node, target::getitem, {choose, 1});
    return quantize_dequantize(gm, node, target::quantize_per_tensor_tensor, target::dequantize_per_tensor_tensor, a);
  }
  const QParams qp = obs.calculate_qparams();
  if (is_per_channel(obs.qscheme())) {
    if (obs.config().is_none("ch_axis"))  // convert.py: int(activation_post_process.ch_axis)
      throw TypeError("convert_pt2e: per-channel observer " + node->name + " has ch_axis None");
    a.scale = buffer_before(gm, node, "_scale_", qp.scale.clone());
    a.zero_point = buffer_before(gm, node, "_zero_point_", qp.zero_point.clone());
    a.axis = obs.ch_axis();
    return quantize_dequantize(gm, node, target::quantize_per_channel, target::dequantize_per_channel, a);
  }
  // convert.py: float(scale), int(zero_point) — torch refuses a tensor of any other size than one element (a derived
  // spec's derive_qparams_fn may return any number of qparams).
  for (const Tensor* t : {&qp.scale, &qp.zero_point})
    if (t->numel() != 1)
      throw RuntimeError("convert_pt2e: observer " + node->name + "'s per-tensor qparams: a Tensor with " +
                         std::to_string(t->numel()) + " elements cannot be converted to Scalar");
  a.scale = static_cast<double>(qp.scale.data<float>()[0]);
  a.zero_point = qp.zero_point.dtype() == DType::Int32 ? qp.zero_point.data<int32_t>()[0]
                                                       : static_cast<int64_t>(qp.zero_point.data<float>()[0]);
  return quantize_dequantize(gm, node, target::quantize_per_tensor, target::dequantize_per_tensor, a);
}

void copy_val(const Node* from, Node* to) {
  if (!to->meta.val) to->meta.val = from->meta.val;
}

}  // namespace

void replace_observers_with_quantize_dequantize(GraphModule& gm) {
  for (Node* node : gm.graph.nodes()) {
    const ObserverBase* obs = get_observer(gm, node);
    if (!obs) continue;
    Node* out = replace_observer(gm, node, *obs);
    copy_val(node, out);
    gm.graph.replace_all_uses_with(node, out);
    gm.graph.erase_node(node);
  }
}

// torchao quantizer/duplicate_dq_pass.py DuplicateDQPass: a shared dequantize gets a copy (node_copy:
// arguments and meta) per user with a valid annotation, except in the dynamic pattern
// choose_qparams.tensor -> getitem -> q -> dq.
void duplicate_dq_pass(GraphModule& gm) {
  for (Node* dq : gm.graph.nodes()) {
    if (node_kind(*dq) != NodeKind::dequantize || dq->users().size() <= 1) continue;
    const Node* q = arg_node(dq, 0);
    const auto qa = q && node_kind(*q) == NodeKind::quantize ? qdq_args(*q) : std::nullopt;
    const Node* scale = qa ? qa->scale.node() : nullptr;
    if (is_call(scale, target::getitem) && is_call(arg_node(scale, 0), target::choose_qparams)) continue;
    const std::vector<Node*> users = dq->users();
    for (Node* user : users) {
      if (!is_valid_annotation(get_annotation(user))) continue;
      Node* copy = gm.graph.insert_after(dq, OpKind::call_function, dq->target, dq->args(), dq->name);  // node_copy
      copy->meta = dq->meta;
      gm.graph.replace_input_with(user, dq, copy);
    }
  }
  gm.graph.eliminate_dead_code();
}

// torchao constant_fold.py constant_fold(gm, _quant_node_constraint), as convert_pt2e(fold_quantize=True)
// runs it: a quantize node whose inputs are constants (get_attr nodes and call_functions of them; the
// dequantize ops count as impure, ConstantFolder.is_impure) is evaluated and replaced by a get_attr of
// its int result (target _frozen_param<k>, node named as the quantize node was); what no longer has
// users goes.
int fold_quantize_ops(GraphModule& gm) {
  std::set<const Node*> constant;
  std::vector<const Node*> foldable;
  for (Node* n : gm.graph.nodes()) {
    const auto ins = n->all_input_nodes();
    const bool all_const = std::all_of(ins.begin(), ins.end(), [&](const Node* i) { return constant.count(i) != 0; });
    if (n->op == OpKind::get_attr ||
        (n->op == OpKind::call_function && !ins.empty() && all_const && node_kind(*n) != NodeKind::dequantize))
      constant.insert(n);
    if (constant.count(n) && node_kind(*n) == NodeKind::quantize) foldable.push_back(n);
  }
  if (foldable.empty()) return 0;
  const std::vector<Value> values = evaluate_constants(gm, foldable);
  for (size_t i = 0; i < foldable.size(); ++i) {
    Node* q = const_cast<Node*>(foldable[i]);
    Node* attr = buffer_before(gm, q, "_frozen_param", std::get<Tensor>(values[i].v));
    attr->meta.custom = q->meta.custom;  // replace_node_with_constant: new_input_node.meta.update(node.meta)
    gm.graph.replace_all_uses_with(q, attr);
    // replace_node_with_constant erases the quantize node and gives the get_attr its name.
    const std::string name = q->name;
    gm.graph.erase_node(q);
    attr->name = name;
  }
  gm.graph.eliminate_dead_code();
  return static_cast<int>(foldable.size());
}

GraphModule convert_pt2e(const GraphModule& model, bool use_reference_representation, bool fold_quantize) {
  GraphModule gm = model.clone();
  replace_observers_with_quantize_dequantize(gm);
  _fold_conv_bn_qat(gm);  // QAT conv-bn patterns become conv(folded weight, bias)
  duplicate_dq_pass(gm);
  if (fold_quantize) fold_quantize_ops(gm);
  if (use_reference_representation) reference_representation_rewrite(gm);  // pt2e/reference_representation.h
  gm.graph.eliminate_dead_code();
  auto& mods = gm.modules();
  mods.erase(std::remove_if(mods.begin(), mods.end(),
                            [&](const auto& m) {
                              const auto nodes = gm.graph.nodes();
                              return std::none_of(nodes.begin(), nodes.end(), [&](const Node* n) {
                                return n->op == OpKind::call_module && n->target == m.first;
                              });
                            }),
             mods.end());
  gm.graph.lint();
  return gm;
}

}  // namespace pt
