// xnnpack_quantizer.cpp — the torchao testing XNNPACKQuantizer: config, annotators, driver (see header).
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "pt2e/quantizer_registry.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>

namespace pt {

// ---- config -------------------------------------------------------------------------------------

QuantizationConfig get_symmetric_quantization_config(const SymmetricQuantizationOptions& o) {
  ObserverArgs act_kwargs;
  act_kwargs.eps = 0x1p-12f;
  std::string act_ctr = o.is_dynamic ? "PlaceholderObserver" : "HistogramObserver";
  if (o.is_qat) {
    act_ctr = o.is_dynamic ? "FakeQuantize" : "FusedMovingAvgObsFakeQuantize";
    if (o.is_dynamic) {
      act_kwargs.observer = "MovingAverageMinMaxObserver";  // .with_args(averaging_constant=1)
      act_kwargs.averaging_constant = 1.0;
    }
  }
  QuantizationSpec act{DType::Int8, {act_ctr, act_kwargs}, o.act_qmin, o.act_qmax, QScheme::per_tensor_affine,
                       std::nullopt, o.is_dynamic};

  ObserverArgs w_kwargs;
  w_kwargs.eps = 0x1p-12f;
  std::string w_ctr = o.is_per_channel ? "PerChannelMinMaxObserver" : "MinMaxObserver";
  if (o.is_qat) {
    w_ctr = "FusedMovingAvgObsFakeQuantize";
    w_kwargs.observer = o.is_per_channel ? "MovingAveragePerChannelMinMaxObserver" : "MovingAverageMinMaxObserver";
  }
  QuantizationSpec weight{DType::Int8, {w_ctr, w_kwargs}, o.weight_qmin, o.weight_qmax,
                          o.is_per_channel ? QScheme::per_channel_symmetric : QScheme::per_tensor_symmetric, 0,
                          false};
  act.validate();
  weight.validate();
  QuantizationConfig config{act, act, weight, std::nullopt, o.is_qat};
  if (o.is_dynamic) config.output_activation.reset();
  return config;
}

// ---- annotator helpers --------------------------------------------------------------------------

namespace {

bool filtered_out(const NodeFilter& filter, const std::vector<Node*>& nodes) {
  return filter && std::any_of(nodes.begin(), nodes.end(), [&](const Node* n) { return !filter(n); });
}

// The convs the plain conv annotator and the conv+bn patterns match: _annotate_conv lists conv1d /
// conv2d; _do_annotate_conv_bn builds its patterns from F.conv1d / F.conv2d (F.conv_transpose1d /
// F.conv_transpose2d for the transpose variants).
constexpr std::array conv_1d_2d = {target::conv1d, target::conv2d};
constexpr std::array conv_transpose_1d_2d = {target::conv_transpose1d, target::conv_transpose2d};

// {act, weight, bias (when a Node)} of a conv / linear node, and the partition [extra..., op, weight, bias].
struct WeightedOp {
  InputQSpecMap inputs;
  std::vector<Node*> partition;
};
WeightedOp weighted_op_inputs(Node* op, const std::optional<QuantizationConfig>& config, std::vector<Node*> partition) {
  WeightedOp w;
  Node* act = arg_node(op, 0);
  Node* weight = arg_node(op, 1);
  if (!act || !weight) throw TypeError("node " + op->name + ": input and weight must be nodes");
  w.inputs = {{act, as_qspec(get_input_act_qspec(config))}, {weight, as_qspec(get_weight_qspec(config))}};
  partition.push_back(op);
  partition.push_back(weight);
  if (Node* bias = arg_node(op, 2)) {
    w.inputs.emplace_back(bias, as_qspec(get_bias_qspec(config)));
    partition.push_back(bias);
  }
  w.partition = std::move(partition);
  return w;
}

// ---- annotators ---------------------------------------------------------------------------------

void annotate_linear(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter) {
  const OptionalQSpec act = as_qspec(get_input_act_qspec(config)), out = as_qspec(get_output_act_qspec(config)),
                      weight = as_qspec(get_weight_qspec(config)), bias = as_qspec(get_bias_qspec(config));
  for (Node* n : gm.graph.nodes()) {
    if (!is_call(n, group::linear) || (filter && !filter(n)) || is_annotated({n})) continue;
    Node* weight_node = arg_node(n, 1);
    annotate_input_qspec_map(n, arg_node(n, 0), act);
    annotate_input_qspec_map(n, weight_node, weight);
    std::vector<Node*> mark = {n, weight_node};
    if (Node* bias_node = arg_node(n, 2)) {
      annotate_input_qspec_map(n, bias_node, bias);
      mark.push_back(bias_node);
    }
    annotate_output_qspec(n, out);
    mark_nodes_as_annotated(mark);
  }
}

// linear_relu / conv_relu / conv_transpose_relu: the op gets the inputs, the relu the output.
void annotate_op_relu(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter,
                      TargetGroup ops) {
  for (Node* relu : gm.graph.nodes()) {
    if (!is_call(relu, group::relu)) continue;
    Node* op = arg_node(relu, 0);
    if (!is_call(op, ops) || op->users().size() > 1) continue;
    WeightedOp w = weighted_op_inputs(op, config, {relu});
    if (is_annotated(w.partition) || filtered_out(filter, w.partition)) continue;
    set_annotation(op, std::move(w.inputs));
    set_annotation(relu, {}, as_qspec(get_output_act_qspec(config)));
    mark_nodes_as_annotated(w.partition);
  }
}

void annotate_conv(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter) {
  for (Node* n : gm.graph.nodes()) {
    if (!is_call(n, conv_1d_2d)) continue;
    WeightedOp w = weighted_op_inputs(n, config, {});
    if (is_annotated(w.partition) || filtered_out(filter, w.partition)) continue;
    set_annotation(n, std::move(w.inputs), as_qspec(get_output_act_qspec(config)));
    mark_nodes_as_annotated(w.partition);
  }
}

// QAT: conv(x, w, b) -> batch_norm (training flag ignored, as the pattern matcher ignores literals)
// [-> relu], after eliminating dead code; the pattern's inner nodes may have no other users. The pattern's bias placeholder also
// matches a None bias (torch's matcher lets a placeholder match a literal).
void annotate_conv_bn(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter,
                      bool has_relu, bool transpose) {
  // Both upstream copies (_do_annotate_conv_bn) first drop dead code from the graph being annotated:
  // an unused node on the conv (batch norm's unused outputs, in torch) would break the match.
  gm.graph.eliminate_dead_code();
  for (Node* conv : gm.graph.nodes()) {
    if (!is_call(conv, transpose ? TargetGroup(conv_transpose_1d_2d) : TargetGroup(conv_1d_2d)) ||
        conv->users().size() != 1)
      continue;
    Node* bn = conv->users()[0];
    if (!is_call(bn, target::batch_norm) || arg_node(bn, 0) != conv) continue;
    Node* output = bn;
    if (has_relu) {
      if (bn->users().size() != 1 || !is_call(bn->users()[0], group::relu)) continue;
      output = bn->users()[0];
    }
    WeightedOp w = weighted_op_inputs(conv, config, {});
    if (is_annotated(w.partition) || filtered_out(filter, w.partition)) continue;
    set_annotation(conv, std::move(w.inputs));
    set_annotation(output, {}, as_qspec(get_output_act_qspec(config)));
    mark_nodes_as_annotated(w.partition);
  }
}

// add / add_relu / mul / mul_relu: both Node operands get the input activation spec; false when an
// operand rules the pattern out (_is_input_large_scalar, _is_input_non_float_tensor).
bool binary_inputs(const GraphModule& gm, Node* op, const OptionalQSpec& act, InputQSpecMap& inputs) {
  for (size_t i = 0; i < 2; ++i) {
    Node* in = arg_node(op, i);
    if (!in) continue;
    if (is_input_large_scalar(gm, in) || is_input_non_float_tensor(in)) return false;
    inputs.emplace_back(in, act);
  }
  return true;
}

void annotate_binary(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter,
                     TargetGroup ops, bool with_relu) {
  for (Node* n : gm.graph.nodes()) {
    Node* op = with_relu ? (is_call(n, group::relu) ? arg_node(n, 0) : nullptr) : n;
    if (!is_call(op, ops)) continue;
    if (with_relu && op->users().size() > 1) continue;
    std::vector<Node*> partition = with_relu ? std::vector<Node*>{n, op} : std::vector<Node*>{op};
    if (is_annotated(partition) || filtered_out(filter, partition)) continue;
    InputQSpecMap inputs;
    if (!binary_inputs(gm, op, as_qspec(get_input_act_qspec(config)), inputs)) continue;
    const OptionalQSpec out = as_qspec(get_output_act_qspec(config));
    if (with_relu) {
      set_annotation(op, std::move(inputs));
      set_annotation(n, {}, out);
    } else {
      set_annotation(op, std::move(inputs), out);
    }
  }
}

// cat, adaptive_avg_pool2d and gru_io_only look their nodes up with get_source_partitions, i.e. by
// node.meta["source_fn_stack"]; graphs from torch 2.14 export (and ours) have none, and the fallback on
// the innermost nn_module_stack class can only find an nn.AdaptiveAvgPool2d / nn.GRU module, which no graph
// of ours has, so these find no partition and write nothing (docs/algorithms.md, Known differences, row 9).
void annotate_by_source_partitions(GraphModule&, const std::optional<QuantizationConfig>&, const NodeFilter&) {}

const std::map<std::string, xnnpack::AnnotatorType>& annotators() {
  using C = const std::optional<QuantizationConfig>&;
  using F = const NodeFilter&;
  static const std::map<std::string, xnnpack::AnnotatorType> m = {
      {"linear", annotate_linear},
      {"linear_relu", [](GraphModule& g, C c, F f) { annotate_op_relu(g, c, f, group::linear); }},
      {"conv", annotate_conv},
      {"conv_relu", [](GraphModule& g, C c, F f) { annotate_op_relu(g, c, f, group::conv); }},
      {"conv_transpose_relu", [](GraphModule& g, C c, F f) { annotate_op_relu(g, c, f, group::conv_transpose); }},
      {"conv_bn", [](GraphModule& g, C c, F f) { annotate_conv_bn(g, c, f, false, false); }},
      {"conv_bn_relu", [](GraphModule& g, C c, F f) { annotate_conv_bn(g, c, f, true, false); }},
      {"conv_transpose_bn", [](GraphModule& g, C c, F f) { annotate_conv_bn(g, c, f, false, true); }},
      {"conv_transpose_bn_relu", [](GraphModule& g, C c, F f) { annotate_conv_bn(g, c, f, true, true); }},
      {"adaptive_avg_pool2d", annotate_by_source_partitions},
      {"gru_io_only", annotate_by_source_partitions},
      {"cat", annotate_by_source_partitions},
      {"add", [](GraphModule& g, C c, F f) { annotate_binary(g, c, f, group::add, false); }},
      {"add_relu", [](GraphModule& g, C c, F f) { annotate_binary(g, c, f, group::add, true); }},
      {"mul", [](GraphModule& g, C c, F f) { annotate_binary(g, c, f, group::mul, false); }},
      {"mul_relu", [](GraphModule& g, C c, F f) { annotate_binary(g, c, f, group::mul, true); }},
  };
  return m;
}

}  // namespace

namespace xnnpack {

const AnnotatorType& op_to_annotator(const std::string& op) {
  auto it = annotators().find(op);
  if (it == annotators().end()) throw ValueError("no XNNPACK annotator named '" + op + "'");
  return it->second;
}

void propagate_annotation(GraphModule& gm) { pt::propagate_annotation(gm, group::xnnpack_share_obs_or_fq); }

}  // namespace xnnpack

// ---- the quantizer ------------------------------------------------------------------------------

const std::vector<std::string>& XNNPACKQuantizer::STATIC_QAT_ONLY_OPS() {
  static const std::vector<std::string> ops = {"conv_bn_relu", "conv_bn", "conv_transpose_bn_relu",
                                               "conv_transpose_bn"};
  return ops;
}

const std::vector<std::string>& XNNPACKQuantizer::STATIC_OPS() {
  static const std::vector<std::string> ops = {"linear_relu", "linear",   "conv_relu", "conv",
                                               "conv_transpose_relu", "adaptive_avg_pool2d", "gru_io_only",
                                               "add_relu",   "add",      "mul_relu",  "mul", "cat"};
  return ops;
}

const std::vector<std::string>& XNNPACKQuantizer::DYNAMIC_OPS() {
  static const std::vector<std::string> ops = {"linear"};
  return ops;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_global(const QuantizationConfig& config) {
  global_config = config;
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_operator_type(const std::string& operator_type,
                                                      const QuantizationConfig& config) {
  set_dict_entry(operator_type_config, operator_type, config);
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_module_type(const std::string& module_type, const QuantizationConfig& config) {
  set_dict_entry(module_type_config, module_type, config);
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_module_name(const std::string& module_name,
                                                    const std::optional<QuantizationConfig>& config) {
  if (!config) throw ValueError("set_module_name: quantization_config == None is not supported yet");
  set_dict_entry(module_name_config, module_name, *config);
  return *this;
}

void XNNPACKQuantizer::annotate_with(GraphModule& gm, const std::vector<std::string>& ops, bool static_path) {
  auto run = [&](const std::optional<QuantizationConfig>& config, const NodeFilter& filter) {
    if (!config) return;
    if (static_path && config->is_qat)
      for (const auto& op : STATIC_QAT_ONLY_OPS()) xnnpack::op_to_annotator(op)(gm, config, filter);
    for (const auto& op : ops) xnnpack::op_to_annotator(op)(gm, config, filter);
  };
  std::vector<std::string> names, types;
  for (const auto& [name, config] : module_name_config) {
    names.push_back(name);
    run(config, get_module_name_filter(name));
  }
  for (const auto& [type, config] : module_type_config) {
    types.push_back(type);
    run(config, get_module_type_filter(type));
  }
  run(global_config, get_not_module_type_or_name_filter(types, names));
}

void XNNPACKQuantizer::annotate(GraphModule& gm) {
  const bool dynamic = global_config && global_config->input_activation && global_config->input_activation->is_dynamic;
  annotate_with(gm, dynamic ? DYNAMIC_OPS() : STATIC_OPS(), !dynamic);
  xnnpack::propagate_annotation(gm);
}

// ---- registration (pt2e/quantizer_registry.h): pt.XNNPACKQuantizer, pt.get_symmetric_quantization_config ----

ConfigFunction symmetric_quantization_config_function(const std::string& ns) {
  using O = SymmetricQuantizationOptions;
  return config_function<O>("get_symmetric_quantization_config", ns,
                            {option("is_per_channel", &O::is_per_channel), option("is_qat", &O::is_qat),
                             option("is_dynamic", &O::is_dynamic), option("act_qmin", &O::act_qmin),
                             option("act_qmax", &O::act_qmax), option("weight_qmin", &O::weight_qmin),
                             option("weight_qmax", &O::weight_qmax)},
                            get_symmetric_quantization_config);
}

[[maybe_unused]] static const bool registered = [] {
  register_quantizer(quantizer_class_of<XNNPACKQuantizer>("XNNPACKQuantizer", "", xnnpack_style_setters<XNNPACKQuantizer>()));
  register_config_function(symmetric_quantization_config_function(""));
  return true;
}();

}  // namespace pt
