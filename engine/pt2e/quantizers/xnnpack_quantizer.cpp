// xnnpack_quantizer.cpp — the torchao testing XNNPACKQuantizer: config, annotators, driver (see header).
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "pt2e/quantizer_registry.h"

#include <algorithm>
#include <cmath>
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

bool is_call(const Node* n, std::initializer_list<const char*> targets) {
  if (!n || n->op != OpKind::call_function) return false;
  return std::any_of(targets.begin(), targets.end(), [n](const char* t) { return n->target == t; });
}

bool is_relu(const Node* n) { return is_call(n, {"aten.relu.default", "aten.relu_.default"}); }
bool is_linear(const Node* n) { return is_call(n, {"aten.linear.default"}); }
bool is_conv(const Node* n) {  // torchao pt2e utils _is_conv_node
  return is_call(n, {"aten.conv1d.default", "aten.conv2d.default", "aten.conv3d.default", "aten.conv1d.padding",
                     "aten.conv2d.padding", "aten.conv3d.padding"});
}
bool is_conv_transpose(const Node* n) {
  return is_call(n, {"aten.conv_transpose1d.default", "aten.conv_transpose2d.input", "aten.conv_transpose3d.input"});
}

Node* arg_node(const Node* n, size_t i) { return i < n->args().size() ? n->args()[i].node() : nullptr; }

bool filtered_out(const NodeFilter& filter, const std::vector<Node*>& nodes) {
  return filter && std::any_of(nodes.begin(), nodes.end(), [&](const Node* n) { return !filter(n); });
}

// Replaces the node's annotation object, as assigning node.meta["quantization_annotation"] does.
void set_annotation(Node* n, QuantizationAnnotation a) {
  a._annotated = true;
  n->meta.quantization_annotation = std::make_shared<QuantizationAnnotation>(std::move(a));
}

QuantizationAnnotation output_only(OptionalQSpec spec) {
  QuantizationAnnotation a;
  a.output_qspec = std::move(spec);
  return a;
}

// {act, weight, bias (when a Node)} of a conv / linear node, and the partition [extra..., op, weight, bias].
struct WeightedOp {
  QuantizationAnnotation inputs;
  std::vector<Node*> partition;
};
WeightedOp weighted_op_inputs(Node* op, const std::optional<QuantizationConfig>& config, std::vector<Node*> partition) {
  WeightedOp w;
  Node* act = arg_node(op, 0);
  Node* weight = arg_node(op, 1);
  if (!act || !weight) throw TypeError("node " + op->name + ": input and weight must be nodes");
  w.inputs.set_input_qspec(act, as_qspec(get_input_act_qspec(config)));
  w.inputs.set_input_qspec(weight, as_qspec(get_weight_qspec(config)));
  partition.push_back(op);
  partition.push_back(weight);
  if (Node* bias = arg_node(op, 2)) {
    w.inputs.set_input_qspec(bias, as_qspec(get_bias_qspec(config)));
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
    if (!is_linear(n) || (filter && !filter(n)) || is_annotated({n})) continue;
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
                      bool (*is_op)(const Node*)) {
  for (Node* relu : gm.graph.nodes()) {
    if (!is_relu(relu)) continue;
    Node* op = arg_node(relu, 0);
    if (!is_op(op) || op->users().size() > 1) continue;
    WeightedOp w = weighted_op_inputs(op, config, {relu});
    if (is_annotated(w.partition) || filtered_out(filter, w.partition)) continue;
    set_annotation(op, std::move(w.inputs));
    set_annotation(relu, output_only(as_qspec(get_output_act_qspec(config))));
    mark_nodes_as_annotated(w.partition);
  }
}

void annotate_conv(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter) {
  for (Node* n : gm.graph.nodes()) {
    if (!is_call(n, {"aten.conv1d.default", "aten.conv2d.default"})) continue;
    WeightedOp w = weighted_op_inputs(n, config, {});
    if (is_annotated(w.partition) || filtered_out(filter, w.partition)) continue;
    w.inputs.output_qspec = as_qspec(get_output_act_qspec(config));
    set_annotation(n, std::move(w.inputs));
    mark_nodes_as_annotated(w.partition);
  }
}

// QAT: conv(x, w, b) -> batch_norm (training flag ignored, as the pattern matcher ignores literals)
// [-> relu]; the pattern's inner nodes may have no other users. The pattern's bias placeholder also
// matches a None bias (torch's matcher lets a placeholder match a literal).
void annotate_conv_bn(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter,
                      bool has_relu, bool transpose) {
  for (Node* conv : gm.graph.nodes()) {
    const bool kind = transpose ? is_call(conv, {"aten.conv_transpose1d.default", "aten.conv_transpose2d.input"})
                                : is_call(conv, {"aten.conv1d.default", "aten.conv2d.default"});
    if (!kind || conv->users().size() != 1) continue;
    Node* bn = conv->users()[0];
    if (!is_call(bn, {"aten.batch_norm.default"}) || arg_node(bn, 0) != conv) continue;
    Node* output = bn;
    if (has_relu) {
      if (bn->users().size() != 1 || !is_relu(bn->users()[0])) continue;
      output = bn->users()[0];
    }
    WeightedOp w = weighted_op_inputs(conv, config, {});
    if (is_annotated(w.partition) || filtered_out(filter, w.partition)) continue;
    set_annotation(conv, std::move(w.inputs));
    set_annotation(output, output_only(as_qspec(get_output_act_qspec(config))));
    mark_nodes_as_annotated(w.partition);
  }
}

bool is_input_large_scalar(const GraphModule& gm, const Node* n) {
  if (n->op != OpKind::get_attr) return false;
  const Tensor& t = gm.get_tensor(n->target);
  return t.numel() == 1 && t.dtype() == DType::Float32 && std::abs(t.item()) > 3.4028235e15f;
}

bool is_input_non_float_tensor(const Node* n) { return !n->meta.val || n->meta.val->dtype != DType::Float32; }

// add / add_relu / mul / mul_relu. Returns false when an operand rules the pattern out.
bool binary_inputs(const GraphModule& gm, Node* op, const OptionalQSpec& act, QuantizationAnnotation& a) {
  for (size_t i = 0; i < 2; ++i) {
    Node* in = arg_node(op, i);
    if (!in) continue;
    if (is_input_large_scalar(gm, in) || is_input_non_float_tensor(in)) return false;
    a.set_input_qspec(in, act);
  }
  return true;
}

void annotate_binary(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter,
                     std::initializer_list<const char*> targets, bool with_relu) {
  for (Node* n : gm.graph.nodes()) {
    Node* op = with_relu ? (is_relu(n) ? arg_node(n, 0) : nullptr) : n;
    if (!is_call(op, targets)) continue;
    if (with_relu && op->users().size() > 1) continue;
    std::vector<Node*> partition = with_relu ? std::vector<Node*>{n, op} : std::vector<Node*>{op};
    if (is_annotated(partition) || filtered_out(filter, partition)) continue;
    QuantizationAnnotation a;
    if (!binary_inputs(gm, op, as_qspec(get_input_act_qspec(config)), a)) continue;
    const OptionalQSpec out = as_qspec(get_output_act_qspec(config));
    if (with_relu) {
      set_annotation(op, std::move(a));
      set_annotation(n, output_only(out));
    } else {
      a.output_qspec = out;
      set_annotation(op, std::move(a));
    }
  }
}

// cat, adaptive_avg_pool2d and gru_io_only look their nodes up with get_source_partitions, i.e. by
// node.meta["source_fn_stack"]; graphs from torch 2.14 export (and ours) have none, so these find
// no partition and write nothing (pt2e-spec.md §6.4).
void annotate_by_source_partitions(GraphModule&, const std::optional<QuantizationConfig>&, const NodeFilter&) {}

const std::map<std::string, xnnpack::AnnotatorType>& annotators() {
  using C = const std::optional<QuantizationConfig>&;
  using F = const NodeFilter&;
  static const std::map<std::string, xnnpack::AnnotatorType> m = {
      {"linear", annotate_linear},
      {"linear_relu", [](GraphModule& g, C c, F f) { annotate_op_relu(g, c, f, is_linear); }},
      {"conv", annotate_conv},
      {"conv_relu", [](GraphModule& g, C c, F f) { annotate_op_relu(g, c, f, is_conv); }},
      {"conv_transpose_relu", [](GraphModule& g, C c, F f) { annotate_op_relu(g, c, f, is_conv_transpose); }},
      {"conv_bn", [](GraphModule& g, C c, F f) { annotate_conv_bn(g, c, f, false, false); }},
      {"conv_bn_relu", [](GraphModule& g, C c, F f) { annotate_conv_bn(g, c, f, true, false); }},
      {"conv_transpose_bn", [](GraphModule& g, C c, F f) { annotate_conv_bn(g, c, f, false, true); }},
      {"conv_transpose_bn_relu", [](GraphModule& g, C c, F f) { annotate_conv_bn(g, c, f, true, true); }},
      {"adaptive_avg_pool2d", annotate_by_source_partitions},
      {"gru_io_only", annotate_by_source_partitions},
      {"cat", annotate_by_source_partitions},
      {"add", [](GraphModule& g, C c, F f) { annotate_binary(g, c, f, {"aten.add.Tensor", "aten.add_.Tensor"}, false); }},
      {"add_relu",
       [](GraphModule& g, C c, F f) { annotate_binary(g, c, f, {"aten.add.Tensor", "aten.add_.Tensor"}, true); }},
      {"mul", [](GraphModule& g, C c, F f) { annotate_binary(g, c, f, {"aten.mul.Tensor", "aten.mul_.Tensor"}, false); }},
      {"mul_relu",
       [](GraphModule& g, C c, F f) { annotate_binary(g, c, f, {"aten.mul.Tensor", "aten.mul_.Tensor"}, true); }},
  };
  return m;
}

bool is_share_obs_or_fq_op(const Node* n) {
  return is_call(n, {"aten.relu.default", "aten.hardtanh.default", "aten.hardtanh_.default", "aten.max_pool2d.default",
                     "aten.mean.default", "aten.mean.dim", "aten.permute.default", "aten.permute_copy.default",
                     "aten.squeeze.dim", "aten.squeeze_copy.dim", "aten.adaptive_avg_pool2d.default",
                     "aten.view_copy.default", "aten.view.default", "aten.slice_copy.Tensor",
                     "aten.flatten.using_ints"});
}

template <class V>
void put(std::vector<std::pair<std::string, V>>& dict, const std::string& key, const V& value) {
  for (auto& [k, v] : dict)
    if (k == key) {
      v = value;
      return;
    }
  dict.emplace_back(key, value);
}

}  // namespace

namespace xnnpack {

const AnnotatorType& op_to_annotator(const std::string& op) {
  auto it = annotators().find(op);
  if (it == annotators().end()) throw ValueError("no XNNPACK annotator named '" + op + "'");
  return it->second;
}

void propagate_annotation(GraphModule& gm) {
  for (Node* n : gm.graph.nodes()) {
    if (!is_share_obs_or_fq_op(n)) continue;
    Node* prev = arg_node(n, 0);
    if (!prev) continue;
    const QuantizationAnnotation* pa = get_annotation(prev);
    if (!pa || !pa->output_qspec) continue;
    if (const QuantizationAnnotation* a = get_annotation(n); a && a->_annotated) continue;
    const SharedQuantizationSpec shared{EdgeOrNode::output(prev)};
    QuantizationAnnotation a;
    a.set_input_qspec(prev, shared);
    a.output_qspec = shared;
    set_annotation(n, std::move(a));
  }
}

void convert_scalars_to_attrs(GraphModule& gm) {
  for (Node* n : gm.graph.nodes()) {
    if (!is_call(n, {"aten.add.Tensor", "aten.mul.Tensor"})) continue;
    std::vector<Arg> args = n->args();
    bool changed = false;
    // The operands; add's alpha is a keyword argument in torch and stays a literal here.
    for (size_t i = 0; i < std::min<size_t>(args.size(), 2); ++i) {
      const Arg& a = args[i];
      double value = 0;
      if (const auto* d = std::get_if<double>(&a.v)) value = *d;
      else if (const auto* k = std::get_if<int64_t>(&a.v)) value = static_cast<double>(*k);
      else if (const auto* b = std::get_if<bool>(&a.v)) value = *b ? 1.0 : 0.0;
      else continue;
      int k = 0;
      while (gm.has_tensor("_tensor_constant_" + std::to_string(k))) ++k;
      const std::string name = "_tensor_constant_" + std::to_string(k);
      gm.set_tensor(name, Tensor::scalar(static_cast<float>(value)), /*is_buffer=*/true);
      Node* attr = gm.graph.insert_before(n, OpKind::get_attr, name, {}, name);
      attr->meta.val = TensorMeta{{}, DType::Float32};
      args[i] = Arg(attr);
      changed = true;
    }
    if (changed) gm.graph.set_args(n, std::move(args));
  }
}

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
  put(operator_type_config, operator_type, config);
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_module_type(const std::string& module_type, const QuantizationConfig& config) {
  put(module_type_config, module_type, config);
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_module_name(const std::string& module_name,
                                                    const std::optional<QuantizationConfig>& config) {
  if (!config) throw ValueError("set_module_name: quantization_config == None is not supported yet");
  put(module_name_config, module_name, *config);
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
