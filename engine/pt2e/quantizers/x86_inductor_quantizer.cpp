// x86_inductor_quantizer.cpp — X86InductorQuantizer: default config, pattern annotators matched by
// source type (nn_module_stack class or torch_fn) and structure, propagation and the configuration stages
// (see x86_inductor_quantizer.h).
#include "pt2e/quantizers/x86_inductor_quantizer.h"
#include "pt2e/quantizer_registry.h"

#include <algorithm>
#include <map>
#include <array>
#include <functional>

namespace pt {

namespace {

using Config = std::optional<QuantizationConfig>;
using Filter = X86InductorQuantizer::PatternFilter;
using X86Annotation = X86InductorQuantizationAnnotation;

// ---- operator sets ----------------------------------------------------------------------------------
// int8_in_int8_out_ops, default_quantizable_ops and quantizable_ops are group::x86_* (graph/targets.h).

// ---- pattern elements -----------------------------------------------------------------------------------
// torchao finds the conv / linear patterns with find_sequential_partitions and get_source_partitions
// (torchao quantization/pt2e/graph_utils.py; torch torch/fx/passes/utils/source_matcher_utils.py) over
// module and function types. A graph from torch 2.14's torch.export.export, non-strict by default as ours
// are, carries no source_fn_stack, so get_source_partitions places a call_function node by the string its
// torch_fn records when torchao lists that string (only operator.add's "add" / "add_" in _EQUIVALENT_TYPES),
// and otherwise by the class of its innermost nn_module_stack frame. A function type (F.relu, torch.relu,
// F.conv2d, F.linear) therefore never matches: a relu written F.relu(x) joins no pattern, one computed
// by an nn.ReLU module does (docs/algorithms.md, X86InductorQuantizer). An element is a module class
// (nullptr: any node) and the targets its node may have (empty: any); every module of our export is
// called once, so each partition is one node.
struct SourceType {
  const char* module_class = nullptr;
  TargetGroup targets = {};
};

bool from_source(const Node* n, const SourceType& t) {
  if (n->op != OpKind::call_function) return false;
  if (t.module_class && (n->meta.nn_module_stack.empty() || n->meta.nn_module_stack.back().type != t.module_class))
    return false;
  return t.targets.empty() || is_call(n, t.targets);
}

namespace nn_type {
constexpr std::array conv2d_target = {target::conv2d};
constexpr std::array conv1d_target = {target::conv1d};
constexpr std::array linear_target = {target::linear};
// The module types of torchao's patterns; the conv / linear patterns then keep only aten.conv2d
// (conv1d) / aten.linear nodes, as torchao's annotators skip or reject the others.
constexpr SourceType conv2d{module_class::conv2d, conv2d_target};
constexpr SourceType conv1d{module_class::conv1d, conv1d_target};
constexpr SourceType linear{module_class::linear, linear_target};
constexpr SourceType batch_norm2d{module_class::batch_norm2d};
constexpr SourceType relu{module_class::relu};
constexpr SourceType hardtanh{module_class::hardtanh};
constexpr SourceType hardswish{module_class::hardswish};
constexpr SourceType relu6{module_class::relu6};
constexpr SourceType silu{module_class::silu};
constexpr SourceType leaky_relu{module_class::leaky_relu};
constexpr SourceType tanh{module_class::tanh};
constexpr SourceType gelu{module_class::gelu};
// operator.add: the torch_fn of `a + b`, torch.add and `+=` names "add" / "add_" (pytorch
// test/export/test_export.py test_torch_fn), and every aten.add node our export emits comes from one of them.
constexpr SourceType add{nullptr, group::add};
}  // namespace nn_type

// ---- annotations ------------------------------------------------------------------------------------

const X86Annotation* x86_annotation(const Node* n) {
  return dynamic_cast<const X86Annotation*>(n->meta.quantization_annotation.get());
}

// node.meta[KEY] = _X86InductorQuantizationAnnotation(input_qspec_map, output_qspec, _annotated=True, flag)
void set_x86(Node* n, InputQSpecMap inputs, bool is_output_of_quantized_pattern, OptionalQSpec output = std::nullopt) {
  set_annotation<X86Annotation>(n, std::move(inputs), std::move(output))._is_output_of_quantized_pattern =
      is_output_of_quantized_pattern;
}

// A None config: annotated, no specs, so later stages leave the nodes alone.
void annotate_nodes_not_quantize(const std::vector<Node*>& nodes) {
  for (Node* n : nodes) set_x86(n, {}, false);
}

// Skip when a node is already annotated or the filter rejects the pattern.
bool skip_annotate(const std::vector<Node*>& nodes, const Filter& filter) {
  if (is_annotated(nodes)) return true;
  return !(filter && filter(nodes));
}

OptionalQSpec input_act(const Config& c) { return as_qspec(get_input_act_qspec(c)); }
OptionalQSpec output_act(const Config& c) { return as_qspec(get_output_act_qspec(c)); }

// Inputs of a conv / linear: activation, weight and a bias node when present; the node is flagged as the
// output of a quantized pattern when it is the last node of its pattern.
void annotate_weighted_node(Node* node, bool annotate_output, const Config& config) {
  if (!config) {
    annotate_nodes_not_quantize({node});
    return;
  }
  Node* act = arg_node(node, 0);
  Node* weight = arg_node(node, 1);
  if (!act || !weight) throw ValueError("X86InductorQuantizer: node " + node->name + " has no input / weight node");
  InputQSpecMap inputs{{act, input_act(config)}, {weight, as_qspec(get_weight_qspec(config))}};
  if (Node* bias = arg_node(node, 2)) inputs.emplace_back(bias, as_qspec(get_bias_qspec(config)));
  set_x86(node, std::move(inputs), annotate_output);
}

// ---- pattern finding ----------------------------------------------------------------------------------

// find_sequential_partitions: chains n0 -> n1 -> ... of one-node partitions of the given types, where each
// node uses the previous one.
std::vector<std::vector<Node*>> find_sequential(const GraphModule& gm, const std::vector<SourceType>& types) {
  std::vector<std::vector<Node*>> out;
  std::function<void(std::vector<Node*>&)> extend = [&](std::vector<Node*>& chain) {
    if (chain.size() == types.size()) {
      out.push_back(chain);
      return;
    }
    for (Node* u : chain.back()->users())
      if (from_source(u, types[chain.size()]) && std::find(chain.begin(), chain.end(), u) == chain.end()) {
        chain.push_back(u);
        extend(chain);
        chain.pop_back();
      }
  };
  for (Node* n : gm.graph.nodes())
    if (from_source(n, types[0])) {
      std::vector<Node*> chain{n};
      extend(chain);
    }
  return out;
}

// The non-pattern operand of a binary node whose other operand is `producer`; nullptr if neither is.
Node* extra_binary_input(const Node* producer, const Node* binary) {
  if (arg_node(binary, 0) == producer) return arg_node(binary, 1);
  if (arg_node(binary, 1) == producer) return arg_node(binary, 0);
  return nullptr;
}

// ---- conv patterns ------------------------------------------------------------------------------------

// QAT: conv2d -> batch_norm [-> add] [-> relu] / [-> unary]; the batch norm is not folded yet.
void annotate_qat_conv_bn_binary(GraphModule& gm, const Config& config, const Filter& filter, bool with_relu) {
  std::vector<SourceType> types{nn_type::conv2d, nn_type::batch_norm2d, nn_type::add};
  if (with_relu) types.push_back(nn_type::relu);
  for (const auto& m : find_sequential(gm, types)) {
    Node *conv = m[0], *bn = m[1], *add = m[2], *relu = with_relu ? m[3] : nullptr;
    if (bn->users().size() != 1) continue;
    Node* extra = extra_binary_input(bn, add);
    if (!extra) continue;
    std::vector<Node*> nodes{add, bn, conv};
    if (relu) nodes.insert(nodes.begin(), relu);
    if (skip_annotate(nodes, filter)) continue;
    annotate_weighted_node(conv, false, config);
    if (!config) {
      annotate_nodes_not_quantize(relu ? std::vector<Node*>{add, relu} : std::vector<Node*>{add});
    } else if (relu) {
      set_x86(add, {{extra, input_act(config)}}, false);
      set_x86(relu, {}, true, output_act(config));
    } else {
      set_x86(add, {{extra, input_act(config)}}, true, output_act(config));
    }
    mark_nodes_as_annotated<X86Annotation>(m);
  }
}

void annotate_qat_conv_bn_tail(GraphModule& gm, const Config& config, const Filter& filter,
                               const std::vector<SourceType>& types) {
  for (const auto& m : find_sequential(gm, types)) {
    Node* conv = m.front();
    Node* last = m.back();
    std::vector<Node*> nodes(m.rbegin(), m.rend());
    if (skip_annotate(nodes, filter)) continue;
    annotate_weighted_node(conv, false, config);
    if (config)
      set_x86(last, {}, true, output_act(config));
    else
      annotate_nodes_not_quantize({last});
    mark_nodes_as_annotated<X86Annotation>(m);
  }
}

void annotate_qat_conv2d_fusion_pattern(GraphModule& gm, const Config& config, const Filter& filter) {
  annotate_qat_conv_bn_binary(gm, config, filter, true);
  annotate_qat_conv_bn_binary(gm, config, filter, false);
  for (const SourceType& unary : {nn_type::relu, nn_type::hardtanh, nn_type::hardswish, nn_type::relu6, nn_type::silu})
    annotate_qat_conv_bn_tail(gm, config, filter, {nn_type::conv2d, nn_type::batch_norm2d, unary});
  annotate_qat_conv_bn_tail(gm, config, filter, {nn_type::conv2d, nn_type::batch_norm2d});
}

// conv / linear -> add [-> relu] (torchao _annotate_conv2d_binary_unary / _annotate_conv2d_binary and their
// linear twins): the weighted op's only user is the add; the add's other operand is observed for conv only
// (torchao leaves the linear one unobserved, for accuracy).
void annotate_weighted_binary(GraphModule& gm, const Config& config, const Filter& filter, const SourceType& weighted,
                              bool observe_extra, bool with_relu) {
  std::vector<SourceType> types{weighted, nn_type::add};
  if (with_relu) types.push_back(nn_type::relu);
  for (const auto& m : find_sequential(gm, types)) {
    Node *op = m[0], *add = m[1], *relu = with_relu ? m[2] : nullptr;
    if (op->users().size() != 1) continue;
    Node* extra = extra_binary_input(op, add);
    if (!extra) continue;
    std::vector<Node*> nodes{add, op};
    if (relu) nodes.insert(nodes.begin(), relu);
    if (skip_annotate(nodes, filter)) continue;
    if (!config) {
      annotate_nodes_not_quantize(nodes);
      continue;
    }
    annotate_weighted_node(op, false, config);
    if (observe_extra) set_x86(add, {{extra, input_act(config)}}, !relu);
    else set_x86(add, {}, !relu);
    if (relu) set_x86(relu, {}, true);
  }
}

// conv / linear -> unary: all (weighted op, unary) matches of the pairs in order, then each annotated
// (_annotate_conv2d_unary, _annotate_linear_unary).
void annotate_weighted_unary(GraphModule& gm, const Config& config, const Filter& filter,
                             const std::vector<std::pair<SourceType, SourceType>>& patterns) {
  std::vector<std::vector<Node*>> matches;
  for (const auto& [op_type, unary_type] : patterns)
    for (auto& m : find_sequential(gm, {op_type, unary_type})) matches.push_back(std::move(m));
  for (const auto& m : matches) {
    Node *op = m[0], *unary = m[1];
    if (skip_annotate({unary, op}, filter)) continue;
    if (!config) {
      annotate_nodes_not_quantize({op, unary});
      continue;
    }
    annotate_weighted_node(op, false, config);
    set_x86(unary, {}, true);
  }
}

void annotate_conv2d_unary(GraphModule& gm, const Config& config, const Filter& filter) {
  annotate_weighted_unary(gm, config, filter,
                          {{nn_type::conv2d, nn_type::relu},
                           {nn_type::conv2d, nn_type::hardtanh},
                           {nn_type::conv2d, nn_type::hardswish},
                           {nn_type::conv2d, nn_type::relu6},
                           {nn_type::conv2d, nn_type::silu},
                           {nn_type::conv1d, nn_type::relu}});
}

// _annotate_conv2d / _annotate_linear: every node of a Conv2d / Linear partition not yet claimed.
void annotate_single_weighted(GraphModule& gm, const Config& config, const Filter& filter, const SourceType& type) {
  for (Node* n : gm.graph.nodes())
    if (from_source(n, type) && !skip_annotate({n}, filter)) annotate_weighted_node(n, true, config);
}

void annotate_conv2d_fusion_pattern(GraphModule& gm, const Config& config, const Filter& filter) {
  if (!config || config->is_qat) annotate_qat_conv2d_fusion_pattern(gm, config, filter);
  annotate_weighted_binary(gm, config, filter, nn_type::conv2d, /*observe_extra=*/true, true);
  annotate_weighted_binary(gm, config, filter, nn_type::conv2d, /*observe_extra=*/true, false);
  annotate_conv2d_unary(gm, config, filter);
  annotate_single_weighted(gm, config, filter, nn_type::conv2d);
}

// ---- linear patterns ----------------------------------------------------------------------------------

void annotate_linear_unary(GraphModule& gm, const Config& config, const Filter& filter) {
  annotate_weighted_unary(gm, config, filter,
                          {{nn_type::linear, nn_type::relu},
                           {nn_type::linear, nn_type::leaky_relu},
                           {nn_type::linear, nn_type::tanh},
                           {nn_type::linear, nn_type::gelu}});
}

void annotate_linear_fusion_pattern(GraphModule& gm, const Config& config, const Filter& filter) {
  annotate_weighted_binary(gm, config, filter, nn_type::linear, /*observe_extra=*/false, true);
  annotate_weighted_binary(gm, config, filter, nn_type::linear, /*observe_extra=*/false, false);
  annotate_linear_unary(gm, config, filter);
  annotate_single_weighted(gm, config, filter, nn_type::linear);
}

// ---- matmul / mul ---------------------------------------------------------------------------------------

void annotate_all_inputs(Node* n, const Config& config) {
  InputQSpecMap inputs;
  for (Node* in : n->all_input_nodes()) inputs.emplace_back(in, input_act(config));
  set_x86(n, std::move(inputs), true);
}

void annotate_matmul(GraphModule& gm, const Config& config, const Filter& filter) {
  for (Node* n : gm.graph.nodes()) {
    if (!is_call(n, target::matmul) || skip_annotate({n}, filter)) continue;
    if (!config)
      annotate_nodes_not_quantize({n});
    else
      annotate_all_inputs(n, config);
  }
}

// mul of two tensors of one shape.
void annotate_mul_tensor(GraphModule& gm, const Config& config, const Filter& filter) {
  for (Node* n : gm.graph.nodes()) {
    if (!is_call(n, target::mul) || skip_annotate({n}, filter)) continue;
    if (!config) {
      annotate_nodes_not_quantize({n});
      continue;
    }
    const Node* a = arg_node(n, 0);
    const Node* b = arg_node(n, 1);
    if (!a || !b || !a->meta.val || !b->meta.val || a->meta.val->shape != b->meta.val->shape) continue;
    annotate_all_inputs(n, config);
  }
}

// ---- propagation -----------------------------------------------------------------------------------------

bool all_quantized(const std::vector<Node*>& nodes) {
  return std::all_of(nodes.begin(), nodes.end(), [](const Node* n) { return is_output_of_quantized_pattern(n); });
}

void annotate_cat(Node* cat, const Config& config) {
  const std::vector<Node*> inputs = cat->all_input_nodes();
  Node* first = inputs.front();
  InputQSpecMap map{{first, input_act(config)}};
  const OptionalQSpec share = QuantizationSpecBase(SharedQuantizationSpec{EdgeOrNode::edge(first, cat)});
  for (size_t i = 1; i < inputs.size(); ++i) map.emplace_back(inputs[i], share);
  set_x86(cat, std::move(map), true);
}

// One node of the propagation pass; `warn` receives torchao's warnings.
void annotate_propagation_node(Node* node, const Config& config, const Filter& filter,
                               std::vector<std::string>& warnings) {
  if (!is_call(node, group::x86_int8_in_int8_out) || is_annotated({node})) return;
  if (skip_annotate({node}, filter)) return;
  if (!config) {
    annotate_nodes_not_quantize({node});
    return;
  }
  const std::vector<Node*> inputs = node->all_input_nodes();
  if (inputs.empty()) return;
  if (is_call(node, target::cat)) {
    if (all_quantized(inputs)) annotate_cat(node, config);
    return;
  }
  if (is_call(node, target::flatten) && !node->users().empty() &&
      std::none_of(node->users().begin(), node->users().end(),
                   [](const Node* u) { return is_call(u, group::x86_quantizable); }))
    return;
  if (!all_quantized({inputs[0]})) {
    if (is_call(node, target::max_pool2d))
      warnings.push_back("The input of maxpool2d is not quantized, skip annotate maxpool2d (node " + node->name + ")");
    return;
  }
  // max_pool2d observes args[0]; the others their first input node (the same node here).
  set_x86(node, {{inputs[0], input_act(config)}}, true);
}

// After all configs: an annotated int8-in-int8-out op that is a quantized output shares its input's
// observer on its output.
void annotate_output_for_int8_in_int8_out(GraphModule& gm) {
  for (Node* node : gm.graph.nodes()) {
    if (!is_call(node, group::x86_int8_in_int8_out) || !is_annotated({node})) continue;
    if (!is_output_of_quantized_pattern(node)) continue;
    Node* input = node->all_input_nodes()[0];
    get_annotation(node)->output_qspec = QuantizationSpecBase(SharedQuantizationSpec{EdgeOrNode::edge(input, node)});
  }
}

// ---- filters ----------------------------------------------------------------------------------------------

Filter module_name_filter(const std::string& name) {
  NodeFilter f = get_module_name_filter(name);
  return [f](const std::vector<Node*>& nodes) { return std::all_of(nodes.begin(), nodes.end(), f); };
}

// Exactly one node of `nodes` satisfies `pred`; more than one is NotImplementedError (torchao).
bool exactly_one(const std::vector<Node*>& nodes, const std::function<bool(const Node*)>& pred, const std::string& what) {
  const auto count = std::count_if(nodes.begin(), nodes.end(), pred);
  if (count > 1) throw NotImplementedError("Several nodes within a single pattern are " + what + ".");
  return count == 1;
}

Filter operator_type_filter(const std::string& op) {
  return [op](const std::vector<Node*>& nodes) {
    return exactly_one(nodes, [&](const Node* n) { return n->target == op; }, op);
  };
}

bool global_config_filter(const std::vector<Node*>& nodes) {
  return exactly_one(nodes, [](const Node* n) { return is_call(n, group::x86_default_quantizable); },
                     "default quantizable operations");
}

// ---- module / function types ----------------------------------------------------------------------------

std::string normalize_type_name(const std::string& name) {
  auto starts = [&](const std::string& p) { return name.rfind(p, 0) == 0; };
  if (starts("F.")) return "torch.nn.functional." + name.substr(2);
  if (starts("nn.")) return "torch." + name;
  if (starts("torch.nn.modules.")) return "torch.nn." + name.substr(name.rfind('.') + 1);
  return name;
}

const std::map<std::string, std::string>& module_function_to_aten_operator_type() {
  static const std::map<std::string, std::string> table{
      {"torch.nn.Conv2d", target::conv2d},
      {"torch.nn.functional.conv1d", target::conv1d},
      {"torch.nn.functional.conv2d", target::conv2d},
      {"torch.nn.Linear", target::linear},
      {"torch.nn.functional.linear", target::linear},
      {"torch.nn.MaxPool2d", target::max_pool2d},
      {"torch.nn.functional.max_pool2d", target::max_pool2d},
      {"torch.cat", target::cat},
      {"torch.nn.AvgPool2d", target::avg_pool2d},
      {"torch.nn.functional.avg_pool2d", target::avg_pool2d},
      {"torch.nn.AdaptiveAvgPool2d", target::adaptive_avg_pool2d},
      {"torch.nn.functional.adaptive_avg_pool2d", target::adaptive_avg_pool2d},
      {"torch.flatten", target::flatten},
      {"torch.matmul", target::matmul},
      {"torch.mul", target::mul},
  };
  return table;
}

QuantizationSpec act_spec(const std::string& ctr, ObserverArgs kwargs, bool reduce_range, bool is_dynamic) {
  return QuantizationSpec{DType::UInt8, {ctr, kwargs}, 0, reduce_range ? 127 : 255, QScheme::per_tensor_affine,
                          std::nullopt, is_dynamic};
}

}  // namespace

// ---- public -----------------------------------------------------------------------------------------------

QuantizationConfig get_default_x86_inductor_quantization_config(bool is_qat, bool is_dynamic, bool reduce_range) {
  ObserverArgs act_kwargs;
  act_kwargs.eps = 0x1p-12f;
  std::string act_ctr = is_dynamic ? "PlaceholderObserver" : "HistogramObserver";
  if (is_qat) {
    act_ctr = is_dynamic ? "FakeQuantize" : "FusedMovingAvgObsFakeQuantize";
    if (is_dynamic) {
      act_kwargs.observer = "MovingAverageMinMaxObserver";  // .with_args(averaging_constant=1)
      act_kwargs.averaging_constant = 1.0;
    }
  }
  ObserverArgs w_kwargs;
  w_kwargs.eps = 0x1p-12f;
  if (is_qat) w_kwargs.observer = "MovingAveragePerChannelMinMaxObserver";
  const QuantizationSpec act = act_spec(act_ctr, act_kwargs, reduce_range, is_dynamic);
  const QuantizationSpec weight{DType::Int8,
                                {is_qat ? "FusedMovingAvgObsFakeQuantize" : "PerChannelMinMaxObserver", w_kwargs},
                                -128,
                                127,
                                QScheme::per_channel_symmetric,
                                0,
                                false};
  return QuantizationConfig{act, act, weight, std::nullopt, is_qat};
}

std::shared_ptr<const NodeAnnotation> X86InductorQuantizationAnnotation::with_nodes_remapped(
    const std::function<Node*(const Node*)>& map) const {
  auto base = QuantizationAnnotation::with_nodes_remapped(map);
  auto copy = std::make_shared<X86InductorQuantizationAnnotation>();
  static_cast<QuantizationAnnotation&>(*copy) = dynamic_cast<const QuantizationAnnotation&>(*base);
  copy->_is_output_of_quantized_pattern = _is_output_of_quantized_pattern;
  return copy;
}

bool is_output_of_quantized_pattern(const Node* node) {
  const X86InductorQuantizationAnnotation* a = x86_annotation(node);
  return a && a->_annotated && a->_is_output_of_quantized_pattern;
}

// Mixed QAT / non-QAT or static / dynamic configs are not supported: such a config is skipped.
bool X86InductorQuantizer::need_skip_config(const std::optional<QuantizationConfig>& config) {
  if (!config) return false;
  std::optional<bool> qat_state, dynamic_state;
  auto record = [&](const std::optional<QuantizationConfig>& c) {
    if (!c) return;
    if (!qat_state) qat_state = c->is_qat;
    if (c->input_activation && !dynamic_state) dynamic_state = c->input_activation->is_dynamic;
  };
  for (const auto& [name, c] : module_name_qconfig_) record(c);
  for (const auto& [op, c] : operator_type_qconfig_) record(c);
  record(global_config_);
  bool skip = false;
  if (qat_state && *qat_state != config->is_qat) {
    warnings_.push_back("Mixed QAT and Non-QAT quantization config is not supported.");
    skip = true;
  }
  if (dynamic_state && config->input_activation && *dynamic_state != config->input_activation->is_dynamic) {
    warnings_.push_back("Mixed dynamic and static quantization config is not supported.");
    skip = true;
  }
  return skip;
}

X86InductorQuantizer& X86InductorQuantizer::set_global(std::optional<QuantizationConfig> config) {
  if (need_skip_config(config)) {
    warnings_.push_back("Skip the global quantization config.");
    return *this;
  }
  global_config_ = std::move(config);
  return *this;
}

X86InductorQuantizer& X86InductorQuantizer::set_module_name_qconfig(const std::string& module_name,
                                                                    std::optional<QuantizationConfig> config) {
  if (need_skip_config(config)) {
    warnings_.push_back("Skip the quantization config for " + module_name + ".");
    return *this;
  }
  set_dict_entry(module_name_qconfig_, module_name, std::move(config));
  return *this;
}

X86InductorQuantizer& X86InductorQuantizer::set_mapped_operator_qconfig(const std::string& kind,
                                                                        const std::string& name,
                                                                        std::optional<QuantizationConfig> config) {
  if (need_skip_config(config)) {
    warnings_.push_back("Skip the quantization config for " + name + ".");
    return *this;
  }
  const auto& table = module_function_to_aten_operator_type();
  auto it = table.find(normalize_type_name(name));
  if (it == table.end()) {
    warnings_.push_back(kind + ": Unable to customize quantization config for " + name + " by X86InductorQuantizer.");
    return *this;
  }
  set_dict_entry(operator_type_qconfig_, it->second, std::move(config));
  return *this;
}

X86InductorQuantizer& X86InductorQuantizer::set_module_type_qconfig(const std::string& module_type,
                                                                    std::optional<QuantizationConfig> config) {
  return set_mapped_operator_qconfig("Module", module_type, std::move(config));
}

X86InductorQuantizer& X86InductorQuantizer::set_function_type_qconfig(const std::string& function_type,
                                                                      std::optional<QuantizationConfig> config) {
  return set_mapped_operator_qconfig("function", function_type, std::move(config));
}

void X86InductorQuantizer::annotate_with_config(GraphModule& gm, const std::optional<QuantizationConfig>& config,
                                                const PatternFilter& filter) {
  annotate_conv2d_fusion_pattern(gm, config, filter);
  annotate_linear_fusion_pattern(gm, config, filter);
  annotate_matmul(gm, config, filter);
  annotate_mul_tensor(gm, config, filter);
  for (Node* node : gm.graph.nodes()) annotate_propagation_node(node, config, filter, warnings_);
}

void X86InductorQuantizer::annotate(GraphModule& gm) {
  for (const auto& [name, config] : module_name_qconfig_) annotate_with_config(gm, config, module_name_filter(name));
  for (const auto& [op, config] : operator_type_qconfig_) annotate_with_config(gm, config, operator_type_filter(op));
  if (global_config_) annotate_with_config(gm, global_config_, global_config_filter);
  annotate_output_for_int8_in_int8_out(gm);
}

// ---- registration (pt2e/quantizer_registry.h): pt.X86InductorQuantizer and
// pt.get_default_x86_inductor_quantization_config ----

namespace {
// The config function's keyword arguments (torchao: is_qat=False, is_dynamic=False, reduce_range=False).
struct X86ConfigOptions {
  bool is_qat = false;
  bool is_dynamic = false;
  bool reduce_range = false;
};

[[maybe_unused]] const bool registered = [] {
  using Q = X86InductorQuantizer;
  register_quantizer(quantizer_class_of<Q>(
      "X86InductorQuantizer", "",
      {setter("set_global", {"quantization_config"}, &Q::set_global),
       setter("set_module_name_qconfig", {"module_name", "quantization_config"}, &Q::set_module_name_qconfig),
       setter("set_module_type_qconfig", {"module_type", "quantization_config"}, &Q::set_module_type_qconfig),
       setter("set_function_type_qconfig", {"function_type", "quantization_config"}, &Q::set_function_type_qconfig)}));
  using O = X86ConfigOptions;
  register_config_function(config_function<O>(
      "get_default_x86_inductor_quantization_config", "",
      {option("is_qat", &O::is_qat), option("is_dynamic", &O::is_dynamic), option("reduce_range", &O::reduce_range)},
      [](const O& o) { return get_default_x86_inductor_quantization_config(o.is_qat, o.is_dynamic, o.reduce_range); }));
  return true;
}();
}  // namespace

}  // namespace pt
