// executorch_xnnpack_quantizer.cpp — ExecuTorch's XNNPACKQuantizer: pattern list, annotators,
// propagation and the config stages (see executorch_xnnpack_quantizer.h).
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"
#include "pt2e/quantizer_registry.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace pt::executorch {

namespace {

using InputMap = std::vector<std::pair<Node*, OptionalQSpec>>;
using Config = std::optional<QuantizationConfig>;

// ---- node predicates -----------------------------------------------------------------------------

bool has_target(const Node* n, std::initializer_list<const char*> targets) {
  if (!n || n->op != OpKind::call_function) return false;
  return std::any_of(targets.begin(), targets.end(), [n](const char* t) { return n->target == t; });
}

bool is_relu_node(const Node* n) { return has_target(n, {"aten.relu.default", "aten.relu_.default"}); }

bool is_conv_node(const Node* n) {
  return has_target(n, {"aten.conv1d.default", "aten.conv1d.padding", "aten.conv2d.default",
                        "aten.conv2d.padding", "aten.conv3d.default", "aten.conv3d.padding"});
}

bool is_conv_transpose_node(const Node* n) {
  return has_target(n, {"aten.conv_transpose1d", "aten.conv_transpose1d.default", "aten.conv_transpose2d",
                        "aten.conv_transpose2d.input", "aten.conv_transpose3d", "aten.conv_transpose3d.input"});
}

Node* node_arg(const Node* n, size_t i) { return i < n->args().size() ? n->args()[i].node() : nullptr; }

const Shape* shape_of(const Node* n) { return n && n->meta.val ? &n->meta.val->shape : nullptr; }

bool passes(const NodeFilter& filter, const std::vector<Node*>& nodes) {
  return !filter || std::all_of(nodes.begin(), nodes.end(), [&](const Node* n) { return filter(n); });
}

// node.meta[KEY] = QuantizationAnnotation(input_qspec_map=..., output_qspec=..., _annotated=True)
void set_annotation(Node* n, InputMap inputs, OptionalQSpec output) {
  auto a = std::make_shared<QuantizationAnnotation>();
  for (auto& [in, spec] : inputs) a->set_input_qspec(in, std::move(spec));
  a->output_qspec = std::move(output);
  a->_annotated = true;
  n->meta.quantization_annotation = std::move(a);
}

OptionalQSpec shared(EdgeOrNode e) { return QuantizationSpecBase(SharedQuantizationSpec{e}); }

bool is_dynamic_config(const Config& config) {
  return config && config->input_activation && config->input_activation->is_dynamic;
}

// ---- conv helpers ----------------------------------------------------------------------------------

// Groups deduced from shapes, as ET's get_groups_from_conv (the training graph omits the argument);
// 1 when shapes are unknown.
int64_t conv_transpose_groups(const Node* conv) {
  const Shape* w = shape_of(node_arg(conv, 1));
  const Shape* out = shape_of(conv);
  if (!w || !out || w->size() < 2 || out->size() < 2 || (*w)[1] == 0) return 1;
  return (*out)[1] / (*w)[1];
}

// Weight spec of a conv; transposed convs quantize per output channel, which is axis 1.
OptionalQSpec conv_weight_qspec(const Config& config, bool transpose) {
  std::optional<QuantizationSpec> w = get_weight_qspec(config);
  if (w && transpose) w->ch_axis = 1;
  return as_qspec(w);
}

// input_qspec_map {act, weight, bias?} and the partition [conv, weight, bias?] of a conv node.
bool conv_inputs(Node* conv, const Config& config, bool transpose, InputMap& inputs, std::vector<Node*>& partition) {
  Node* act = node_arg(conv, 0);
  Node* weight = node_arg(conv, 1);
  if (!act || !weight) return false;
  inputs = {{act, as_qspec(get_input_act_qspec(config))}, {weight, conv_weight_qspec(config, transpose)}};
  partition.push_back(weight);
  if (Node* bias = node_arg(conv, 2)) {
    inputs.emplace_back(bias, as_qspec(get_bias_qspec(config)));
    partition.push_back(bias);
  }
  return true;
}

// Only 2-D, non-depthwise convs are quantized dynamically (weight [O, I/groups, kh, kw], groups = 1).
bool dynamic_conv_unsupported(const Node* conv, bool transpose) {
  const Shape* w = shape_of(node_arg(conv, 1));
  if (!w) return false;
  if (w->size() != 4) return true;
  return !transpose && (*w)[1] == 1;
}

// ---- annotators --------------------------------------------------------------------------------------

void annotate_linear(GraphModule& gm, const Config& config, const NodeFilter& filter) {
  for (Node* node : gm.graph.nodes()) {
    if (!has_target(node, {"aten.linear.default"})) continue;
    if (filter && !filter(node)) continue;
    Node* act = node_arg(node, 0);
    Node* weight = node_arg(node, 1);
    if (!act || !weight || is_annotated({node})) continue;
    annotate_input_qspec_map(node, act, as_qspec(get_input_act_qspec(config)));
    annotate_input_qspec_map(node, weight, as_qspec(get_weight_qspec(config)));
    std::vector<Node*> to_mark{node, weight};
    if (Node* bias = node_arg(node, 2)) {
      annotate_input_qspec_map(node, bias, as_qspec(get_bias_qspec(config)));
      to_mark.push_back(bias);
    }
    annotate_output_qspec(node, as_qspec(get_output_act_qspec(config)));
    mark_nodes_as_annotated(to_mark);
  }
}

void annotate_linear_relu(GraphModule& gm, const Config& config, const NodeFilter& filter) {
  for (Node* relu : gm.graph.nodes()) {
    if (!is_relu_node(relu)) continue;
    Node* linear = node_arg(relu, 0);
    if (!has_target(linear, {"aten.linear.default"}) || linear->users().size() > 1) continue;
    Node* act = node_arg(linear, 0);
    Node* weight = node_arg(linear, 1);
    if (!act || !weight) continue;
    InputMap inputs{{act, as_qspec(get_input_act_qspec(config))}, {weight, as_qspec(get_weight_qspec(config))}};
    std::vector<Node*> partition{relu, linear, weight};
    if (Node* bias = node_arg(linear, 2)) {
      inputs.emplace_back(bias, as_qspec(get_bias_qspec(config)));
      partition.push_back(bias);
    }
    if (is_annotated(partition) || !passes(filter, partition)) continue;
    set_annotation(linear, std::move(inputs), std::nullopt);
    set_annotation(relu, {}, as_qspec(get_output_act_qspec(config)));
    mark_nodes_as_annotated(partition);
  }
}

void annotate_conv_common(GraphModule& gm, const Config& config, const NodeFilter& filter, bool transpose) {
  for (Node* conv : gm.graph.nodes()) {
    if (!(transpose ? is_conv_transpose_node(conv) : is_conv_node(conv))) continue;
    // conv -> relu is left to conv_relu although this annotator runs first.
    if (conv->users().size() == 1 && is_relu_node(conv->users()[0])) continue;
    InputMap inputs;
    std::vector<Node*> partition{conv};
    if (!conv_inputs(conv, config, transpose, inputs, partition)) continue;
    bool skip = transpose && conv_transpose_groups(conv) != 1;
    if (is_dynamic_config(config)) skip = skip || dynamic_conv_unsupported(conv, transpose);
    if (is_annotated(partition) || skip || !passes(filter, partition)) continue;
    set_annotation(conv, std::move(inputs), as_qspec(get_output_act_qspec(config)));
    mark_nodes_as_annotated(partition);
  }
}

void annotate_conv(GraphModule& gm, const Config& c, const NodeFilter& f) { annotate_conv_common(gm, c, f, false); }
void annotate_conv_transpose(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_conv_common(gm, c, f, true);
}

void annotate_conv_relu_common(GraphModule& gm, const Config& config, const NodeFilter& filter, bool transpose) {
  for (Node* relu : gm.graph.nodes()) {
    if (!is_relu_node(relu)) continue;
    Node* conv = node_arg(relu, 0);
    if (!(transpose ? is_conv_transpose_node(conv) : is_conv_node(conv)) || conv->users().size() > 1) continue;
    InputMap inputs;
    std::vector<Node*> partition{relu, conv};
    if (!conv_inputs(conv, config, transpose, inputs, partition)) continue;
    if (is_annotated(partition)) continue;
    if (transpose && conv_transpose_groups(conv) != 1) continue;
    if (!passes(filter, partition)) continue;
    set_annotation(conv, std::move(inputs), std::nullopt);
    set_annotation(relu, {}, as_qspec(get_output_act_qspec(config)));
    mark_nodes_as_annotated(partition);
  }
}

void annotate_conv_relu(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_conv_relu_common(gm, c, f, false);
}
void annotate_conv_transpose_relu(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_conv_relu_common(gm, c, f, true);
}

// conv -> batch_norm [-> relu / relu_] as ET's subgraph matcher finds it (literals ignored; the conv, and
// the batch norm when a relu follows, used only inside the pattern). QAT graphs keep the batch norm.
// ET first runs dead-code elimination so that unused batch-norm outputs do not defeat its matcher;
// matching by structure needs no such pass, so the graph is left untouched.
void annotate_conv_bn_common(GraphModule& gm, const Config& config, const NodeFilter& filter, bool has_relu,
                             bool transpose) {
  for (Node* conv : gm.graph.nodes()) {
    const bool is_conv = transpose ? has_target(conv, {"aten.conv_transpose1d.default", "aten.conv_transpose2d.input"})
                                   : has_target(conv, {"aten.conv1d.default", "aten.conv2d.default"});
    if (!is_conv || conv->users().size() != 1) continue;
    Node* bn = conv->users()[0];
    if (!has_target(bn, {"aten.batch_norm.default"}) || node_arg(bn, 0) != conv) continue;
    Node* output = bn;
    if (has_relu) {
      if (bn->users().size() != 1 || !is_relu_node(bn->users()[0])) continue;
      output = bn->users()[0];
    }
    Node* act = node_arg(conv, 0);
    Node* weight = node_arg(conv, 1);
    if (!act || !weight) continue;
    std::vector<Node*> partition{conv, weight};
    InputMap inputs{{act, as_qspec(get_input_act_qspec(config))}, {weight, as_qspec(get_weight_qspec(config))}};
    if (Node* bias = node_arg(conv, 2)) {
      partition.push_back(bias);
      inputs.emplace_back(bias, as_qspec(get_bias_qspec(config)));
    }
    if (is_annotated(partition) || !passes(filter, partition)) continue;
    set_annotation(conv, std::move(inputs), std::nullopt);
    set_annotation(output, {}, as_qspec(get_output_act_qspec(config)));
    mark_nodes_as_annotated(partition);
  }
}

void annotate_conv_bn(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_conv_bn_common(gm, c, f, false, false);
}
void annotate_conv_bn_relu(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_conv_bn_common(gm, c, f, true, false);
}
void annotate_conv_transpose_bn(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_conv_bn_common(gm, c, f, false, true);
}
void annotate_conv_transpose_bn_relu(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_conv_bn_common(gm, c, f, true, true);
}

void annotate_adaptive_avg_pool2d(GraphModule& gm, const Config& config, const NodeFilter& filter) {
  for (Node* pool : gm.graph.nodes()) {
    if (!has_target(pool, {"aten.adaptive_avg_pool2d.default"})) continue;
    if (!passes(filter, {pool}) || is_annotated({pool})) continue;
    Node* act = node_arg(pool, 0);
    if (!act) continue;
    const QuantizationAnnotation* a = get_annotation(act);
    // Share the producer's output observer when it has one, else observe the input here.
    OptionalQSpec input_spec = (a && a->_annotated && a->output_qspec) ? shared(EdgeOrNode::output(act))
                                                                       : as_qspec(get_input_act_qspec(config));
    set_annotation(pool, {{act, std::move(input_spec)}}, shared(EdgeOrNode::edge(act, pool)));
  }
}

// torch.histc works only up to this magnitude, so such scalars are not observed.
constexpr double kHistcUpperBound = 3.4028235e15;

bool is_input_large_scalar(const Node* n, const GraphModule& gm) {
  if (n->op != OpKind::get_attr || !gm.has_tensor(n->target)) return false;
  const Tensor& t = gm.get_tensor(n->target);
  return t.numel() == 1 && t.dtype() == DType::Float32 && std::fabs(t.data<float>()[0]) > kHistcUpperBound;
}

bool is_input_non_float_tensor(const Node* n) { return !n->meta.val || n->meta.val->dtype != DType::Float32; }

// Both Node arguments of a binary op get the input activation spec; false if one may not be observed.
bool binary_inputs(const GraphModule& gm, const Node* op, const Config& config, InputMap& inputs,
                   std::vector<Node*>& partition) {
  for (size_t i = 0; i < 2; ++i) {
    Node* in = node_arg(op, i);
    if (!in) continue;
    if (is_input_large_scalar(in, gm) || is_input_non_float_tensor(in)) return false;
    partition.push_back(in);
    inputs.emplace_back(in, as_qspec(get_input_act_qspec(config)));
  }
  return true;
}

void annotate_binary_relu(GraphModule& gm, const Config& config, const NodeFilter& filter,
                          std::initializer_list<const char*> targets) {
  for (Node* relu : gm.graph.nodes()) {
    if (!is_relu_node(relu)) continue;
    Node* op = node_arg(relu, 0);
    if (!has_target(op, targets) || op->users().size() > 1) continue;
    std::vector<Node*> partition{relu, op};
    if (is_annotated(partition) || !passes(filter, partition)) continue;
    InputMap inputs;
    if (!binary_inputs(gm, op, config, inputs, partition)) continue;
    set_annotation(op, std::move(inputs), std::nullopt);
    set_annotation(relu, {}, as_qspec(get_output_act_qspec(config)));
  }
}

void annotate_binary(GraphModule& gm, const Config& config, const NodeFilter& filter,
                     std::initializer_list<const char*> targets) {
  for (Node* op : gm.graph.nodes()) {
    if (!has_target(op, targets)) continue;
    std::vector<Node*> partition{op};
    if (is_annotated(partition) || !passes(filter, partition)) continue;
    InputMap inputs;
    if (!binary_inputs(gm, op, config, inputs, partition)) continue;
    set_annotation(op, std::move(inputs), as_qspec(get_output_act_qspec(config)));
  }
}

void annotate_add_relu(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_binary_relu(gm, c, f, {"aten.add.Tensor", "aten.add_.Tensor"});
}
void annotate_add(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_binary(gm, c, f, {"aten.add.Tensor", "aten.add_.Tensor"});
}
void annotate_mul_relu(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_binary_relu(gm, c, f, {"aten.mul.Tensor", "aten.mul_.Tensor"});
}
void annotate_mul(GraphModule& gm, const Config& c, const NodeFilter& f) {
  annotate_binary(gm, c, f, {"aten.mul.Tensor", "aten.mul_.Tensor"});
}

// Whether a value traces back through share-observer ops to an annotated output spec.
bool has_annotated_qparam_source(Node* node) {
  std::set<const Node*> visited;
  while (node && visited.insert(node).second) {
    const QuantizationAnnotation* a = get_annotation(node);
    if (a && a->_annotated && a->output_qspec) return true;
    if (node->op != OpKind::call_function || !is_share_obs_or_fq_op(node->target)) return false;
    node = node_arg(node, 0);
  }
  return false;
}

// ET's cat annotator takes no notice of the filter (see the header).
void annotate_cat(GraphModule& gm, const Config& config, const NodeFilter&) {
  for (Node* cat : gm.graph.nodes()) {
    if (cat->target != "aten.cat.default" || is_annotated({cat}) || cat->args().empty()) continue;
    const auto* list = std::get_if<std::vector<Node*>>(&cat->args()[0].v);
    if (!list || list->empty()) continue;
    auto it = std::find_if(list->begin(), list->end(), has_annotated_qparam_source);
    Node* source = it != list->end() ? *it : list->front();
    InputMap inputs{{source, as_qspec(get_input_act_qspec(config))}};
    const OptionalQSpec share = shared(EdgeOrNode::edge(source, cat));
    for (Node* in : *list)
      if (in != source && std::none_of(inputs.begin(), inputs.end(), [in](const auto& p) { return p.first == in; }))
        inputs.emplace_back(in, share);
    set_annotation(cat, std::move(inputs), share);
  }
}

const std::map<std::string, Annotator>& annotators() {
  static const std::map<std::string, Annotator> table{
      {"linear", annotate_linear},
      {"linear_relu", annotate_linear_relu},
      {"conv", annotate_conv},
      {"conv_transpose", annotate_conv_transpose},
      {"conv_relu", annotate_conv_relu},
      {"conv_transpose_relu", annotate_conv_transpose_relu},
      {"conv_bn", annotate_conv_bn},
      {"conv_bn_relu", annotate_conv_bn_relu},
      {"conv_transpose_bn", annotate_conv_transpose_bn},
      {"conv_transpose_bn_relu", annotate_conv_transpose_bn_relu},
      {"adaptive_avg_pool2d", annotate_adaptive_avg_pool2d},
      {"add_relu", annotate_add_relu},
      {"add", annotate_add},
      {"mul_relu", annotate_mul_relu},
      {"mul", annotate_mul},
      {"cat", annotate_cat},
  };
  return table;
}

std::string new_tensor_constant_name(const GraphModule& gm) {
  for (int k = 0;; ++k) {
    std::string name = "_tensor_constant_" + std::to_string(k);
    if (!gm.has_tensor(name)) return name;
  }
}

NodeFilter and_filters(NodeFilter a, NodeFilter b) {
  return [a = std::move(a), b = std::move(b)](const Node* n) { return (!a || a(n)) && (!b || b(n)); };
}

}  // namespace

// ---- public functions ------------------------------------------------------------------------------

const std::vector<QuantPattern>& supported_patterns() {
  static const std::vector<QuantPattern> patterns = [] {
    const std::vector<std::string> conv{"aten.conv2d.default", "aten.conv1d.default", "aten.convolution.default"};
    const std::vector<std::string> conv_t{"aten.conv_transpose1d", "aten.conv_transpose1d.default",
                                          "aten.conv_transpose2d", "aten.conv_transpose2d.input",
                                          "aten.conv_transpose3d", "aten.conv_transpose3d.input"};
    const std::vector<std::string> linear{"aten.linear.default"};
    return std::vector<QuantPattern>{
        {"conv_bn_relu", false, true, conv},
        {"conv_bn", false, true, conv},
        {"conv_transpose_bn_relu", false, true, conv_t},
        {"conv_transpose_bn", false, true, conv_t},
        {"linear_relu", false, false, linear},
        {"linear", true, false, linear},
        {"conv", true, false, conv},
        {"conv_transpose", true, false, conv_t},
        {"conv_relu", false, false, conv},
        {"conv_transpose_relu", false, false, conv_t},
        {"adaptive_avg_pool2d", false, false, {"aten.adaptive_avg_pool2d.default"}},
        {"add_relu", false, false, {"aten.add.Tensor"}},
        {"add", false, false, {"aten.add.Tensor"}},
        {"mul_relu", false, false, {"aten.mul.Tensor"}},
        {"mul", false, false, {"aten.mul.Tensor"}},
        {"cat", false, false, {"aten.cat.default"}},
    };
  }();
  return patterns;
}

Annotator annotator(const std::string& pattern_name) {
  auto it = annotators().find(pattern_name);
  if (it == annotators().end()) throw ValueError("XNNPACKQuantizer: no annotator named '" + pattern_name + "'");
  return it->second;
}

bool is_share_obs_or_fq_op(const std::string& target) {
  static const std::set<std::string> ops{
      "aten.relu.default",       "aten.hardtanh.default",      "aten.hardtanh_.default",
      "aten.max_pool2d.default", "aten.mean.default",          "aten.mean.dim",
      "aten.permute.default",    "aten.permute_copy.default",  "aten.transpose.int",
      "aten.squeeze.dim",        "aten.squeeze_copy.dim",      "aten.adaptive_avg_pool2d.default",
      "aten.view_copy.default",  "aten.view.default",          "aten.reshape.default",
      "aten.slice.Tensor",       "aten.slice_copy.Tensor",     "aten.flatten.using_ints"};
  return ops.count(target) > 0;
}

void propagate_annotation(GraphModule& gm) {
  for (Node* n : gm.graph.nodes()) {
    if (n->op != OpKind::call_function || !is_share_obs_or_fq_op(n->target)) continue;
    Node* prev = node_arg(n, 0);
    const QuantizationAnnotation* prev_a = prev ? get_annotation(prev) : nullptr;
    if (!prev_a || !prev_a->output_qspec || is_annotated({n})) continue;
    const OptionalQSpec share = shared(EdgeOrNode::output(prev));
    set_annotation(n, {{prev, share}}, share);
  }
}

void convert_scalars_to_attrs(GraphModule& gm) {
  for (Node* n : gm.graph.nodes()) {
    if (!has_target(n, {"aten.add.Tensor", "aten.mul.Tensor"})) continue;
    std::vector<Arg> args = n->args();
    bool changed = false;
    for (size_t k = 0; k < std::min<size_t>(args.size(), 2); ++k) {  // self, other
      Arg& a = args[k];
      const double* d = std::get_if<double>(&a.v);
      const int64_t* i = std::get_if<int64_t>(&a.v);
      if (!d && !i) continue;
      const std::string name = new_tensor_constant_name(gm);
      gm.set_tensor(name, Tensor::scalar(static_cast<float>(d ? *d : static_cast<double>(*i))), true);
      Node* attr = gm.graph.insert_before(n, OpKind::get_attr, name, {}, name);
      attr->meta.val = TensorMeta{{}, DType::Float32};
      a = Arg(attr);
      changed = true;
    }
    if (changed) gm.graph.set_args(n, std::move(args));
  }
}

// ---- XNNPACKQuantizer --------------------------------------------------------------------------------

void XNNPACKQuantizer::set_entry(ConfigList& list, const std::string& key, std::optional<QuantizationConfig> config) {
  for (auto& [k, c] : list)
    if (k == key) {
      c = std::move(config);
      return;
    }
  list.emplace_back(key, std::move(config));
}

XNNPACKQuantizer& XNNPACKQuantizer::set_global(std::optional<QuantizationConfig> config) {
  global_config_ = std::move(config);
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_operator_type(const std::string& operator_type,
                                                      std::optional<QuantizationConfig> config) {
  set_entry(operator_type_config_, operator_type, std::move(config));
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_module_type(const std::string& module_type,
                                                    std::optional<QuantizationConfig> config) {
  set_entry(module_type_config_, module_type, std::move(config));
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_module_name(const std::string& module_name,
                                                    std::optional<QuantizationConfig> config) {
  if (!config) throw ValueError("set_module_name('" + module_name + "'): quantization_config == None is not supported yet");
  set_entry(module_name_config_, module_name, std::move(config));
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_filter_function(NodeFilter filter_fn) {
  filter_fn_ = std::move(filter_fn);
  return *this;
}

void XNNPACKQuantizer::annotate_all_patterns(GraphModule& gm, const std::optional<QuantizationConfig>& config,
                                             const NodeFilter& stage_filter, const std::string* operator_target) const {
  if (!config) return;
  const NodeFilter filter = and_filters(filter_fn_, stage_filter);
  const bool dynamic = is_dynamic_config(config);
  for (const QuantPattern& p : supported_patterns()) {
    if (operator_target &&
        std::find(p.op_overloads.begin(), p.op_overloads.end(), *operator_target) == p.op_overloads.end())
      continue;
    const bool runs = (dynamic && p.is_dynamic) || (config->is_qat && p.is_qat) || !dynamic;
    if (runs) annotator(p.name)(gm, config, filter);
  }
}

void XNNPACKQuantizer::annotate(GraphModule& gm) {
  std::vector<std::string> names, types;
  for (const auto& [name, config] : module_name_config_) {
    names.push_back(name);
    annotate_all_patterns(gm, config, get_module_name_filter(name), nullptr);
  }
  for (const auto& [type, config] : module_type_config_) {
    types.push_back(type);
    annotate_all_patterns(gm, config, get_module_type_filter(type), nullptr);
  }
  const NodeFilter outside = get_not_module_type_or_name_filter(types, names);
  for (const auto& [op, config] : operator_type_config_) annotate_all_patterns(gm, config, outside, &op);
  annotate_all_patterns(gm, global_config_, outside, nullptr);
  propagate_annotation(gm);
}

// ---- registration (pt2e/quantizer_registry.h): pt.executorch.XNNPACKQuantizer and
// pt.executorch.get_symmetric_quantization_config (ExecuTorch exports the torchao copy's config function) ----

[[maybe_unused]] static const bool registered = [] {
  register_quantizer(quantizer_class_of<XNNPACKQuantizer>("XNNPACKQuantizer", "executorch", xnnpack_style_setters<XNNPACKQuantizer>()));
  register_config_function(symmetric_quantization_config_function("executorch"));
  return true;
}();

}  // namespace pt::executorch
