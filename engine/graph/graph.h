// graph.h — the exported-program IR: Node, Graph, GraphModule (shaped like torch.export's graph).
//
// A Graph is an ordered list of Nodes. Each Node has a unique `name`, an `op` kind (placeholder,
// get_attr, call_function, call_module, output), a `target` (target::conv2d, "conv1.weight",
// "activation_post_process_0", ...), positional `args` (node references, ints, floats, bools, int
// lists, node lists, None), its `users` (kept in sync by the Graph) and `meta` (val = shape + dtype,
// nn_module_stack, a slot for the quantizer's annotation, and `custom`, an open map of plain values).
// There is deliberately no source_fn_stack, as in torch 2.14 export (docs/algorithms.md, XNNPACKQuantizer
// (torchao testing copy), on source_fn_stack).
// A GraphModule owns a Graph, the named parameters / buffers that get_attr nodes read (keyed by
// the dotted module path, "conv1.weight"; the node is named conv1_weight), and the submodules that
// call_module nodes run (observers inserted by prepare_pt2e: activation_post_process_k).
//
//   pt::GraphModule gm;
//   pt::Node* x = gm.graph.placeholder("x");
//   pt::Node* r = gm.graph.call_function(pt::target::relu, {x});        // named "relu" (graph/targets.h)
//   gm.graph.output({r});
//   gm.graph.lint();                                                    // typed errors name the node
//
// Every mutation (insert_before / insert_after, replace_all_uses_with, erase_node,
// eliminate_dead_code) keeps users consistent, and erasing a node drops what other nodes'
// annotations say about it; lint() checks order, membership and names.
// Targets, op groups, node kinds and node predicates in graph/targets.h; run a graph with
// graph/interpreter.h; passes in graph/passes.h; tables in graph/report.h.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/tensor.h"

// g++ 12 reports false "may be used uninitialized" warnings wherever braced lists of Args (a
// std::variant holding vectors) are copied, i.e. in every file that builds nodes; silence it here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace pt {

enum class OpKind { placeholder, get_attr, call_function, call_module, output };
const char* op_kind_name(OpKind k);  // "placeholder", "get_attr", ...

struct Node;

// One positional argument of a node. None is std::monostate.
struct Arg {
  using Variant = std::variant<std::monostate, Node*, std::vector<Node*>, int64_t, double, bool,
                               std::vector<int64_t>>;
  Variant v;
  Arg() = default;
  Arg(std::nullptr_t) {}
  Arg(Node* n) {  // a null node is None
    if (n) v = n;
  }
  Arg(std::vector<Node*> ns) : v(std::move(ns)) {}
  Arg(int64_t i) : v(i) {}
  Arg(int i) : v(static_cast<int64_t>(i)) {}
  Arg(double d) : v(d) {}
  Arg(bool b) : v(b) {}
  Arg(std::vector<int64_t> ints) : v(std::move(ints)) {}
  bool is_none() const { return std::holds_alternative<std::monostate>(v); }
  Node* node() const { return std::holds_alternative<Node*>(v) ? std::get<Node*>(v) : nullptr; }
  std::string str() const;  // "%x", "[1, 1]", "None", "1e-05", "[%relu, %relu_1]"
};

// meta["val"]: what shape propagation found (FakeTensor in torch).
struct TensorMeta {
  Shape shape;
  DType dtype = DType::Float32;
};

// One nn_module_stack entry: the module path and its class, e.g. {"conv1", "torch.nn.modules.conv.Conv2d"}.
struct ModuleFrame {
  std::string fqn;
  std::string type;
};

// node.meta["quantization_annotation"], written by a Quantizer (pt2e). The graph room only reads it
// through this interface, for the report tables; edges are named by the input node's name.
// A number no other node or annotation of this process ever gets. torch tells Node and annotation objects apart by
// identity (`is`, id()); an address cannot stand in for it, since a freed graph's memory is reused.
uint64_t new_identity();

struct NodeAnnotation {
  NodeAnnotation() = default;
  NodeAnnotation(const NodeAnnotation&) {}  // a copy is another object, with an identity of its own
  NodeAnnotation& operator=(const NodeAnnotation&) { return *this; }
  virtual ~NodeAnnotation() = default;
  uint64_t identity = new_identity();
  // (input node name, spec label: "Spec", "SharedSpec", "DerivedSpec", "FixedSpec", "NoneType").
  virtual std::vector<std::pair<std::string, std::string>> input_spec_labels() const = 0;
  virtual std::string output_spec_label() const = 0;  // "NoneType" when the output is not quantized
  virtual bool annotated() const = 0;                 // the `_annotated` flag
  // For GraphModule::clone() and Graph::erase_node(): a copy whose node references go through `map`
  // (old node -> its copy, or nullptr for a node that is gone: what refers to it is dropped); nullptr
  // (the default) keeps sharing this object.
  virtual std::shared_ptr<const NodeAnnotation> with_nodes_remapped(
      const std::function<Node*(const Node*)>& map) const {
    (void)map;
    return nullptr;
  }
  // Whether the annotation names `node` (an input key, a Shared / Derived spec's edge or node).
  virtual bool refers_to(const Node* node) const {
    (void)node;
    return false;
  }
};

// node.meta["custom"]: named plain values a user or a tool attaches to a node (torchao's numeric
// debugger writes "numeric_debug_handle" there). The passes carry it where torchao carries a node's
// provenance: prepare_pt2e copies a node's to its output observer, convert_pt2e an observer's to the
// quantize / dequantize nodes it becomes (DuplicateDQPass's copies and fold_quantize's constant keep
// it, as node_copy and meta.update do); clone keeps every node's; nodes a rewrite keeps (fold_bn, the
// QAT conv-bn rewrites) keep theirs.
using MetaValue = std::variant<std::string, int64_t, double, bool>;
using CustomMeta = std::map<std::string, MetaValue>;  // sorted by key

struct Meta {
  std::optional<TensorMeta> val;
  std::vector<ModuleFrame> nn_module_stack;
  std::shared_ptr<const NodeAnnotation> quantization_annotation;
  CustomMeta custom;
};

struct Node {
  uint64_t identity = new_identity();  // the Python object's identity (new_identity above)
  std::string name;
  OpKind op = OpKind::call_function;
  std::string target;
  Meta meta;
  const std::vector<Arg>& args() const { return args_; }
  const std::vector<Node*>& users() const { return users_; }
  std::vector<Node*> all_input_nodes() const;  // distinct node arguments, in argument order

 private:
  friend class Graph;
  std::vector<Arg> args_;
  std::vector<Node*> users_;  // distinct users in insertion order
};

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  // Creating nodes. New nodes go before the output node (or at the end when there is none);
  // `name` is a hint made unique as torch does: relu, relu_1, relu_2 ...
  Node* placeholder(const std::string& name);
  Node* get_attr(const std::string& target);  // named after the target with dots -> '_'
  Node* call_function(const std::string& target, std::vector<Arg> args, const std::string& name = "");
  Node* call_module(const std::string& target, std::vector<Arg> args);
  Node* output(std::vector<Node*> results);  // output node with args = ([results...])
  Node* create_node(OpKind op, const std::string& target, std::vector<Arg> args, const std::string& name);
  Node* insert_before(Node* anchor, OpKind op, const std::string& target, std::vector<Arg> args,
                      const std::string& name);
  Node* insert_after(Node* anchor, OpKind op, const std::string& target, std::vector<Arg> args,
                     const std::string& name);

  // Editing.
  void set_args(Node* node, std::vector<Arg> args);
  void replace_input_with(Node* user, Node* old_input, Node* new_input);
  // Points every user of `old_node` (for which `keep` returns true, if given) at `replacement`;
  // returns the users changed.
  std::vector<Node*> replace_all_uses_with(Node* old_node, Node* replacement,
                                           const std::function<bool(Node*)>& keep = nullptr);
  // RuntimeError if the node still has users. The annotations of other nodes that name it are
  // rewritten without it (NodeAnnotation::with_nodes_remapped with the node mapped to nullptr), so no
  // annotation is left holding a dangling Node*.
  void erase_node(Node* node);
  // Removes call_function / call_module / get_attr nodes without users, repeatedly; returns how many.
  int eliminate_dead_code();

  // Lookup.
  std::vector<Node*> nodes() const;
  Node* find(const std::string& name) const;  // nullptr when absent
  Node* find_output() const;
  bool contains(const Node* node) const;
  size_t size() const { return nodes_.size(); }
  int64_t index_of(const Node* node) const;  // -1 when absent

  // Validation: unique names, exactly one output (last), every argument a node of this graph that
  // comes earlier (else "cycle" or "dangling argument" errors naming the node), users consistent.
  void lint() const;
  std::string unique_name(const std::string& hint) const;
  // The name hint torch.fx's Graph.create_node derives from a call_function target (Graph._target_to_str
  // of an OpOverload: its op and overload, "quantize_per_tensor.default" -> "quantize_per_tensor_default";
  // getitem -> "getitem"). Nodes a pass creates after export are named so (torchao convert_pt2e's q / dq /
  // choose_qparams); export itself names a node after its op alone (conv2d, relu), the default above.
  static std::string fx_name_hint(const std::string& target);

 private:
  Node* insert_at(size_t pos, OpKind op, const std::string& target, std::vector<Arg> args, const std::string& name);
  void add_uses(Node* node);
  void drop_uses(Node* node);
  size_t position(const Node* node, const char* what) const;
  std::vector<std::unique_ptr<Node>> nodes_;
};

// A call_module target: observers / fake-quant modules that prepare_pt2e inserts. The interpreter
// calls forward() on the node's first (tensor) argument.
struct SubModule {
  virtual ~SubModule() = default;
  virtual std::string type_name() const = 0;  // "HistogramObserver"
  virtual Tensor forward(const Tensor& x) = 0;
  virtual std::string describe() const = 0;  // one line for tables, e.g. "scale=0.03299 zp=-5"
  virtual std::shared_ptr<SubModule> clone() const = 0;
  // After GraphModule::clone() has copied every module once: `copies` pairs each module of the original
  // with its copy, so a copy that refers to other modules' state (an observer whose qparams derive from
  // other observers) can point at their copies, as copy.deepcopy's memo does. Default: nothing.
  using ModuleCopies = std::vector<std::pair<const SubModule*, SubModule*>>;
  virtual void relink(const ModuleCopies& copies) { (void)copies; }
  // Autograd (engine/train/autograd.h) asks this right after each forward(x): how that call passes a
  // gradient back to x — a uint8 mask of x's shape (1 passes, 0 blocks: a fake quantize's straight-through
  // estimator with its clamp mask), or nullopt when the gradient passes unchanged (an observer).
  virtual std::optional<Tensor> grad_mask() const { return std::nullopt; }
};

struct NamedTensor {
  std::string name;  // dotted path, "conv1.weight"
  Tensor value;
  bool is_buffer = false;
};

class GraphModule {
 public:
  Graph graph;
  std::string class_name = "GraphModule";

  // Parameters and buffers, in registration order (parameters first after export).
  const std::vector<NamedTensor>& state() const { return state_; }
  bool has_tensor(const std::string& target) const;
  const Tensor& get_tensor(const std::string& target) const;  // AttributeError-like RuntimeError when absent
  void set_tensor(const std::string& target, Tensor value, bool is_buffer = false);  // adds or replaces

  std::vector<std::pair<std::string, std::shared_ptr<SubModule>>>& modules() { return modules_; }
  const std::vector<std::pair<std::string, std::shared_ptr<SubModule>>>& modules() const { return modules_; }
  SubModule* get_module(const std::string& target) const;  // nullptr when absent
  void add_module(const std::string& target, std::shared_ptr<SubModule> module);

  // copy.deepcopy: same node names, cloned tensors and submodules (a submodule registered under
  // several names stays one object; references between submodules follow SubModule::relink),
  // annotations remapped to the new nodes.
  GraphModule clone() const;
  // The parameters' .grad (engine/train/autograd.h accumulates into it, zero_grad clears it): parameter
  // name -> float32 tensor of its shape. A parameter without an entry has grad None, as in torch before
  // its first backward. clone() does not copy it.
  std::map<std::string, Tensor> grads;
  // Runs the graph (graph/interpreter.h) and returns the output tensors.
  std::vector<Tensor> forward(const std::vector<Tensor>& inputs);

 private:
  std::vector<NamedTensor> state_;
  std::vector<std::pair<std::string, std::shared_ptr<SubModule>>> modules_;
};

// Rethrows `e` as the same pt::Error kind with "node <name> (<target>): " in front of the message.
[[noreturn]] void rethrow_for_node(const Error& e, const Node& node);

}  // namespace pt
