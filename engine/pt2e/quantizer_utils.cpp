// quantizer_utils.cpp — config getters, annotation helpers, module filters, propagation and scalar
// lifting shared by the quantizers (see quantizer_utils.h).
#include "pt2e/quantizer_utils.h"

#include <algorithm>
#include <cmath>

namespace pt {

// ---- config getters (torchao quantizer/utils.py get_*_qspec) ---------------------------------------

static void check_act_qscheme(const QuantizationSpec& s, const char* which) {
  if (s.qscheme != QScheme::per_tensor_affine && s.qscheme != QScheme::per_tensor_symmetric)
    throw ValueError(std::string(which) + ": qscheme must be per_tensor_affine or per_tensor_symmetric");
}

std::optional<QuantizationSpec> get_input_act_qspec(const std::optional<QuantizationConfig>& config) {
  if (!config || !config->input_activation) return std::nullopt;
  check_act_qscheme(*config->input_activation, "get_input_act_qspec");
  return config->input_activation;
}

std::optional<QuantizationSpec> get_output_act_qspec(const std::optional<QuantizationConfig>& config) {
  if (!config || !config->output_activation) return std::nullopt;
  check_act_qscheme(*config->output_activation, "get_output_act_qspec");
  return config->output_activation;
}

std::optional<QuantizationSpec> get_weight_qspec(const std::optional<QuantizationConfig>& config) {
  if (!config || !config->weight) return std::nullopt;
  const auto& q = config->weight->qscheme;
  if (q && *q != QScheme::per_tensor_symmetric && *q != QScheme::per_channel_symmetric)
    throw ValueError(std::string("get_weight_qspec: unsupported weight qscheme ") + qscheme_name(*q));
  return config->weight;
}

std::optional<QuantizationSpec> get_bias_qspec(const std::optional<QuantizationConfig>& config) {
  if (!config || !config->bias) return std::nullopt;
  if (config->bias->dtype != DType::Float32)
    throw ValueError("get_bias_qspec: only float32 bias is supported, got " +
                     std::string(dtype_name(config->bias->dtype)));
  return config->bias;
}

OptionalQSpec as_qspec(const std::optional<QuantizationSpec>& spec) {
  if (!spec) return std::nullopt;
  return QuantizationSpecBase(*spec);
}

// ---- annotations (torchao quantizer/utils.py annotate_*, is_valid_annotation) --------------------------

void annotate_input_qspec_map(Node* node, Node* input_node, OptionalQSpec qspec) {
  if (qspec) validate_spec(*qspec);
  ensure_annotation(node).set_input_qspec(input_node, std::move(qspec));
}

void annotate_output_qspec(Node* node, OptionalQSpec qspec) {
  if (qspec) validate_spec(*qspec);
  ensure_annotation(node).output_qspec = std::move(qspec);
}

bool is_valid_annotation(const QuantizationAnnotation* a) {
  if (!a) return false;
  return !a->input_qspec_map.empty() || a->output_qspec.has_value();
}

// ---- filters (torchao quantizer/utils.py get_module_name_filter; testing _xnnpack_quantizer.py) ---------

static std::string normalize_module_path(const std::string& fqn) {
  const std::string prefix = "L['self'].";
  return fqn.rfind(prefix, 0) == 0 ? fqn.substr(prefix.size()) : fqn;
}

// torchao compares class paths (tp.__module__ + "." + tp.__qualname__). A JS caller names the class by a
// string: its full path, or torch's public alias of a torch.nn class ("torch.nn.Linear" is the object
// torch.nn.modules.linear.Linear), never a bare last name, which another module's class could share.
static bool names_module_type(const std::string& given, const std::string& frame_type) {
  if (given == frame_type) return true;
  const std::string nn = "torch.nn.", modules = "torch.nn.modules.";
  if (given.rfind(nn, 0) != 0 || given.find('.', nn.size()) != std::string::npos) return false;
  if (frame_type.rfind(modules, 0) != 0) return false;
  const size_t dot = frame_type.rfind('.');
  return dot >= modules.size() && frame_type.find('.', modules.size()) == dot &&
         frame_type.compare(dot + 1, std::string::npos, given, nn.size(), std::string::npos) == 0;
}

NodeFilter get_module_name_filter(const std::string& module_name) {
  return [module_name](const Node* n) {
    return std::any_of(n->meta.nn_module_stack.begin(), n->meta.nn_module_stack.end(),
                       [&](const ModuleFrame& f) { return normalize_module_path(f.fqn) == module_name; });
  };
}

NodeFilter get_module_type_filter(const std::string& module_type) {
  return [module_type](const Node* n) {
    return std::any_of(n->meta.nn_module_stack.begin(), n->meta.nn_module_stack.end(), [&](const ModuleFrame& f) {
      return names_module_type(module_type, f.type);
    });
  };
}

NodeFilter get_not_module_type_or_name_filter(const std::vector<std::string>& module_types,
                                              const std::vector<std::string>& module_names) {
  std::vector<NodeFilter> filters;
  for (const auto& t : module_types) filters.push_back(get_module_type_filter(t));
  for (const auto& m : module_names) filters.push_back(get_module_name_filter(m));
  return [filters](const Node* n) {
    return std::none_of(filters.begin(), filters.end(), [n](const NodeFilter& f) { return f(n); });
  };
}

// ---- the backend quantizers' utils (_xnnpack_quantizer_utils.py, ExecuTorch's copy, x86) -----------

bool is_annotated(const std::vector<Node*>& nodes) {
  return std::any_of(nodes.begin(), nodes.end(), [](const Node* n) {
    const QuantizationAnnotation* a = n ? get_annotation(n) : nullptr;
    return a && a->_annotated;
  });
}

bool is_input_large_scalar(const GraphModule& gm, const Node* n) {
  constexpr double kHistcUpperBound = 3.4028235e15;  // torch.histc works up to this magnitude
  if (n->op != OpKind::get_attr) return false;
  const Tensor& t = gm.get_tensor(n->target);
  return t.numel() == 1 && std::fabs(t.item()) > kHistcUpperBound;
}

bool is_input_non_float_tensor(const Node* n) { return !n->meta.val || n->meta.val->dtype != DType::Float32; }

bool is_share_obs_or_fq_op(const Node* n, TargetGroup share_ops) { return is_call(n, share_ops); }

void propagate_annotation(GraphModule& gm, TargetGroup share_ops) {
  for (Node* n : gm.graph.nodes()) {
    if (!is_share_obs_or_fq_op(n, share_ops)) continue;
    Node* prev = arg_node(n, 0);
    const QuantizationAnnotation* pa = prev ? get_annotation(prev) : nullptr;
    if (!pa || !pa->output_qspec || is_annotated({n})) continue;
    const OptionalQSpec shared = QuantizationSpecBase(SharedQuantizationSpec{EdgeOrNode::output(prev)});
    set_annotation(n, {{prev, shared}}, shared);
  }
}

void convert_scalars_to_attrs(GraphModule& gm) {
  static constexpr std::array kOps = {target::add, target::mul};  // the upstream list: add.Tensor, mul.Tensor
  for (Node* n : gm.graph.nodes()) {
    if (!is_call(n, kOps)) continue;
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

}  // namespace pt
