// quantizer_utils.h — the helpers quantizers annotate with, once, under torchao's names: torchao
// quantization/pt2e/quantizer/utils.py, and what the backend quantizers' utils modules each carry a
// copy of (torchao testing/pt2e/_xnnpack_quantizer_utils.py, ExecuTorch
// backends/xnnpack/quantizer/xnnpack_quantizer_utils.py, quantizer/x86_inductor_quantizer.py).
// Every XNNPACK / X86 / JS quantizer and qat_utils uses these; where the upstream copies differ
// (the share-observer op lists of propagate_annotation), the difference is a named argument.
//
//   for (Node* n : gm.graph.nodes()) {                              // a small annotator
//     if (!is_call(n, group::linear) || is_annotated({n})) continue;
//     annotate_input_qspec_map(n, arg_node(n, 0), as_qspec(get_input_act_qspec(config)));
//     annotate_input_qspec_map(n, arg_node(n, 1), as_qspec(get_weight_qspec(config)));
//     annotate_output_qspec(n, as_qspec(get_output_act_qspec(config)));
//     mark_nodes_as_annotated({n, arg_node(n, 1)});
//   }
//   propagate_annotation(gm, group::xnnpack_share_obs_or_fq);      // relu / pool / view share qparams
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "graph/targets.h"
#include "pt2e/quantizer.h"

namespace pt {

// ---- torchao quantization/pt2e/quantizer/utils.py --------------------------------------------------

// get_input_act_qspec / get_output_act_qspec / get_weight_qspec / get_bias_qspec: nullopt for a missing
// config or field. ValueError where torchao asserts: input/output activation must be per_tensor_affine
// or per_tensor_symmetric; weight per_tensor_symmetric, per_channel_symmetric or no qscheme; bias
// dtype float32.
std::optional<QuantizationSpec> get_input_act_qspec(const std::optional<QuantizationConfig>& config);
std::optional<QuantizationSpec> get_output_act_qspec(const std::optional<QuantizationConfig>& config);
std::optional<QuantizationSpec> get_weight_qspec(const std::optional<QuantizationConfig>& config);
std::optional<QuantizationSpec> get_bias_qspec(const std::optional<QuantizationConfig>& config);

// Wraps a QuantizationSpec (or nullopt) as an OptionalQSpec.
OptionalQSpec as_qspec(const std::optional<QuantizationSpec>& spec);

// annotate_input_qspec_map / annotate_output_qspec: create the annotation if missing, otherwise edit it
// in place; `_annotated` untouched. An invalid spec is a ValueError (validate_spec).
void annotate_input_qspec_map(Node* node, Node* input_node, OptionalQSpec qspec);
void annotate_output_qspec(Node* node, OptionalQSpec qspec);

// is_valid_annotation: not null and has some spec.
bool is_valid_annotation(const QuantizationAnnotation* a);

// Node filters for per-module configs, over nn_module_stack (a leading "L['self']." is ignored).
using NodeFilter = std::function<bool(const Node*)>;
// get_module_name_filter: the node comes from module `module_name` (or one inside it).
NodeFilter get_module_name_filter(const std::string& module_name);
// _get_module_type_filter (torchao testing/pt2e/_xnnpack_quantizer.py): module_type is a class path as
// nn_module_stack records it ("torch.nn.modules.conv.Conv2d") or torch's public alias of that class
// ("torch.nn.Conv2d"); a bare "Conv2d" names no class and matches nothing.
NodeFilter get_module_type_filter(const std::string& module_type);
// _get_not_module_type_or_name_filter (same file): in none of the listed module types / names.
NodeFilter get_not_module_type_or_name_filter(const std::vector<std::string>& module_types,
                                              const std::vector<std::string>& module_names);

// ---- what the backend quantizers' utils each carry ------------------------------------------------

// _is_annotated: any node of a pattern already claimed (`_annotated`). X86's _is_any_annotated is the same.
bool is_annotated(const std::vector<Node*>& nodes);

// _mark_nodes_as_annotated: claims a whole pattern (null entries are skipped), creating an empty
// annotation where a node has none. The X86 quantizer creates its own annotation class there
// (x86_inductor_quantizer.py _mark_nodes_as_annotated): pass it as `Annotation`.
template <class Annotation = QuantizationAnnotation>
void mark_nodes_as_annotated(const std::vector<Node*>& nodes) {
  for (Node* n : nodes) {
    if (!n) continue;
    if (!n->meta.quantization_annotation) n->meta.quantization_annotation = std::make_shared<Annotation>();
    ensure_annotation(n)._annotated = true;
  }
}

// node.meta["quantization_annotation"] = Annotation(input_qspec_map=inputs, output_qspec=output,
// _annotated=True), as the XNNPACK and X86 annotators assign it: a new object replaces the node's
// annotation (not an edit in place). Returns it, for a subclass's own fields.
using InputQSpecMap = std::vector<std::pair<Node*, OptionalQSpec>>;  // torchao's dict, insertion order
template <class Annotation = QuantizationAnnotation>
Annotation& set_annotation(Node* n, InputQSpecMap inputs, OptionalQSpec output = std::nullopt) {
  auto a = std::make_shared<Annotation>();
  for (auto& [in, spec] : inputs) a->set_input_qspec(in, std::move(spec));
  a->output_qspec = std::move(output);
  a->_annotated = true;
  Annotation& ref = *a;
  n->meta.quantization_annotation = std::move(a);
  return ref;
}

// _is_input_large_scalar: a one-element get_attr constant beyond torch.histc's bound (3.4028235e15),
// which HistogramObserver cannot observe.
bool is_input_large_scalar(const GraphModule& gm, const Node* n);
// _is_input_non_float_tensor: no meta.val, or not float32 (observers only take float tensors).
bool is_input_non_float_tensor(const Node* n);

// _is_share_obs_or_fq_op: `n` calls one of `share_ops`, whose output reuses its input's qparams. The two
// XNNPACK quantizers' lists differ: group::xnnpack_share_obs_or_fq (torchao's testing copy) and
// group::executorch_share_obs_or_fq (ExecuTorch's, which adds transpose / reshape / slice).
bool is_share_obs_or_fq_op(const Node* n, TargetGroup share_ops);
// propagate_annotation: in graph order (so chains propagate), every share-observer op that is not
// `_annotated` and whose first argument has an output spec gets Shared(that argument) on its input edge
// and output, `_annotated`.
void propagate_annotation(GraphModule& gm, TargetGroup share_ops);

// dict[key] = value for the quantizers' per-module / per-operator configs, kept in insertion order as a
// Python dict is: a key set again keeps its place and takes the new value.
template <class V>
void set_dict_entry(std::vector<std::pair<std::string, V>>& dict, const std::string& key, V value) {
  for (auto& [k, v] : dict)
    if (k == key) {
      v = std::move(value);
      return;
    }
  dict.emplace_back(key, std::move(value));
}

// _convert_scalars_to_attrs (transform_for_annotation of both XNNPACK quantizers): every literal
// operand (int, float or bool; the first two arguments) of aten.add.Tensor / aten.mul.Tensor becomes a
// 0-dim float32 buffer _tensor_constant_<k> read by a new get_attr node, so it can be observed.
void convert_scalars_to_attrs(GraphModule& gm);

}  // namespace pt
