// executorch_xnnpack_quantizer.cpp — ExecuTorch's XNNPACKQuantizer: pattern list, annotators,
// propagation and the config stages (see executorch_xnnpack_quantizer.h).
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"
#include "pt2e/quantizer_registry.h"

#include <algorithm>
#include <map>
#include <set>

namespace pt::executorch {

namespace {

using Config = std::optional<QuantizationConfig>;

const Shape* shape_of(const Node* n) { return n && n->meta.val ? &n->meta.val->shape : nullptr; }

bool passes(const NodeFilter& filter, const std::vector<Node*>& nodes) {
  return !filter || std::all_of(nodes.begin(), nodes.end(), [&](const Node* n) { return filter(n); });
}

OptionalQSpec shared(EdgeOrNode e) { return QuantizationSpecBase(SharedQuantizationSpec{e}); }

bool is_dynamic_config(const Config& config) {
  return config && config->input_activation && config->input_activation->is_dynamic;
}

// ---- conv helpers ----------------------------------------------------------------------------------

// Groups deduced from shapes, as ET's get_groups_from_conv (the training graph omits the argument);
// 1 when shapes are unknown.
int64_t conv_transpose_groups(const Node* conv) {
  const Shape* w = shape_of(arg_node(conv, 1));
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
bool conv_inputs(Node* conv, const Config& config, bool transpose, InputQSpecMap& inputs,
                 std::vector<Node*>& partition) {
  Node* act = arg_node(conv, 0);
  Node* weight = arg_node(conv, 1);
  if (!act || !weight) return false;
  inputs = {{act, as_qspec(get_input_act_qspec(config))}, {weight, conv_weight_qspec(config, transpose)}};
  partition.push_back(weight);
  if (Node* bias = arg_node(conv, 2)) {
    inputs.emplace_back(bias, as_qspec(get_bias_qspec(config)));
    partition.push_back(bias);
  }
  return true;
}

// Only 2-D, non-depthwise convs are quantized dynamically (weight [O, I/groups, kh, kw], groups = 1).
bool dynamic_conv_unsupported(const Node* conv, bool transpose) {
  const Shape* w = shape_of(arg_node(conv, 1));
  if (!w) return false;
  if (w->size() != 4) return true;
  return !transpose && (*w)[1] == 1;
}

TargetGroup conv_group(bool transpose) { return transpose ? TargetGroup(group::conv_transpose) : TargetGroup(group::conv); }

// ---- the annotators ExecuTorch's xnnpack_quantizer_utils.py has its own versions of --------------------
// (linear, linear_relu, the conv+bn family, add, mul and their relu variants are the same code as torchao's
// testing copy there, so the annotator table below takes them from xnnpack::op_to_annotator.)

// _do_annotate_conv: conv1d/2d/3d (.default / .padding) or conv_transpose*; a conv whose single user is a
// relu is left to conv_relu although this annotator runs first.
void annotate_conv_common(GraphModule& gm, const Config& config, const NodeFilter& filter, bool transpose) {
  for (Node* conv : gm.graph.nodes()) {
    if (!is_call(conv, conv_group(transpose))) continue;
    if (conv->users().size() == 1 && is_call(conv->users()[0], group::relu)) continue;
    InputQSpecMap inputs;
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

// _do_annotate_conv_relu: as torchao's, with the transposed conv's weight on axis 1 and groups checked.
void annotate_conv_relu_common(GraphModule& gm, const Config& config, const NodeFilter& filter, bool transpose) {
  for (Node* relu : gm.graph.nodes()) {
    if (!is_call(relu, group::relu)) continue;
    Node* conv = arg_node(relu, 0);
    if (!is_call(conv, conv_group(transpose)) || conv->users().size() > 1) continue;
    InputQSpecMap inputs;
    std::vector<Node*> partition{relu, conv};
    if (!conv_inputs(conv, config, transpose, inputs, partition)) continue;
    if (is_annotated(partition)) continue;
    if (transpose && conv_transpose_groups(conv) != 1) continue;
    if (!passes(filter, partition)) continue;
    set_annotation(conv, std::move(inputs));
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

void annotate_adaptive_avg_pool2d(GraphModule& gm, const Config& config, const NodeFilter& filter) {
  for (Node* pool : gm.graph.nodes()) {
    if (!is_call(pool, target::adaptive_avg_pool2d)) continue;
    if (!passes(filter, {pool}) || is_annotated({pool})) continue;
    Node* act = arg_node(pool, 0);
    if (!act) continue;
    const QuantizationAnnotation* a = get_annotation(act);
    // Share the producer's output observer when it has one, else observe the input here.
    OptionalQSpec input_spec = (a && a->_annotated && a->output_qspec) ? shared(EdgeOrNode::output(act))
                                                                       : as_qspec(get_input_act_qspec(config));
    set_annotation(pool, {{act, std::move(input_spec)}}, shared(EdgeOrNode::edge(act, pool)));
  }
}

// _has_annotated_qparam_source: whether a value traces back through share-observer ops to an annotated
// output spec.
bool has_annotated_qparam_source(Node* node) {
  std::set<const Node*> visited;
  while (node && visited.insert(node).second) {
    const QuantizationAnnotation* a = get_annotation(node);
    if (a && a->_annotated && a->output_qspec) return true;
    if (!is_share_obs_or_fq_op(node, group::executorch_share_obs_or_fq)) return false;
    node = arg_node(node, 0);
  }
  return false;
}

// ET's cat annotator takes no notice of the filter (see the header).
void annotate_cat(GraphModule& gm, const Config& config, const NodeFilter&) {
  for (Node* cat : gm.graph.nodes()) {
    if (!is_call(cat, target::cat) || is_annotated({cat}) || cat->args().empty()) continue;
    const auto* list = std::get_if<std::vector<Node*>>(&cat->args()[0].v);
    if (!list || list->empty()) continue;
    auto it = std::find_if(list->begin(), list->end(), has_annotated_qparam_source);
    Node* source = it != list->end() ? *it : list->front();
    InputQSpecMap inputs{{source, as_qspec(get_input_act_qspec(config))}};
    const OptionalQSpec share = shared(EdgeOrNode::edge(source, cat));
    for (Node* in : *list)
      if (in != source && std::none_of(inputs.begin(), inputs.end(), [in](const auto& p) { return p.first == in; }))
        inputs.emplace_back(in, share);
    set_annotation(cat, std::move(inputs), share);
  }
}

const std::map<std::string, Annotator>& annotators() {
  static const std::map<std::string, Annotator> table = [] {
    std::map<std::string, Annotator> t{
        {"conv", annotate_conv},
        {"conv_transpose", annotate_conv_transpose},
        {"conv_relu", annotate_conv_relu},
        {"conv_transpose_relu", annotate_conv_transpose_relu},
        {"adaptive_avg_pool2d", annotate_adaptive_avg_pool2d},
        {"cat", annotate_cat},
    };
    for (const char* same : {"linear", "linear_relu", "conv_bn", "conv_bn_relu", "conv_transpose_bn",
                             "conv_transpose_bn_relu", "add_relu", "add", "mul_relu", "mul"})
      t.emplace(same, xnnpack::op_to_annotator(same));
    return t;
  }();
  return table;
}

NodeFilter and_filters(NodeFilter a, NodeFilter b) {
  return [a = std::move(a), b = std::move(b)](const Node* n) { return (!a || a(n)) && (!b || b(n)); };
}

}  // namespace

// ---- public functions ------------------------------------------------------------------------------

const std::vector<QuantPattern>& supported_patterns() {
  static const std::vector<QuantPattern> patterns{
      {"conv_bn_relu", false, true, group::executorch_conv_targets},
      {"conv_bn", false, true, group::executorch_conv_targets},
      {"conv_transpose_bn_relu", false, true, group::conv_transpose},
      {"conv_transpose_bn", false, true, group::conv_transpose},
      {"linear_relu", false, false, group::linear},
      {"linear", true, false, group::linear},
      {"conv", true, false, group::executorch_conv_targets},
      {"conv_transpose", true, false, group::conv_transpose},
      {"conv_relu", false, false, group::executorch_conv_targets},
      {"conv_transpose_relu", false, false, group::conv_transpose},
      {"adaptive_avg_pool2d", false, false, group::executorch_adaptive_avg_pool2d_targets},
      {"add_relu", false, false, group::executorch_add_targets},
      {"add", false, false, group::executorch_add_targets},
      {"mul_relu", false, false, group::executorch_mul_targets},
      {"mul", false, false, group::executorch_mul_targets},
      {"cat", false, false, group::executorch_cat_targets},
  };
  return patterns;
}

const Annotator& annotator(const std::string& pattern_name) {
  auto it = annotators().find(pattern_name);
  if (it == annotators().end()) throw ValueError("XNNPACKQuantizer: no annotator named '" + pattern_name + "'");
  return it->second;
}

void propagate_annotation(GraphModule& gm) { pt::propagate_annotation(gm, group::executorch_share_obs_or_fq); }

// ---- XNNPACKQuantizer --------------------------------------------------------------------------------

XNNPACKQuantizer& XNNPACKQuantizer::set_global(std::optional<QuantizationConfig> config) {
  global_config_ = std::move(config);
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_operator_type(const std::string& operator_type,
                                                      std::optional<QuantizationConfig> config) {
  set_dict_entry(operator_type_config_, operator_type, std::move(config));
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_module_type(const std::string& module_type,
                                                    std::optional<QuantizationConfig> config) {
  set_dict_entry(module_type_config_, module_type, std::move(config));
  return *this;
}

XNNPACKQuantizer& XNNPACKQuantizer::set_module_name(const std::string& module_name,
                                                    std::optional<QuantizationConfig> config) {
  if (!config) throw ValueError("set_module_name('" + module_name + "'): quantization_config == None is not supported yet");
  set_dict_entry(module_name_config_, module_name, std::move(config));
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
    if (operator_target && std::none_of(p.op_overloads.begin(), p.op_overloads.end(),
                                        [&](const char* t) { return *operator_target == t; }))
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
