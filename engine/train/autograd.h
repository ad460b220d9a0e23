// autograd.h — reverse-mode autograd over the graph the interpreter runs: a Tape recorded during
// forward, then backward in reverse node order, one backward function per target.
//
//   pt::Tape tape(gm, {x});                                  // runs gm (run_graph) and records it
//   pt::Loss loss = pt::cross_entropy(tape.outputs()[0], labels);   // train/loss.h
//   tape.backward({loss.grad});                              // accumulates into gm.grads["conv1.weight"] ...
//
// What is recorded: every node's output value (tensors share storage: nothing is copied) and, for a
// call_module node, its SubModule::grad_mask() right after the call — a fake quantize's straight-through
// mask, so fake quant takes part in backward as ATen's fake_quantize_*_cachemask backward does
// (gradient × mask; observers pass the gradient unchanged; when the fake quantize reads a relu's or a max_pool2d's
// output and is its first gradient, the × mask is done in that op's backward pass, GradArgs::grad_mask), and what
// the node's op saved for its backward
// (ops::SavedForBackward: batch_norm's batch statistics, as torch's native_batch_norm saves them; max_pool2d's
// indices; conv2d's im2col columns). A node requires grad when it reads a
// parameter (a get_attr of a non-buffer tensor), or an input when recorded with input_grads, through
// its arguments; only those get gradients.
// backward(output_grads) seeds each output with its gradient (d loss / d output), walks the nodes in
// reverse, and adds each argument's gradient into the node that produced it (a tensor used twice gets
// both); a parameter's sum is then added to gm.grads[name] (torch's p.grad += ...). Nothing in gm
// changes when backward fails (gradients are committed at the end); after a successful backward the
// tape is released (its saved values freed) and a second backward is a RuntimeError, as torch's.
// The graph must not be edited between recording and backward (RuntimeError), and the tape must not
// outlive gm (the binding keeps gm alive).
//
// The backward table maps a call_function target (target:: constants) to a function from the forward's
// arguments, its output and the output's gradient to the arguments' gradients; the math lives in
// ops/backward.h. Other rooms add targets with register_backward. A node that requires grad and has no
// entry makes backward raise NotImplementedError naming the node.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graph/interpreter.h"
#include "ops/ops.h"

namespace pt {

// What a backward function sees.
struct GradArgs {
  const OpArgs& in;                 // the forward's arguments, with the forward's accessors and defaults
  const Value& out;                 // the forward's output
  const Tensor& grad;               // d loss / d output
  const std::vector<bool>& needs;   // per argument: does it want a gradient?
  const ops::SavedForBackward& saved;  // what the forward op saved for its backward (ops/ops.h)
  // An STE mask grad is still to be multiplied by (ops/backward.h), or nullptr. Only the built-in rules of relu and
  // max_pool2d get one: when a fake quantize reads their output, its grad × mask is left to their own pass.
  const Tensor* grad_mask = nullptr;
  bool needs_grad(size_t i) const { return i < needs.size() && needs[i]; }
  const Tensor& output() const;     // out as a tensor
};
// Returns one entry per argument (shorter is fine): the gradient of a tensor argument, a list of
// tensors for a tensor-list argument (cat), or None.
using BackwardFn = std::function<std::vector<Value>(const GradArgs&)>;

void register_backward(const std::string& target, BackwardFn fn);
const BackwardFn* find_backward(const std::string& target);  // nullptr when none

class Tape {
 public:
  struct Options {
    bool input_grads = false;  // also compute the inputs' gradients (x.requires_grad in torch)
  };
  Tape(GraphModule& gm, const std::vector<Tensor>& inputs, Options options);
  Tape(GraphModule& gm, const std::vector<Tensor>& inputs) : Tape(gm, inputs, Options{}) {}

  const std::vector<Tensor>& outputs() const { return outputs_; }
  GraphModule& module() const { return *gm_; }
  bool released() const { return released_; }

  // One gradient per output (nullopt: that output does not reach the loss). Returns the inputs'
  // gradients (empty tensors unless recorded with input_grads, or when no gradient reached an input).
  std::vector<Tensor> backward(const std::vector<std::optional<Tensor>>& output_grads);

 private:
  struct Entry {
    const Node* node;
    Value out;
    std::vector<Value> args;                // the forward's argument values
    std::vector<std::vector<int>> sources;  // per argument: the entries that produced it (-1: a literal)
    std::optional<Tensor> grad_mask;        // call_module nodes
    bool requires_grad = false;
    int input_index = -1;                   // placeholders
    ops::SavedForBackward saved;            // what the node's op saved while it ran
  };
  void check_graph_unchanged() const;
  GraphModule* gm_;
  std::vector<Entry> entries_;
  std::vector<int> output_sources_;  // the entry behind each output (-1: not a node)
  std::vector<Tensor> outputs_;
  size_t n_inputs_ = 0;
  bool released_ = false;
};

}  // namespace pt
