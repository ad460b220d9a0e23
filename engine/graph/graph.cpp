// graph.cpp — Node / Graph / GraphModule bookkeeping: naming, insertion, users, lint, clone.
#include "graph/graph.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "graph/interpreter.h"

namespace pt {

const char* op_kind_name(OpKind k) {
  switch (k) {
    case OpKind::placeholder: return "placeholder";
    case OpKind::get_attr: return "get_attr";
    case OpKind::call_function: return "call_function";
    case OpKind::call_module: return "call_module";
    case OpKind::output: return "output";
  }
  return "call_function";
}

std::string Arg::str() const {
  struct Printer {
    std::string operator()(std::monostate) const { return "None"; }
    std::string operator()(Node* n) const { return "%" + n->name; }
    std::string operator()(const std::vector<Node*>& ns) const {
      std::string s = "[";
      for (size_t i = 0; i < ns.size(); ++i) s += (i ? ", %" : "%") + ns[i]->name;
      return s + "]";
    }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", d);
      std::string s = buf;
      if (s.find_first_of(".en") == std::string::npos) s += ".0";
      return s;
    }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(const std::vector<int64_t>& v) const { return shape_str(v); }
  };
  return std::visit(Printer{}, v);
}

namespace {
// Calls f(Node*) for every node reference in the args, including inside node lists.
template <class F> void for_each_input_node(const std::vector<Arg>& args, F f) {
  for (const Arg& a : args) {
    if (Node* n = a.node()) f(n);
    if (auto* ns = std::get_if<std::vector<Node*>>(&a.v))
      for (Node* n : *ns) f(n);
  }
}
}  // namespace

std::vector<Node*> Node::all_input_nodes() const {
  std::vector<Node*> out;
  for_each_input_node(args_, [&](Node* n) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  });
  return out;
}

// ---- naming and insertion ----------------------------------------------------------------------

std::string Graph::unique_name(const std::string& hint) const {
  std::string base = hint.empty() ? "node" : hint;
  for (char& c : base)
    if (c == '.') c = '_';
  if (!find(base)) return base;
  // torch's namer: strip an existing numeric suffix, then count up: relu, relu_1, relu_2 ...
  size_t us = base.rfind('_');
  if (us != std::string::npos && us + 1 < base.size() &&
      std::all_of(base.begin() + us + 1, base.end(), [](char c) { return c >= '0' && c <= '9'; }))
    base = base.substr(0, us);
  for (int i = 1;; ++i) {
    std::string cand = base + "_" + std::to_string(i);
    if (!find(cand)) return cand;
  }
}

namespace {
// The name a node gets when none is given: a call_function is named after its op
// (aten.conv2d.default -> conv2d), anything else after its target.
std::string default_name(OpKind op, const std::string& target) {
  if (op != OpKind::call_function) return target;
  size_t a = target.find('.'), b = target.rfind('.');
  return (a != std::string::npos && b > a) ? target.substr(a + 1, b - a - 1) : target;
}
}  // namespace

std::string Graph::fx_name_hint(const std::string& target) {
  const size_t ns = target.find('.');
  std::string name = ns == std::string::npos ? target : target.substr(ns + 1);  // drop "aten." / "quantized_decomposed."
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

size_t Graph::position(const Node* node, const char* what) const {
  int64_t i = index_of(node);
  if (i < 0) throw RuntimeError(std::string(what) + ": node is not in this graph");
  return static_cast<size_t>(i);
}

uint64_t new_identity() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

Node* Graph::insert_at(size_t pos, OpKind op, const std::string& target, std::vector<Arg> args,
                       const std::string& name) {
  for_each_input_node(args, [&](Node* n) {
    if (!contains(n))
      throw RuntimeError("create node '" + (name.empty() ? target : name) + "': argument %" + n->name +
                         " is not a node of this graph (dangling argument)");
  });
  if (op == OpKind::output && find_output())
    throw RuntimeError("create node '" + name + "': the graph already has an output node");
  auto node = std::make_unique<Node>();
  node->name = unique_name(name.empty() ? default_name(op, target) : name);
  node->op = op;
  node->target = target;
  node->args_ = std::move(args);
  Node* raw = node.get();
  nodes_.insert(nodes_.begin() + static_cast<std::ptrdiff_t>(pos), std::move(node));
  add_uses(raw);
  return raw;
}

Node* Graph::create_node(OpKind op, const std::string& target, std::vector<Arg> args, const std::string& name) {
  Node* out = find_output();
  size_t pos = out && op != OpKind::output ? position(out, "create_node") : nodes_.size();
  return insert_at(pos, op, target, std::move(args), name);
}

Node* Graph::insert_before(Node* anchor, OpKind op, const std::string& target, std::vector<Arg> args,
                           const std::string& name) {
  return insert_at(position(anchor, "insert_before"), op, target, std::move(args), name);
}

Node* Graph::insert_after(Node* anchor, OpKind op, const std::string& target, std::vector<Arg> args,
                          const std::string& name) {
  if (anchor && anchor->op == OpKind::output)
    throw RuntimeError("insert_after: cannot insert after the output node");
  return insert_at(position(anchor, "insert_after") + 1, op, target, std::move(args), name);
}

Node* Graph::placeholder(const std::string& name) {
  return create_node(OpKind::placeholder, name, {}, name);
}

Node* Graph::get_attr(const std::string& target) { return create_node(OpKind::get_attr, target, {}, target); }

Node* Graph::call_function(const std::string& target, std::vector<Arg> args, const std::string& name) {
  return create_node(OpKind::call_function, target, std::move(args), name);
}

Node* Graph::call_module(const std::string& target, std::vector<Arg> args) {
  return create_node(OpKind::call_module, target, std::move(args), target);
}

Node* Graph::output(std::vector<Node*> results) {
  return create_node(OpKind::output, "output", {Arg(std::move(results))}, "output");
}

// ---- users ---------------------------------------------------------------------------------------

void Graph::add_uses(Node* node) {
  for (Node* in : node->all_input_nodes()) in->users_.push_back(node);
}

void Graph::drop_uses(Node* node) {
  for (Node* in : node->all_input_nodes()) {
    auto& u = in->users_;
    u.erase(std::remove(u.begin(), u.end(), node), u.end());
  }
}

void Graph::set_args(Node* node, std::vector<Arg> args) {
  position(node, "set_args");
  for_each_input_node(args, [&](Node* n) {
    if (!contains(n))
      throw RuntimeError("set_args of node " + node->name + ": argument %" + n->name +
                         " is not a node of this graph (dangling argument)");
  });
  drop_uses(node);
  node->args_ = std::move(args);
  add_uses(node);
}

void Graph::replace_input_with(Node* user, Node* old_input, Node* new_input) {
  std::vector<Arg> args = user->args_;
  for (Arg& a : args) {
    if (a.node() == old_input) a = Arg(new_input);
    if (auto* ns = std::get_if<std::vector<Node*>>(&a.v))
      for (Node*& n : *ns)
        if (n == old_input) n = new_input;
  }
  set_args(user, std::move(args));
}

std::vector<Node*> Graph::replace_all_uses_with(Node* old_node, Node* replacement,
                                                const std::function<bool(Node*)>& keep) {
  position(old_node, "replace_all_uses_with");
  position(replacement, "replace_all_uses_with");
  std::vector<Node*> changed;
  for (Node* user : std::vector<Node*>(old_node->users_)) {
    if (keep && !keep(user)) continue;
    replace_input_with(user, old_node, replacement);
    changed.push_back(user);
  }
  return changed;
}

void Graph::erase_node(Node* node) {
  size_t pos = position(node, "erase_node");
  if (!node->users_.empty()) {
    std::string names;
    for (Node* u : node->users_) names += (names.empty() ? "" : ", ") + u->name;
    throw RuntimeError("erase_node: node " + node->name + " still has users (" + names + ")");
  }
  const auto without_node = [node](const Node* n) { return n == node ? nullptr : const_cast<Node*>(n); };
  for (const auto& other : nodes_)
    if (const auto& a = other->meta.quantization_annotation; a && other.get() != node && a->refers_to(node))
      if (auto r = a->with_nodes_remapped(without_node)) other->meta.quantization_annotation = std::move(r);
  drop_uses(node);
  nodes_.erase(nodes_.begin() + static_cast<std::ptrdiff_t>(pos));
}

int Graph::eliminate_dead_code() {
  int removed = 0;
  for (size_t i = nodes_.size(); i-- > 0;) {  // reverse order: a dead user frees its inputs
    Node* n = nodes_[i].get();
    if (n->op == OpKind::placeholder || n->op == OpKind::output || !n->users_.empty()) continue;
    erase_node(n);
    ++removed;
  }
  return removed;
}

// ---- lookup and validation ------------------------------------------------------------------------

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

Node* Graph::find(const std::string& name) const {
  for (const auto& n : nodes_)
    if (n->name == name) return n.get();
  return nullptr;
}

Node* Graph::find_output() const {
  for (const auto& n : nodes_)
    if (n->op == OpKind::output) return n.get();
  return nullptr;
}

bool Graph::contains(const Node* node) const { return index_of(node) >= 0; }

int64_t Graph::index_of(const Node* node) const {
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].get() == node) return static_cast<int64_t>(i);
  return -1;
}

void Graph::lint() const {
  std::unordered_map<const Node*, size_t> pos;
  std::unordered_set<std::string> names;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    pos[nodes_[i].get()] = i;
    if (!names.insert(nodes_[i]->name).second)
      throw RuntimeError("lint: node name " + nodes_[i]->name + " is used twice");
  }
  size_t outputs = 0;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node* n = nodes_[i].get();
    if (n->op == OpKind::output) {
      ++outputs;
      if (i + 1 != nodes_.size()) throw RuntimeError("lint: output node " + n->name + " is not the last node");
    }
    // Pointers are checked for membership before they are dereferenced.
    std::vector<Node*> inputs;
    for_each_input_node(n->args_, [&](Node* in) { inputs.push_back(in); });
    for (Node* in : inputs) {
      auto it = pos.find(in);
      if (it == pos.end())
        throw RuntimeError("lint: node " + n->name + " has a dangling argument (a node not in this graph)");
      if (it->second >= i) {
        // Follow arguments back from `in`: reaching n again means a real cycle.
        std::vector<const Node*> stack{in};
        std::unordered_set<const Node*> seen;
        bool cycle = false;
        while (!stack.empty() && !cycle) {
          const Node* cur = stack.back();
          stack.pop_back();
          if (cur == n) cycle = true;
          if (!pos.count(cur) || !seen.insert(cur).second) continue;
          for_each_input_node(cur->args_, [&](Node* next) { stack.push_back(next); });
        }
        throw RuntimeError("lint: node " + n->name + " uses %" + in->name +
                           (cycle ? ", which depends on it (cycle)" : ", which comes after it (not topological)"));
      }
      if (std::find(in->users_.begin(), in->users_.end(), n) == in->users_.end())
        throw RuntimeError("lint: node " + n->name + " is missing from the users of %" + in->name);
    }
    for (const Node* u : n->users_) {
      auto args = u->all_input_nodes();
      if (!pos.count(u) || std::find(args.begin(), args.end(), n) == args.end())
        throw RuntimeError("lint: node " + n->name + " lists a user that does not use it");
    }
  }
  if (outputs != 1)
    throw RuntimeError("lint: expected exactly one output node, found " + std::to_string(outputs));
}

// ---- GraphModule -----------------------------------------------------------------------------------

bool GraphModule::has_tensor(const std::string& target) const {
  for (const auto& t : state_)
    if (t.name == target) return true;
  return false;
}

const Tensor& GraphModule::get_tensor(const std::string& target) const {
  for (const auto& t : state_)
    if (t.name == target) return t.value;
  throw RuntimeError("GraphModule has no parameter or buffer named '" + target + "'");
}

void GraphModule::set_tensor(const std::string& target, Tensor value, bool is_buffer) {
  for (auto& t : state_)
    if (t.name == target) {
      t.value = std::move(value);
      return;
    }
  state_.push_back({target, std::move(value), is_buffer});
}

SubModule* GraphModule::get_module(const std::string& target) const {
  for (const auto& [name, m] : modules_)
    if (name == target) return m.get();
  return nullptr;
}

void GraphModule::add_module(const std::string& target, std::shared_ptr<SubModule> module) {
  if (!module) throw ValueError("add_module('" + target + "'): module must not be null");
  for (auto& [name, m] : modules_)
    if (name == target) {
      m = std::move(module);
      return;
    }
  modules_.emplace_back(target, std::move(module));
}

GraphModule GraphModule::clone() const {
  GraphModule out;
  out.class_name = class_name;
  for (const auto& t : state_) out.state_.push_back({t.name, t.value.clone(), t.is_buffer});
  std::unordered_map<const SubModule*, std::shared_ptr<SubModule>> copies;
  SubModule::ModuleCopies pairs;
  for (const auto& [name, m] : modules_) {
    auto& copy = copies[m.get()];
    if (!copy) {
      copy = m->clone();
      pairs.emplace_back(m.get(), copy.get());
    }
    out.modules_.emplace_back(name, copy);
  }
  for (const auto& [original, copy] : pairs) copy->relink(pairs);
  std::unordered_map<const Node*, Node*> map;
  for (const Node* n : graph.nodes()) {
    // An input must be an earlier node of this graph (what graph.lint() checks); an edit can break that.
    const auto copied = [&](const Node* in) {
      auto it = map.find(in);
      if (it == map.end())
        throw RuntimeError("clone(): node '" + n->name + "' uses '" + in->name +
                           "', which is not an earlier node of this graph (graph.lint() names the problem)");
      return it->second;
    };
    std::vector<Arg> args = n->args();
    for (Arg& a : args) {
      if (Node* in = a.node()) a = Arg(copied(in));
      if (auto* ns = std::get_if<std::vector<Node*>>(&a.v))
        for (Node*& in : *ns) in = copied(in);
    }
    Node* c = out.graph.create_node(n->op, n->target, std::move(args), n->name);
    c->meta = n->meta;
    map[n] = c;
  }
  // Nodes of other graphs stay as they are (so prepare_pt2e can report them as foreign).
  const auto remap = [&map](const Node* n) {
    auto it = map.find(n);
    return it == map.end() ? const_cast<Node*>(n) : it->second;
  };
  for (Node* c : out.graph.nodes())
    if (const auto& a = c->meta.quantization_annotation)
      if (auto r = a->with_nodes_remapped(remap)) c->meta.quantization_annotation = std::move(r);
  return out;
}

std::vector<Tensor> GraphModule::forward(const std::vector<Tensor>& inputs) { return run_graph(*this, inputs); }

void rethrow_for_node(const Error& e, const Node& node) {
  rethrow_with_message(e, "node " + node.name + " (" + node.target + "): " + e.what());
}

}  // namespace pt
