// targets.cpp — node predicates and node kinds over the vocabulary in targets.h.
#include "graph/targets.h"

#include <algorithm>

namespace pt {

bool is_call(const Node* n, std::string_view t) { return n && n->op == OpKind::call_function && n->target == t; }

bool is_call(const Node* n, TargetGroup g) {
  return n && n->op == OpKind::call_function &&
         std::any_of(g.begin(), g.end(), [n](const char* t) { return n->target == t; });
}

Node* arg_node(const Node* n, size_t i) { return n && i < n->args().size() ? n->args()[i].node() : nullptr; }

bool only_user(const Node* n, const Node* user) { return n->users().size() == 1 && n->users()[0] == user; }

NodeKind node_kind(const Node& n) {
  switch (n.op) {
    case OpKind::placeholder: return NodeKind::placeholder;
    case OpKind::get_attr: return NodeKind::get_attr;
    case OpKind::output: return NodeKind::output;
    case OpKind::call_module: return NodeKind::observer;
    case OpKind::call_function: break;
  }
  if (is_call(&n, group::quantize)) return NodeKind::quantize;
  if (is_call(&n, group::dequantize)) return NodeKind::dequantize;
  if (is_call(&n, group::choose_qparams)) return NodeKind::choose_qparams;
  if (is_call(&n, group::int8)) return NodeKind::delegate;
  return NodeKind::op;
}

const char* node_kind_name(NodeKind k) {
  switch (k) {
    case NodeKind::placeholder: return "placeholder";
    case NodeKind::get_attr: return "get_attr";
    case NodeKind::op: return "op";
    case NodeKind::observer: return "observer";
    case NodeKind::quantize: return "quantize";
    case NodeKind::dequantize: return "dequantize";
    case NodeKind::choose_qparams: return "choose_qparams";
    case NodeKind::delegate: return "delegate";
    case NodeKind::output: return "output";
  }
  return "op";
}

}  // namespace pt
