// vpu_quantizer.cpp — VPUQuantizer (vpu_quantizer.h): the config, one annotator pass in graph order, the
// per-node rule validate() applies, and the registry entries.
#include "pt2e/quantizers/vpu_quantizer.h"

#include <algorithm>

#include "graph/targets.h"
#include "pt2e/quantizer_registry.h"

namespace pt {

namespace {

QuantizationSpec power_of_two_spec(int64_t quant_min) {
  ObserverArgs kwargs;
  kwargs.eps = 0x1p-12f;
  QuantizationSpec s;
  s.dtype = DType::Int8;
  s.observer_or_fake_quant_ctr = {"PowerOfTwoMinMaxObserver", kwargs};
  s.quant_min = quant_min;
  s.quant_max = 127;
  s.qscheme = QScheme::per_tensor_symmetric;
  return s;
}

OptionalQSpec shared(Node* producer, Node* consumer) {
  return QuantizationSpecBase(SharedQuantizationSpec{EdgeOrNode::edge(producer, consumer)});
}

bool feeds_output(const Node* n) {
  const auto& users = n->users();
  return std::any_of(users.begin(), users.end(), [](const Node* u) { return u->op == OpKind::output; });
}

// The output spec of the node that ends a pattern: the Q3.12 output when it produces the model's output.
OptionalQSpec output_spec(const Node* last, OptionalQSpec otherwise) {
  return feeds_output(last) ? OptionalQSpec(vpu_output_qspec()) : std::move(otherwise);
}

// The relu fused into `n` (its only user), or nullptr.
Node* fused_relu(Node* n) {
  return n->users().size() == 1 && is_call(n->users()[0], target::relu) ? n->users()[0] : nullptr;
}

// int32 bias of scale s_act · s_w (torchao's derived bias: act_scale * weight_scale, zero point 0).
OptionalQSpec derived_bias(Node* x, Node* w, Node* op) {
  DerivedQuantizationSpec d;
  d.derived_from = {EdgeOrNode::edge(x, op), EdgeOrNode::edge(w, op)};
  d.derive_qparams_fn = [](const std::vector<ObserverBase*>& obs) {
    const QParams a = obs.at(0)->calculate_qparams(), w = obs.at(1)->calculate_qparams();
    return QParams{Tensor::full({1}, a.scale.data<float>()[0] * w.scale.data<float>()[0]),
                   Tensor::zeros({1}, DType::Int32)};
  };
  d.dtype = DType::Int32;
  d.quant_min = INT32_MIN;
  d.quant_max = INT32_MAX;
  d.qscheme = QScheme::per_tensor_symmetric;
  return QuantizationSpecBase(std::move(d));
}

// conv2d / linear [→ relu]: activation, weight, derived bias; the output on the relu when fused.
void annotate_weighted(Node* n, const QuantizationConfig& c) {
  Node *x = arg_node(n, 0), *w = arg_node(n, 1), *b = arg_node(n, 2);
  if (!x || !w) return;
  InputQSpecMap inputs{{x, as_qspec(c.input_activation)}, {w, as_qspec(c.weight)}};
  if (b) inputs.emplace_back(b, derived_bias(x, w, n));
  Node* relu = fused_relu(n);
  const OptionalQSpec out = output_spec(relu ? relu : n, as_qspec(c.output_activation));
  set_annotation(n, std::move(inputs), relu ? std::nullopt : out);
  if (relu) set_annotation(relu, {}, out);
  mark_nodes_as_annotated({w, b});
}

// add [→ relu]: the second input and the output share the first input's observer.
void annotate_add(Node* n, const QuantizationConfig& c) {
  Node *a = arg_node(n, 0), *b = arg_node(n, 1);
  if (!a || !b) return;
  InputQSpecMap inputs{{a, as_qspec(c.input_activation)}};
  if (b != a) inputs.emplace_back(b, shared(a, n));
  Node* relu = fused_relu(n);
  const OptionalQSpec out = output_spec(relu ? relu : n, shared(a, n));
  set_annotation(n, std::move(inputs), relu ? std::nullopt : out);
  if (relu) set_annotation(relu, {}, out);
}

void annotate_cat(Node* n, const QuantizationConfig& c) {
  const auto* list = n->args().empty() ? nullptr : std::get_if<std::vector<Node*>>(&n->args()[0].v);
  if (!list || list->empty()) return;
  Node* first = list->front();
  InputQSpecMap inputs{{first, as_qspec(c.input_activation)}};
  for (Node* in : *list)
    if (std::none_of(inputs.begin(), inputs.end(), [in](const auto& p) { return p.first == in; }))
      inputs.emplace_back(in, shared(first, n));
  set_annotation(n, std::move(inputs), shared(first, n));
}

// max_pool2d, flatten, the means: one input, the output shares its observer.
void annotate_single(Node* n, const QuantizationConfig& c) {
  Node* x = arg_node(n, 0);
  if (!x) return;
  set_annotation(n, {{x, as_qspec(c.input_activation)}}, output_spec(n, shared(x, n)));
}

constexpr const char* kSharing[] = {target::max_pool2d, target::flatten, target::adaptive_avg_pool2d, target::mean_dim};
constexpr const char* kCopiesCodes[] = {target::max_pool2d, target::flatten, target::cat};

std::vector<int64_t> int_list(const Node* n, size_t i, std::vector<int64_t> dflt) {
  if (i >= n->args().size() || n->args()[i].is_none()) return dflt;
  if (const auto* v = std::get_if<std::vector<int64_t>>(&n->args()[i].v)) return v->size() == 1 ? std::vector<int64_t>{(*v)[0], (*v)[0]} : *v;
  if (const auto* v = std::get_if<int64_t>(&n->args()[i].v)) return {*v, *v};
  return dflt;
}

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The count of elements a mean over H and W averages, from the input's shape: "" when a power of two.
std::string mean_count_reason(const Node* n) {
  const Node* x = arg_node(n, 0);
  if (!x || !x->meta.val || x->meta.val->shape.size() != 4) return "the VPU needs the input's shape (meta.val) to average";
  const int64_t count = x->meta.val->shape[2] * x->meta.val->shape[3];
  if (is_power_of_two(count)) return "";
  return "it averages " + std::to_string(count) + " elements; 1/" + std::to_string(count) +
         " is no power of two, so the VPU's shift cannot divide by it";
}

std::string shape_of(const Node* n) { return n && n->meta.val ? shape_str(n->meta.val->shape) : "?"; }

}  // namespace

QuantizationConfig get_vpu_quantization_config() {
  QuantizationConfig c;
  c.input_activation = power_of_two_spec(-128);
  c.output_activation = power_of_two_spec(-128);
  c.weight = power_of_two_spec(-127);
  return c;
}

FixedQParamsQuantizationSpec vpu_output_qspec() {
  FixedQParamsQuantizationSpec s;
  s.dtype = DType::Int16;
  s.scale = kQ3_12Scale;
  s.zero_point = 0;
  s.quant_min = -32768;
  s.quant_max = 32767;
  s.qscheme = QScheme::per_tensor_symmetric;
  return s;
}

VPUQuantizer& VPUQuantizer::set_global(const QuantizationConfig& config) {
  global_config = config;
  return *this;
}

void VPUQuantizer::annotate(GraphModule& gm) {
  if (!global_config) return;
  const QuantizationConfig& c = *global_config;
  for (Node* n : gm.graph.nodes()) {
    if (n->op != OpKind::call_function || is_annotated({n})) continue;
    if (is_call(n, target::conv2d) || is_call(n, target::linear)) annotate_weighted(n, c);
    else if (is_call(n, target::add)) annotate_add(n, c);
    else if (is_call(n, target::cat)) annotate_cat(n, c);
    else if (is_call(n, kSharing)) annotate_single(n, c);
  }
}

std::string vpu_unsupported_reason(const GraphModule& gm, const Node* n) {
  (void)gm;
  if (n->op != OpKind::call_function || node_kind(*n) != NodeKind::op) return "";
  if (feeds_output(n) && is_call(n, kCopiesCodes))
    return "it produces the model's output but copies codes; the Q3.12 output needs an op that requantizes "
           "(conv2d, linear, add, mean)";
  if (is_call(n, target::conv2d)) {
    if (int_list(n, 5, {1, 1}) != std::vector<int64_t>{1, 1}) return "the VPU's conv runs dilation 1 only";
    return "";
  }
  if (is_call(n, target::linear) || is_call(n, target::cat) || is_call(n, target::flatten)) return "";
  if (is_call(n, target::relu)) {
    const Node* p = arg_node(n, 0);
    const bool fused = p && (is_call(p, target::conv2d) || is_call(p, target::linear) || is_call(p, target::add)) && only_user(p, n);
    return fused ? "" : "relu runs only fused into the conv2d / linear / add before it (as that op's only user)";
  }
  if (is_call(n, target::add)) {
    const Node *a = arg_node(n, 0), *b = arg_node(n, 1);
    if (!a || !b) return "the VPU adds two tensors, not a tensor and a scalar";
    if (a->meta.val && b->meta.val && a->meta.val->shape != b->meta.val->shape)
      return "it broadcasts " + shape_of(a) + " with " + shape_of(b) + "; the VPU adds codes element by element";
    return "";
  }
  if (is_call(n, target::max_pool2d)) {
    if (int_list(n, 4, {1, 1}) != std::vector<int64_t>{1, 1}) return "the VPU's max pool runs dilation 1 only";
    if (n->args().size() > 5 && std::holds_alternative<bool>(n->args()[5].v) && std::get<bool>(n->args()[5].v))
      return "the VPU's max pool runs ceil_mode=False only";
    return "";
  }
  if (is_call(n, target::adaptive_avg_pool2d)) {
    if (int_list(n, 1, {}) != std::vector<int64_t>{1, 1}) return "the VPU pools to 1x1 only";
    return mean_count_reason(n);
  }
  if (is_call(n, target::mean_dim)) {
    std::vector<int64_t> dims = int_list(n, 1, {});
    for (int64_t& d : dims) d = d < 0 ? d + 4 : d;
    std::sort(dims.begin(), dims.end());
    if (dims != std::vector<int64_t>{2, 3}) return "the VPU averages over H and W (dims 2, 3) only";
    return mean_count_reason(n);
  }
  return "the VPU has no unit for " + n->target;
}

void VPUQuantizer::validate(const GraphModule& gm) const {
  for (const Node* n : gm.graph.nodes())
    if (const std::string why = vpu_unsupported_reason(gm, n); !why.empty())
      throw NotImplementedError("VPUQuantizer.validate: node " + n->name + " (" + n->target + ") cannot run on the VPU: " + why);
}

namespace {
struct VPUConfigOptions {};  // get_vpu_quantization_config takes no keywords

[[maybe_unused]] const bool registered = [] {
  register_quantizer(quantizer_class_of<VPUQuantizer>(
      "VPUQuantizer", "", {setter("set_global", {"quantization_config"}, &VPUQuantizer::set_global)}));
  register_config_function(config_function<VPUConfigOptions>(
      "get_vpu_quantization_config", "", {}, [](const VPUConfigOptions&) { return get_vpu_quantization_config(); }));
  return true;
}();
}  // namespace

}  // namespace pt
