// interpreter.cpp — the target table (aten float ops, getitem, quantized_decomposed) and the
// node-by-node runner.
#include "graph/interpreter.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/target_table.h"
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"
#include "ops/ops.h"

namespace pt {

// ---- argument access -------------------------------------------------------------------------------

namespace {
[[noreturn]] void bad_arg(size_t i, const char* want, const Value& got) {
  static const char* kinds[] = {"None", "Tensor", "tuple of Tensors", "int", "float", "bool", "int list"};
  throw TypeError("argument " + std::to_string(i) + ": expected " + want + ", got " + kinds[got.v.index()]);
}
}  // namespace

const Tensor& OpArgs::tensor(size_t i) const {
  if (i >= values.size()) throw TypeError("missing required Tensor argument " + std::to_string(i));
  if (!values[i].is_tensor()) bad_arg(i, "Tensor", values[i]);
  return std::get<Tensor>(values[i].v);
}

std::optional<Tensor> OpArgs::optional_tensor(size_t i) const {
  if (!has(i)) return std::nullopt;
  return tensor(i);
}

const std::vector<Tensor>& OpArgs::tensors(size_t i) const {
  if (i >= values.size()) throw TypeError("missing required Tensor list argument " + std::to_string(i));
  if (auto* ts = std::get_if<std::vector<Tensor>>(&values[i].v)) return *ts;
  bad_arg(i, "list of Tensors", values[i]);
}

namespace {
// Argument i as `what` through `read` (nullopt when its kind does not fit), or `dflt` when omitted / None.
template <class T, class Read>
T read_arg(const OpArgs& a, size_t i, const std::optional<T>& dflt, const char* what, Read read) {
  if (!a.has(i)) {
    if (dflt) return *dflt;
    throw TypeError(std::string("missing required ") + what + " argument " + std::to_string(i));
  }
  if (std::optional<T> v = read(a.values[i].v)) return *v;
  bad_arg(i, what, a.values[i]);
}

template <class T> std::optional<T> exactly(const Value::Variant& v) {
  if (auto* x = std::get_if<T>(&v)) return *x;
  return std::nullopt;
}
}  // namespace

int64_t OpArgs::integer(size_t i, std::optional<int64_t> dflt) const {
  return read_arg(*this, i, dflt, "int", exactly<int64_t>);
}

double OpArgs::number(size_t i, std::optional<double> dflt) const {  // an int is a float too
  return read_arg(*this, i, dflt, "float", [](const Value::Variant& v) {
    if (auto x = exactly<int64_t>(v)) return std::optional<double>(static_cast<double>(*x));
    return exactly<double>(v);
  });
}

bool OpArgs::boolean(size_t i, std::optional<bool> dflt) const { return read_arg(*this, i, dflt, "bool", exactly<bool>); }

std::vector<int64_t> OpArgs::ints(size_t i, std::optional<std::vector<int64_t>> dflt) const {  // an int is [int]
  return read_arg(*this, i, dflt, "int list", [](const Value::Variant& v) {
    if (auto x = exactly<int64_t>(v)) return std::optional<std::vector<int64_t>>(std::vector<int64_t>{*x});
    return exactly<std::vector<int64_t>>(v);
  });
}

// ---- the target table ------------------------------------------------------------------------------

namespace {

// Argument i as a tensor; an int or float literal becomes a 0-dim float32 tensor.
Tensor tensor_or_scalar(const OpArgs& a, size_t i) {
  if (i < a.values.size() && !a.values[i].is_tensor() && !a.values[i].is_none())
    return Tensor::scalar(static_cast<float>(a.number(i)));
  return a.tensor(i);
}

TargetTable<OpFn>& table() {
  static TargetTable<OpFn> t("register_op", [] {
    std::map<std::string, OpFn> m;
    m[target::conv2d] = [](const OpArgs& a) {  // input, weight, bias?, stride, padding, dilation, groups
      return Value(ops::conv2d(a.tensor(0), a.tensor(1), a.optional_tensor(2), a.ints(3, {{1, 1}}),
                               a.ints(4, {{0, 0}}), a.ints(5, {{1, 1}}), a.integer(6, 1)));
    };
    m[target::linear] = [](const OpArgs& a) {
      return Value(ops::linear(a.tensor(0), a.tensor(1), a.optional_tensor(2)));
    };
    m[target::relu] = [](const OpArgs& a) { return Value(ops::relu(a.tensor(0))); };
    m[target::sigmoid] = [](const OpArgs& a) { return Value(ops::sigmoid(a.tensor(0))); };
    m[target::hardtanh] = [](const OpArgs& a) {
      return Value(ops::hardtanh(a.tensor(0), a.number(1, -1.0), a.number(2, 1.0)));
    };
    m[target::max_pool2d] = [](const OpArgs& a) {  // self, kernel_size, stride, padding, dilation, ceil_mode
      return Value(ops::max_pool2d(a.tensor(0), a.ints(1), a.ints(2, std::vector<int64_t>{}), a.ints(3, {{0, 0}}),
                                   a.ints(4, {{1, 1}}), a.boolean(5, false)));
    };
    m[target::adaptive_avg_pool2d] = [](const OpArgs& a) {
      return Value(ops::adaptive_avg_pool2d(a.tensor(0), a.ints(1)));
    };
    m[target::mean_dim] = [](const OpArgs& a) {  // self, dim, keepdim, dtype (must be None)
      if (a.has(3)) throw NotImplementedError("mean.dim: only dtype=None is supported");
      return Value(ops::mean_dim(a.tensor(0), a.ints(1, std::vector<int64_t>{}), a.boolean(2, false)));
    };
    // add / mul / div: `other` may be a Python number (torch wraps it as a 0-dim tensor, computed in float).
    m[target::add] = [](const OpArgs& a) {
      return Value(ops::add(a.tensor(0), tensor_or_scalar(a, 1), a.number(2, 1.0)));
    };
    m[target::mul] = [](const OpArgs& a) { return Value(ops::mul(a.tensor(0), tensor_or_scalar(a, 1))); };
    m[target::div] = [](const OpArgs& a) { return Value(ops::div(a.tensor(0), tensor_or_scalar(a, 1))); };
    m[target::sqrt] = [](const OpArgs& a) { return Value(ops::sqrt(a.tensor(0))); };
    // reshape / view: a new tensor (ops are pure; it never aliases a module buffer that BN updates).
    m[target::reshape] = [](const OpArgs& a) { return Value(a.tensor(0).clone().reshape(a.ints(1))); };
    m[target::view] = m[target::reshape];
    m[target::zeros_like] = [](const OpArgs& a) { return Value(ops::zeros_like(a.tensor(0))); };
    m[target::cat] = [](const OpArgs& a) { return Value(ops::cat(a.tensors(0), a.integer(1, 0))); };
    m[target::flatten] = [](const OpArgs& a) {
      return Value(ops::flatten(a.tensor(0), a.integer(1, 0), a.integer(2, -1)));
    };
    // input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled
    // training=True: batch statistics, running_mean / running_var (module buffers) updated in place with
    // `momentum` (a None momentum, torch's cumulative average, needs num_batches_tracked: not supported).
    m[target::batch_norm] = [](const OpArgs& a) {
      if (a.boolean(5, false)) {
        if (!a.has(6)) throw NotImplementedError("batch_norm: training with momentum=None is not supported");
        return Value(ops::batch_norm_training(a.tensor(0), a.optional_tensor(1), a.optional_tensor(2),
                                              a.optional_tensor(3), a.optional_tensor(4), a.number(6),
                                              a.number(7, 1e-5)));
      }
      return Value(ops::batch_norm(a.tensor(0), a.optional_tensor(1), a.optional_tensor(2), a.tensor(3), a.tensor(4),
                                   a.number(7, 1e-5)));
    };
    // input, weight, bias, running_mean, running_var, momentum, eps -> (out, save_mean, save_invstd);
    // in inference torch returns empty save_mean / save_invstd.
    m[target::native_batch_norm_legit_no_training] = [](const OpArgs& a) {
      Tensor y = ops::batch_norm(a.tensor(0), a.optional_tensor(1), a.optional_tensor(2), a.tensor(3), a.tensor(4),
                                 a.number(6, 1e-5));
      return Value(std::vector<Tensor>{y, Tensor::empty({0}), Tensor::empty({0})});
    };
    m[target::getitem] = [](const OpArgs& a) {  // operator.getitem(tuple, index)
      const auto& ts = a.tensors(0);
      int64_t i = a.integer(1);
      if (i < 0) i += static_cast<int64_t>(ts.size());
      if (i < 0 || i >= static_cast<int64_t>(ts.size()))
        throw IndexError("getitem: index " + std::to_string(a.integer(1)) + " out of range for a tuple of " +
                         std::to_string(ts.size()));
      return Value(ts[static_cast<size_t>(i)]);
    };
    for (auto& [target, fn] : quantized_decomposed_ops()) m[target] = std::move(fn);
    return m;
  }());
  return t;
}

}  // namespace

void register_op(const std::string& target, OpFn fn) { table().add(target, std::move(fn)); }
const OpFn* find_op(const std::string& target) { return table().find(target); }
std::vector<std::string> registered_targets() { return table().targets(); }

// ---- running -----------------------------------------------------------------------------------------

namespace {

// The values computed so far, and a node's arguments resolved against them.
class Env {
 public:
  const Value& get(const Node* owner, const Node* in) const {
    auto it = values_.find(in);
    if (it == values_.end())
      throw RuntimeError("node " + owner->name + " uses an argument that has no value yet (dangling argument or "
                         "graph not in topological order; run lint())");
    return it->second;
  }
  void set(const Node* n, Value v) { values_[n] = std::move(v); }
  void drop(const Node* n) { values_.erase(n); }

  std::vector<Value> resolve(const Node* owner) const {
    std::vector<Value> vals;
    for (const Arg& a : owner->args()) {
      if (Node* in = a.node()) {
        vals.push_back(get(owner, in));
      } else if (auto* ns = std::get_if<std::vector<Node*>>(&a.v)) {
        std::vector<Tensor> ts;
        for (Node* in : *ns) {
          const Value& v = get(owner, in);
          if (!v.is_tensor()) throw TypeError("node " + owner->name + ": list element %" + in->name + " is not a Tensor");
          ts.push_back(std::get<Tensor>(v.v));
        }
        vals.push_back(Value(std::move(ts)));
      } else {
        std::visit(
            [&](const auto& x) {
              using T = std::decay_t<decltype(x)>;
              if constexpr (!std::is_same_v<T, Node*> && !std::is_same_v<T, std::vector<Node*>>)
                vals.push_back(Value(Value::Variant(x)));
            },
            a.v);
      }
    }
    return vals;
  }

 private:
  std::unordered_map<const Node*, Value> values_;
};

Value call_function(const Node& n, const Env& env) {
  const OpFn* fn = find_op(n.target);
  if (!fn) throw NotImplementedError("unknown call_function target '" + n.target + "'");
  const std::vector<Value> vals = env.resolve(&n);
  return (*fn)(OpArgs{vals, n});
}

// Runs f() and gives an error that does not name a node yet the node's name and target.
template <class F> auto naming_node(const Node& n, F f) {
  try {
    return f();
  } catch (const Error& e) {
    if (std::string(e.what()).rfind("node ", 0) == 0) throw;  // already names a node
    rethrow_for_node(e, n);
  }
}

}  // namespace

std::vector<Tensor> run_graph(GraphModule& gm, const std::vector<Tensor>& inputs, const NodeHook& on_node) {
  std::vector<Node*> nodes = gm.graph.nodes();
  size_t n_placeholders = 0;
  std::string names;
  for (Node* n : nodes)
    if (n->op == OpKind::placeholder) names += (n_placeholders++ ? ", " : "") + n->name;
  if (inputs.size() != n_placeholders)
    throw ValueError("forward: expected " + std::to_string(n_placeholders) + " input(s) (" + names + "), got " +
                     std::to_string(inputs.size()));

  // Each value is dropped after its last user has run, so big graphs keep few tensors alive.
  std::unordered_map<const Node*, size_t> last_use;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (Node* in : nodes[i]->all_input_nodes()) last_use[in] = i;

  Env env;
  size_t next_input = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    Node* n = nodes[i];
    if (n->op == OpKind::output) {
      std::vector<Tensor> results =
          naming_node(*n, [&] { return OpArgs{env.resolve(n), *n}.tensors(0); });
      if (on_node) on_node(*n, Value(results));
      return results;
    }
    Value out = naming_node(*n, [&]() -> Value {
      switch (n->op) {
        case OpKind::placeholder: return Value(inputs[next_input++]);
        case OpKind::get_attr: return Value(gm.get_tensor(n->target));
        case OpKind::call_function: return call_function(*n, env);
        case OpKind::call_module: {
          SubModule* m = gm.get_module(n->target);
          if (!m) throw RuntimeError("GraphModule has no submodule '" + n->target + "'");
          return Value(m->forward(OpArgs{env.resolve(n), *n}.tensor(0)));
        }
        case OpKind::output: break;
      }
      return Value();
    });
    if (on_node) on_node(*n, out);
    if (!n->users().empty()) env.set(n, std::move(out));
    for (Node* in : n->all_input_nodes())
      if (last_use[in] == i) env.drop(in);
  }
  throw RuntimeError("forward: the graph has no output node");
}

std::vector<Value> evaluate_constants(const GraphModule& gm, const std::vector<const Node*>& nodes) {
  // The nodes asked for and everything they read, found backwards, then run in graph order.
  std::unordered_set<const Node*> needed;
  std::vector<const Node*> stack(nodes.begin(), nodes.end());
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!gm.graph.contains(n)) throw ValueError("evaluate_constants: a node is not in this graph");
    if (!needed.insert(n).second) continue;
    if (n->op != OpKind::get_attr && n->op != OpKind::call_function)
      throw ValueError("evaluate_constants: node " + n->name + " (" + op_kind_name(n->op) +
                       ") is not a constant (only get_attr nodes and call_functions of them are)");
    for (const Node* in : n->all_input_nodes()) stack.push_back(in);
  }
  Env env;
  for (const Node* n : gm.graph.nodes()) {
    if (!needed.count(n)) continue;
    env.set(n, naming_node(*n, [&] {
      return n->op == OpKind::get_attr ? Value(gm.get_tensor(n->target)) : call_function(*n, env);
    }));
  }
  std::vector<Value> out;
  for (const Node* n : nodes) out.push_back(env.get(n, n));
  return out;
}

void propagate_shapes(GraphModule& gm, const std::vector<Tensor>& inputs) {
  std::unordered_map<const Node*, TensorMeta> found;
  run_graph(gm, inputs, [&](const Node& n, const Value& v) {
    if (v.is_tensor() && n.op != OpKind::output) {
      const Tensor& t = std::get<Tensor>(v.v);
      found[&n] = TensorMeta{t.shape(), t.dtype()};
    }
  });
  for (Node* n : gm.graph.nodes()) {
    auto it = found.find(n);
    if (it == found.end()) n->meta.val.reset();
    else n->meta.val = it->second;
  }
}

}  // namespace pt
