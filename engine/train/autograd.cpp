// autograd.cpp — the backward table (one entry per differentiable target) and the Tape (see autograd.h).
#include "train/autograd.h"

#include <map>
#include <set>
#include <utility>
#include <unordered_map>

#include "core/target_table.h"
#include "graph/targets.h"
#include "ops/backward.h"
#include "quant/quantize.h"
#include "train/parameters.h"

namespace pt {

const Tensor& GradArgs::output() const {
  if (!out.is_tensor()) throw RuntimeError("backward: the forward's output is not a tensor");
  return std::get<Tensor>(out.v);
}

namespace {

// Argument i as a tensor; an int or float literal becomes a 0-dim tensor (as the forward table does).
Tensor tensor_or_scalar(const OpArgs& a, size_t i) {
  if (i < a.values.size() && !a.values[i].is_tensor() && !a.values[i].is_none())
    return Tensor::scalar(static_cast<float>(a.number(i)));
  return a.tensor(i);
}

Tensor scaled(const Tensor& t, double s) { return s == 1.0 ? t : ops::mul(t, Tensor::scalar(static_cast<float>(s))); }

TargetTable<BackwardFn>& table() {
  static TargetTable<BackwardFn> t("register_backward", [] {
    std::map<std::string, BackwardFn> m;
    // conv2d(input, weight, bias?, stride, padding, dilation, groups): aten.convolution_backward
    m[target::conv2d] = [](const GradArgs& g) {
      const OpArgs& a = g.in;
      const auto stride = a.ints(3, {{1, 1}}), padding = a.ints(4, {{0, 0}}), dilation = a.ints(5, {{1, 1}});
      const int64_t groups = a.integer(6, 1);
      std::vector<Value> r(3);
      if (g.needs_grad(0))
        r[0] = ops::conv2d_backward_input(g.grad, a.tensor(1), a.tensor(0).shape(), stride, padding, dilation, groups);
      if (g.needs_grad(1))
        r[1] = ops::conv2d_backward_weight(g.grad, a.tensor(0), a.tensor(1).shape(), stride, padding, dilation, groups,
                                           g.saved.conv_columns ? &*g.saved.conv_columns : nullptr);
      if (g.needs_grad(2)) r[2] = ops::sum_to(g.grad, {a.tensor(2).size(0), 1, 1}).reshape({a.tensor(2).size(0)});
      return r;
    };
    m[target::linear] = [](const GradArgs& g) {
      const OpArgs& a = g.in;
      std::vector<Value> r(3);
      if (g.needs_grad(0)) r[0] = ops::linear_backward_input(g.grad, a.tensor(1));
      if (g.needs_grad(1)) r[1] = ops::linear_backward_weight(g.grad, a.tensor(0));
      if (g.needs_grad(2)) r[2] = ops::sum_to(g.grad, a.tensor(2).shape());
      return r;
    };
    m[target::relu] = [](const GradArgs& g) {
      return std::vector<Value>{ops::threshold_backward(g.grad, g.output(), 0.f, g.grad_mask)};
    };
    m[target::hardtanh] = [](const GradArgs& g) {
      return std::vector<Value>{ops::hardtanh_backward(g.grad, g.in.tensor(0), g.in.number(1, -1.0), g.in.number(2, 1.0))};
    };
    m[target::sigmoid] = [](const GradArgs& g) { return std::vector<Value>{ops::sigmoid_backward(g.grad, g.output())}; };
    m[target::max_pool2d] = [](const GradArgs& g) {
      const OpArgs& a = g.in;
      const Tensor* indices = g.saved.max_pool_indices ? &*g.saved.max_pool_indices : nullptr;
      return std::vector<Value>{ops::max_pool2d_backward(g.grad, a.tensor(0), a.ints(1), a.ints(2, std::vector<int64_t>{}),
                                                         a.ints(3, {{0, 0}}), a.ints(4, {{1, 1}}), a.boolean(5, false),
                                                         indices, g.grad_mask)};
    };
    m[target::adaptive_avg_pool2d] = [](const GradArgs& g) {
      return std::vector<Value>{ops::adaptive_avg_pool2d_backward(g.grad, g.in.tensor(0))};
    };
    m[target::mean_dim] = [](const GradArgs& g) {
      const OpArgs& a = g.in;
      return std::vector<Value>{
          ops::mean_dim_backward(g.grad, a.tensor(0).shape(), a.ints(1, std::vector<int64_t>{}), a.boolean(2, false))};
    };
    // add(self, other, alpha): self <- grad, other <- alpha * grad, each summed back to its shape.
    m[target::add] = [](const GradArgs& g) {
      std::vector<Value> r(2);
      if (g.needs_grad(0)) r[0] = ops::sum_to(g.grad, g.in.tensor(0).shape());
      if (g.needs_grad(1)) r[1] = ops::sum_to(scaled(g.grad, g.in.number(2, 1.0)), g.in.tensor(1).shape());
      return r;
    };
    m[target::mul] = [](const GradArgs& g) {
      const Tensor a = g.in.tensor(0), b = tensor_or_scalar(g.in, 1);
      std::vector<Value> r(2);
      if (g.needs_grad(0)) r[0] = ops::sum_to(ops::mul(g.grad, b), a.shape());
      if (g.needs_grad(1)) r[1] = ops::sum_to(ops::mul(g.grad, a), b.shape());
      return r;
    };
    // div: self <- grad / other; other <- -grad * ((self / other) / other)  (div_tensor_other_backward), with
    // self / other the forward's result (as sqrt's backward takes it)
    m[target::div] = [](const GradArgs& g) {
      ops::DivGrads d = ops::div_backward(g.grad, g.output(), tensor_or_scalar(g.in, 1), g.in.tensor(0).shape(),
                                          g.needs_grad(0), g.needs_grad(1));
      std::vector<Value> r(2);
      if (d.self) r[0] = *d.self;
      if (d.other) r[1] = *d.other;
      return r;
    };
    m[target::sqrt] = [](const GradArgs& g) {  // grad / (2 * result)
      return std::vector<Value>{ops::div(g.grad, scaled(g.output(), 2.0))};
    };
    const BackwardFn reshape = [](const GradArgs& g) { return std::vector<Value>{g.grad.reshape(g.in.tensor(0).shape())}; };
    m[target::reshape] = reshape;
    m[target::view] = reshape;
    m[target::flatten] = reshape;
    m[target::zeros_like] = [](const GradArgs&) { return std::vector<Value>{}; };  // no gradient flows to the input
    m[target::cat] = [](const GradArgs& g) {
      std::vector<Shape> shapes;
      for (const Tensor& t : g.in.tensors(0)) shapes.push_back(t.shape());
      return std::vector<Value>{ops::cat_backward(g.grad, shapes, g.in.integer(1, 0))};
    };
    // batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)
    m[target::batch_norm] = [](const GradArgs& g) {
      const OpArgs& a = g.in;
      ops::BatchNormGrads bn = ops::batch_norm_backward(g.grad, a.tensor(0), a.optional_tensor(1), a.optional_tensor(3),
                                                        a.optional_tensor(4), a.boolean(5, false), a.number(7, 1e-5),
                                                        g.needs_grad(0), g.needs_grad(1), g.needs_grad(2),
                                                        g.saved.batch_norm ? &*g.saved.batch_norm : nullptr);
      std::vector<Value> r(3);
      if (bn.input) r[0] = *bn.input;
      if (bn.weight) r[1] = *bn.weight;
      if (bn.bias) r[2] = *bn.bias;
      return r;
    };
    return m;
  }());
  return t;
}

// The targets whose rule in table() takes GradArgs::grad_mask; register_backward of one takes it out.
std::set<std::string>& mask_takers() {
  static std::set<std::string> s{target::relu, target::max_pool2d};
  return s;
}

// An argument's value as the interpreter passed it: a node's output, a list of tensors, or a literal.
Value literal_value(const Arg& a) {
  return std::visit(
      [](const auto& x) -> Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Node*> || std::is_same_v<T, std::vector<Node*>>) return Value();
        else return Value(Value::Variant(x));
      },
      a.v);
}

void accumulate(std::optional<Tensor>& slot, const Tensor& g) { slot = slot ? ops::add(*slot, g) : g; }

}  // namespace

void register_backward(const std::string& target, BackwardFn fn) {
  table().add(target, std::move(fn));
  mask_takers().erase(target);
}
const BackwardFn* find_backward(const std::string& target) { return table().find(target); }

// ---- recording -------------------------------------------------------------------------------------------

Tape::Tape(GraphModule& gm, const std::vector<Tensor>& inputs, Options options) : gm_(&gm) {
  std::unordered_map<const Node*, int> index;
  ops::SavedForBackward saved;  // filled by the op of the node that runs, moved into its entry by the hook
  const ops::SaveForBackward save(saved);
  outputs_ = run_graph(gm, inputs, [&](const Node& n, const Value& v) {
    if (n.op == OpKind::output) {
      for (const Arg& a : n.args())
        if (auto* ns = std::get_if<std::vector<Node*>>(&a.v))
          for (const Node* o : *ns) output_sources_.push_back(index.count(o) ? index.at(o) : -1);
      entries_.push_back({&n, Value(), {}, {}, std::nullopt, false, -1, {}});
      return;
    }
    Entry e{&n, v, {}, {}, std::nullopt, false, -1, {}};
    for (const Arg& a : n.args()) {
      if (const Node* in = a.node()) {
        const int src = index.at(in);
        e.args.push_back(entries_[src].out);
        e.sources.push_back({src});
        e.requires_grad = e.requires_grad || entries_[src].requires_grad;
      } else if (auto* ns = std::get_if<std::vector<Node*>>(&a.v)) {
        std::vector<Tensor> ts;
        std::vector<int> srcs;
        for (const Node* in : *ns) {
          srcs.push_back(index.at(in));
          ts.push_back(std::get<Tensor>(entries_[srcs.back()].out.v));
          e.requires_grad = e.requires_grad || entries_[srcs.back()].requires_grad;
        }
        e.args.push_back(Value(std::move(ts)));
        e.sources.push_back(std::move(srcs));
      } else {
        e.args.push_back(literal_value(a));
        e.sources.push_back({-1});
      }
    }
    if (n.op == OpKind::placeholder) {
      e.input_index = static_cast<int>(n_inputs_++);
      e.requires_grad = options.input_grads;
    } else if (n.op == OpKind::get_attr) {
      for (const NamedTensor& t : gm.state())
        if (t.name == n.target) e.requires_grad = is_parameter(t);
    } else if (n.op == OpKind::call_module) {
      e.grad_mask = gm.get_module(n.target)->grad_mask();
    }
    e.saved = std::exchange(saved, {});
    index[&n] = static_cast<int>(entries_.size());
    entries_.push_back(std::move(e));
  });
}

// ---- backward --------------------------------------------------------------------------------------------

void Tape::check_graph_unchanged() const {
  const std::vector<Node*> nodes = gm_->graph.nodes();
  bool same = nodes.size() == entries_.size();
  for (size_t i = 0; same && i < nodes.size(); ++i) same = nodes[i] == entries_[i].node;
  if (!same) throw RuntimeError("backward: the graph was edited after this forward was recorded; run forward again");
}

std::vector<Tensor> Tape::backward(const std::vector<std::optional<Tensor>>& output_grads) {
  if (released_)
    throw RuntimeError("Trying to backward through the graph a second time: the forward's saved values are freed "
                       "after backward; run forward again");
  check_graph_unchanged();
  if (output_grads.size() != outputs_.size())
    throw ValueError("backward: expected " + std::to_string(outputs_.size()) + " output gradient(s), got " +
                     std::to_string(output_grads.size()));
  std::vector<std::optional<Tensor>> grads(entries_.size());
  // masks[i]: an STE mask grads[i] is still to be multiplied by (a fake quantize's, left to a rule that takes it).
  std::vector<std::optional<Tensor>> masks(entries_.size());
  auto apply_mask = [&](size_t i) {
    if (masks[i]) grads[i] = fake_quantize_backward(*grads[i], *std::exchange(masks[i], std::nullopt));
  };
  for (size_t i = 0; i < output_grads.size(); ++i) {
    if (!output_grads[i]) continue;
    const Tensor& g = *output_grads[i];
    if (g.dtype() != DType::Float32 || g.shape() != outputs_[i].shape())
      throw RuntimeError("Mismatch in shape: grad_output[" + std::to_string(i) + "] has a shape of " +
                         shape_str(g.shape()) + " and output[" + std::to_string(i) + "] has a shape of " +
                         shape_str(outputs_[i].shape()) + " (float32 expected)");
    if (output_sources_[i] >= 0) accumulate(grads[output_sources_[i]], g);
  }

  std::map<std::string, Tensor> param_grads;
  std::vector<Tensor> input_grads(n_inputs_);
  for (int i = static_cast<int>(entries_.size()) - 1; i >= 0; --i) {
    Entry& e = entries_[i];
    if (!grads[i] || !e.requires_grad) continue;
    const Tensor g = *grads[i];
    const std::optional<Tensor> mask = std::exchange(masks[i], std::nullopt);
    auto give = [&](int src, const Value& v) {
      if (src < 0 || v.is_none() || !entries_[src].requires_grad) return;
      const Tensor& t = std::get<Tensor>(v.v);
      const Value& want = entries_[src].out;
      if (!want.is_tensor() || std::get<Tensor>(want.v).shape() != t.shape())
        throw RuntimeError("backward gave a gradient of shape " + shape_str(t.shape()) + " for an argument of another shape");
      apply_mask(src);
      accumulate(grads[src], t);
    };
    // A fake quantize's gradient: grad × mask, left to the source's rule when it takes masks and nothing else has
    // given it a gradient yet (a second gradient finds the mask applied: apply_mask in give).
    auto give_masked = [&](int src, const Tensor& mask) {
      const Entry* s = src >= 0 ? &entries_[src] : nullptr;
      if (s && s->requires_grad && !grads[src] && s->node->op == OpKind::call_function &&
          mask_takers().count(s->node->target) && s->out.is_tensor() && std::get<Tensor>(s->out.v).shape() == g.shape() &&
          mask.dtype() == DType::UInt8 && mask.shape() == g.shape()) {
        grads[src] = g;
        masks[src] = mask;
      } else {
        give(src, fake_quantize_backward(g, mask));
      }
    };
    try {
      switch (e.node->op) {
        case OpKind::placeholder: input_grads[e.input_index] = g; break;
        case OpKind::get_attr: {
          auto it = param_grads.find(e.node->target);
          if (it == param_grads.end()) param_grads.emplace(e.node->target, g);
          else it->second = ops::add(it->second, g);
          break;
        }
        case OpKind::call_module:
          if (e.grad_mask) give_masked(e.sources[0][0], *e.grad_mask);
          else give(e.sources[0][0], g);
          break;
        case OpKind::call_function: {
          const BackwardFn* fn = find_backward(e.node->target);
          if (!fn) throw NotImplementedError("backward: no derivative for '" + e.node->target + "'");
          std::vector<bool> needs;
          for (const auto& srcs : e.sources) {
            bool need = false;
            for (int s : srcs) need = need || (s >= 0 && entries_[s].requires_grad);
            needs.push_back(need);
          }
          const std::vector<Value> r =
              (*fn)(GradArgs{OpArgs{e.args, *e.node}, e.out, g, needs, e.saved, mask ? &*mask : nullptr});
          for (size_t k = 0; k < r.size() && k < e.sources.size(); ++k) {
            if (auto* ts = std::get_if<std::vector<Tensor>>(&r[k].v)) {
              for (size_t j = 0; j < ts->size() && j < e.sources[k].size(); ++j) give(e.sources[k][j], Value((*ts)[j]));
            } else {
              give(e.sources[k][0], r[k]);
            }
          }
          break;
        }
        case OpKind::output: break;
      }
    } catch (const Error& err) {
      rethrow_for_node(err, *e.node);
    }
    grads[i].reset();  // free as we go
  }
  // Commit: p.grad += the new gradient (p.grad = it when None).
  for (auto& [name, g] : param_grads) {
    auto it = gm_->grads.find(name);
    if (it == gm_->grads.end()) gm_->grads.emplace(name, g.clone());
    else it->second = ops::add(it->second, g);
  }
  entries_.clear();
  released_ = true;
  return input_grads;
}

}  // namespace pt
