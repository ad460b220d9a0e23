// convert.cpp — observer → q/dq rewrite, DuplicateDQPass, fold_quantize, quantized_decomposed ops (see convert.h).
#include "pt2e/convert.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "graph/interpreter.h"
#include "pt2e/observer_module.h"
#include "pt2e/qat_utils.h"
#include "pt2e/quantizer.h"
#include "quant/quantize.h"

namespace pt {

namespace {

constexpr const char* kQPerTensor = "quantized_decomposed.quantize_per_tensor.default";
constexpr const char* kDqPerTensor = "quantized_decomposed.dequantize_per_tensor.default";
constexpr const char* kQPerTensorT = "quantized_decomposed.quantize_per_tensor.tensor";
constexpr const char* kDqPerTensorT = "quantized_decomposed.dequantize_per_tensor.tensor";
constexpr const char* kQPerChannel = "quantized_decomposed.quantize_per_channel.default";
constexpr const char* kDqPerChannel = "quantized_decomposed.dequantize_per_channel.default";
constexpr const char* kChooseQParams = "quantized_decomposed.choose_qparams.tensor";
constexpr const char* kChooseQParamsSym = "quantized_decomposed.choose_qparams_symmetric.tensor";

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

Node* call_before(GraphModule& gm, Node* anchor, const char* target, std::vector<Arg> args) {
  return gm.graph.insert_before(anchor, OpKind::call_function, target, std::move(args), "");
}

// Replaces one observer node; returns the node its users now read.
Node* replace_observer(GraphModule& gm, Node* node, const ObserverBase& obs) {
  Node* input = node->args()[0].node();
  const int64_t qmin = obs.quant_min(), qmax = obs.quant_max(), dtype = dtype_code(obs.dtype());
  if (!conversion_supported(obs)) return input;
  if (obs.is_dynamic()) {
    if (obs.dtype() != DType::Int8 && obs.dtype() != DType::UInt8)
      throw ValueError("dynamic quantization supports int8 and uint8 only, got " + std::string(dtype_name(obs.dtype())));
    const float eps = obs.config().eps;
    Node* choose = call_before(gm, node, is_symmetric(obs.qscheme()) ? kChooseQParamsSym : kChooseQParams,
                               {input, qmin, qmax, static_cast<double>(eps), dtype});
    Node* scale = call_before(gm, node, "getitem", {choose, 0});
    Node* zp = call_before(gm, node, "getitem", {choose, 1});
    Node* q = call_before(gm, node, kQPerTensorT, {input, scale, zp, qmin, qmax, dtype});
    return call_before(gm, node, kDqPerTensorT, {q, scale, zp, qmin, qmax, dtype});
  }
  const QParams qp = obs.calculate_qparams();
  if (is_per_channel(obs.qscheme())) {
    Node* scale = buffer_before(gm, node, "_scale_", qp.scale.clone());
    Node* zp = buffer_before(gm, node, "_zero_point_", qp.zero_point.clone());
    const int64_t axis = obs.ch_axis();
    Node* q = call_before(gm, node, kQPerChannel, {input, scale, zp, axis, qmin, qmax, dtype});
    return call_before(gm, node, kDqPerChannel, {q, scale, zp, axis, qmin, qmax, dtype});
  }
  const double scale = qp.scale.data<float>()[0];
  const int64_t zp = qp.zero_point.dtype() == DType::Int32 ? qp.zero_point.data<int32_t>()[0]
                                                            : static_cast<int64_t>(qp.zero_point.data<float>()[0]);
  Node* q = call_before(gm, node, kQPerTensor, {input, scale, zp, qmin, qmax, dtype});
  return call_before(gm, node, kDqPerTensor, {q, scale, zp, qmin, qmax, dtype});
}

void copy_val(const Node* from, Node* to) {
  if (!to->meta.val) to->meta.val = from->meta.val;
}

// ---- interpreter ops ----------------------------------------------------------------------------

int64_t tensor_int(const Tensor& t) {
  return t.dtype() == DType::Int32 ? t.data<int32_t>()[0] : static_cast<int64_t>(t.item());
}

}  // namespace

bool is_dequantize(const Node* n) {
  return n && n->op == OpKind::call_function &&
         (n->target == kDqPerTensor || n->target == kDqPerTensorT || n->target == kDqPerChannel);
}

bool is_quantize(const Node* n) {
  return n && n->op == OpKind::call_function &&
         (n->target == kQPerTensor || n->target == kQPerTensorT || n->target == kQPerChannel);
}

int64_t dtype_code(DType dtype) { return static_cast<int64_t>(dtype); }

DType dtype_from_code(int64_t code) {
  if (code < 0 || code > static_cast<int64_t>(DType::Int32)) throw ValueError("unknown dtype code " + std::to_string(code));
  return static_cast<DType>(code);
}

void register_quantized_decomposed_ops() {
  if (find_op(kQPerTensor)) return;
  register_op(kQPerTensor, [](const OpArgs& a) {
    return Value(quantize_per_tensor(a.tensor(0), a.number(1), a.integer(2), a.integer(3), a.integer(4),
                                     dtype_from_code(a.integer(5))));
  });
  register_op(kDqPerTensor, [](const OpArgs& a) {
    return Value(dequantize_per_tensor(a.tensor(0), a.number(1), a.integer(2), a.integer(3), a.integer(4),
                                       dtype_from_code(a.integer(5))));
  });
  register_op(kQPerTensorT, [](const OpArgs& a) {
    return Value(quantize_per_tensor(a.tensor(0), a.tensor(1).item(), tensor_int(a.tensor(2)), a.integer(3),
                                     a.integer(4), dtype_from_code(a.integer(5))));
  });
  register_op(kDqPerTensorT, [](const OpArgs& a) {
    return Value(dequantize_per_tensor(a.tensor(0), a.tensor(1).item(), tensor_int(a.tensor(2)), a.integer(3),
                                       a.integer(4), dtype_from_code(a.integer(5))));
  });
  register_op(kQPerChannel, [](const OpArgs& a) {
    return Value(quantize_per_channel(a.tensor(0), a.tensor(1), a.tensor(2), a.integer(3), a.integer(4), a.integer(5),
                                      dtype_from_code(a.integer(6))));
  });
  register_op(kDqPerChannel, [](const OpArgs& a) {
    return Value(dequantize_per_channel(a.tensor(0), a.tensor(1), a.optional_tensor(2), a.integer(3), a.integer(4),
                                        a.integer(5), dtype_from_code(a.integer(6))));
  });
  auto chooser = [](bool symmetric) {
    return [symmetric](const OpArgs& a) {
      const auto fn = symmetric ? choose_qparams_symmetric : choose_qparams;
      QParams qp = fn(a.tensor(0), a.integer(1), a.integer(2), static_cast<float>(a.number(3)),
                      dtype_from_code(a.integer(4)));
      return Value(std::vector<Tensor>{qp.scale, qp.zero_point});
    };
  };
  register_op(kChooseQParams, chooser(false));
  register_op(kChooseQParamsSym, chooser(true));
}

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

void duplicate_dq_pass(GraphModule& gm) {
  for (Node* dq : gm.graph.nodes()) {
    if (!is_dequantize(dq) || dq->users().size() <= 1) continue;
    const Node* q = dq->args()[0].node();
    const Node* scale = q && q->args().size() > 1 ? q->args()[1].node() : nullptr;
    if (scale && scale->target == "getitem" && scale->args()[0].node()->target == kChooseQParams) continue;
    const std::vector<Node*> users = dq->users();
    for (Node* user : users) {
      if (!is_valid_annotation(get_annotation(user))) continue;
      Node* copy = gm.graph.insert_after(dq, OpKind::call_function, dq->target, dq->args(), "");
      copy->meta.val = dq->meta.val;
      gm.graph.replace_input_with(user, dq, copy);
    }
  }
  gm.graph.eliminate_dead_code();
}

int fold_quantize_ops(GraphModule& gm) {
  // Constants: get_attr nodes and pure call_functions of constants; dequantize ops count as impure.
  std::set<const Node*> constant;
  std::vector<Node*> foldable;
  for (Node* n : gm.graph.nodes()) {
    const auto ins = n->all_input_nodes();
    const bool all_const = std::all_of(ins.begin(), ins.end(), [&](const Node* i) { return constant.count(i) != 0; });
    if (n->op == OpKind::get_attr || (n->op == OpKind::call_function && !ins.empty() && all_const && !is_dequantize(n)))
      constant.insert(n);
    if (constant.count(n) && is_quantize(n)) foldable.push_back(n);
  }
  if (foldable.empty()) return 0;
  // Evaluate each foldable node from its constant inputs (memoized).
  std::map<const Node*, Value> env;
  std::function<const Value&(const Node*)> eval = [&](const Node* n) -> const Value& {
    auto it = env.find(n);
    if (it != env.end()) return it->second;
    Value v;
    if (n->op == OpKind::get_attr) {
      v = Value(gm.get_tensor(n->target));
    } else {
      std::vector<Value> vals;
      for (const Arg& a : n->args()) {
        if (const Node* in = a.node()) vals.push_back(eval(in));
        else
          std::visit(
              [&](const auto& x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (!std::is_same_v<T, Node*> && !std::is_same_v<T, std::vector<Node*>>)
                  vals.push_back(Value(Value::Variant(x)));
              },
              a.v);
      }
      const OpFn* fn = find_op(n->target);
      if (!fn) throw NotImplementedError("fold_quantize: unknown target '" + n->target + "'");
      v = (*fn)(OpArgs{vals, *n});
    }
    return env.emplace(n, std::move(v)).first->second;
  };
  for (Node* q : foldable) {
    const Value& v = eval(q);
    const Tensor& t = std::get<Tensor>(v.v);
    Node* attr = buffer_before(gm, q, "_frozen_param", t);
    gm.graph.replace_all_uses_with(q, attr);
  }
  gm.graph.eliminate_dead_code();
  return static_cast<int>(foldable.size());
}

namespace {

// Annotations keep pointing at the nodes they were written for; convert erases some of those (float
// weights folded into constants). Drop references to nodes that are gone, recognised by name since an
// erased node's address may be reused.
std::map<const Node*, std::string> node_names(const Graph& g) {
  std::map<const Node*, std::string> out;
  for (const Node* n : g.nodes()) out.emplace(n, n->name);
  return out;
}

void drop_erased_annotation_refs(GraphModule& gm, const std::map<const Node*, std::string>& before) {
  const auto now = node_names(gm.graph);
  const auto keep = [&](const Node* n) -> Node* {
    auto b = before.find(n), a = now.find(n);
    return (b != before.end() && a != now.end() && a->second == b->second) ? const_cast<Node*>(n) : nullptr;
  };
  for (Node* n : gm.graph.nodes())
    if (const auto& a = n->meta.quantization_annotation)
      if (auto r = a->with_nodes_remapped(keep)) n->meta.quantization_annotation = std::move(r);
}

}  // namespace

GraphModule convert_pt2e(const GraphModule& model, bool use_reference_representation, bool fold_quantize) {
  if (use_reference_representation)
    throw NotImplementedError("convert_pt2e: use_reference_representation=True is not implemented");
  register_quantized_decomposed_ops();
  GraphModule gm = model.clone();
  const auto before = node_names(gm.graph);
  replace_observers_with_quantize_dequantize(gm);
  _fold_conv_bn_qat(gm);  // §5.4: QAT conv-bn patterns become conv(folded weight, bias)
  duplicate_dq_pass(gm);
  if (fold_quantize) fold_quantize_ops(gm);
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
  drop_erased_annotation_refs(gm, before);
  gm.graph.lint();
  return gm;
}

}  // namespace pt
