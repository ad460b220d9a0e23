// executorch_xnnpack_quantizer.h — ExecuTorch's XNNPACKQuantizer (docs/algorithms.md; ExecuTorch
// backends/xnnpack/quantizer/xnnpack_quantizer.py + xnnpack_quantizer_utils.py, restated).
//
// The name: this class is pt::executorch::XNNPACKQuantizer, as Python imports it from
// executorch.backends.xnnpack.quantizer; pt::XNNPACKQuantizer (pt2e/quantizers/xnnpack_quantizer.h)
// is the torchao testing copy the early lessons use. Both take get_symmetric_quantization_config.
//
//   pt::executorch::XNNPACKQuantizer q;
//   q.set_global(pt::executorch::get_symmetric_quantization_config({.is_per_channel = true}));
//   q.set_module_name("out", std::nullopt);                     // ValueError: None is not supported (as ET)
//   q.set_operator_type("aten.linear.default", cfg);            // an OpOverload name, not "aten.linear"
//   q.set_filter_function([](const pt::Node* n) { return n->name != "conv2d"; });
//   pt::GraphModule prepared = pt::prepare_pt2e(gm, q);
//
// What it does differently from the torchao copy (and why lessons M08 / M03-7 compare them):
// - patterns are found by node.target and graph structure, so `cat` (aten.cat.default) is annotated
//   on torch 2.14 graphs: the first input whose value traces back (through share-observer ops such as
//   relu / max_pool2d / view) to an annotated output spec owns the qparams, the others and the output
//   share them; max_pool2d after it then gets shared qparams by propagation.
// - SUPPORTED_PATTERNS run in one list (supported_patterns()), dispatched per config: a dynamic config
//   runs only the dynamic patterns (linear, conv, conv_transpose); a QAT config runs the QAT patterns
//   (conv[_transpose]_bn[_relu]) and, if static, everything else; a static PTQ config runs everything.
// - the conv annotator skips a conv whose single user is relu (conv_relu, later in the list, takes it);
//   it matches conv1d/2d/3d .default/.padding; a dynamic config skips non-2-D and depthwise convs.
// - priority: module_name configs -> module_type configs -> operator_type configs -> global; the
//   operator_type and global stages skip nodes inside any listed module name / type. An operator type
//   selects the patterns whose target set holds that key; the sets hold OpOverload names
//   (aten.conv2d.default, aten.add.Tensor; conv_transpose also lists the packets).
//   set_filter_function(fn) is AND-ed with each stage's filter.
// - propagate_annotation's share list adds transpose.int, reshape.default and slice.Tensor.
// Faithful quirks, kept on purpose: the cat annotator consults no filter at all (neither a stage's nor
// set_filter_function's), so the first stage that runs annotates every cat; a None config for a module
// type / operator type annotates nothing in that stage (the global stage still skips those modules).
// Deviation: adaptive_avg_pool2d is matched by target; ET finds it through source partitions, which a
// torch 2.14 graph only yields for nn.AdaptiveAvgPool2d modules. The result only differs when the
// pool's input has no annotated output (then the pool gets its own input spec instead of staying fp32).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pt2e/quantizer.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

namespace pt::executorch {

// ExecuTorch exports the same config function as the torchao copy.
using pt::get_symmetric_quantization_config;
using pt::SymmetricQuantizationOptions;

// One entry of XNNPACKQuantizer.SUPPORTED_PATTERNS.
struct QuantPattern {
  std::string name;  // annotator name: "conv_relu", "cat", ...
  bool is_dynamic = false;
  bool is_qat = false;
  TargetGroup op_overloads;  // targets an operator-type config selects it by (CONV_TARGETS, ...; graph/targets.h)
};
const std::vector<QuantPattern>& supported_patterns();

// An annotator: annotates every match of its pattern that passes `filter` (null = every node).
using Annotator = xnnpack::AnnotatorType;
// OP_TO_ANNOTATOR: the annotator for a pattern name; ValueError for an unknown name. The patterns whose
// upstream code is the same as torchao's testing copy (linear, linear_relu, conv[_transpose]_bn[_relu],
// add[_relu], mul[_relu]) are that copy's annotators (xnnpack::op_to_annotator).
const Annotator& annotator(const std::string& pattern_name);

// propagate_annotation over ExecuTorch's share list (pt2e/quantizer_utils.h,
// group::executorch_share_obs_or_fq: relu, max_pool2d, mean, view, reshape, transpose, flatten, ...).
void propagate_annotation(GraphModule& gm);

class XNNPACKQuantizer : public Quantizer {
 public:
  XNNPACKQuantizer& set_global(std::optional<QuantizationConfig> config);
  XNNPACKQuantizer& set_operator_type(const std::string& operator_type, std::optional<QuantizationConfig> config);
  // module_type: the class path in nn_module_stack ("torch.nn.modules.conv.Conv2d") or its last part.
  XNNPACKQuantizer& set_module_type(const std::string& module_type, std::optional<QuantizationConfig> config);
  // ValueError for a None config ("quantization_config == None is not supported yet", ET asserts).
  XNNPACKQuantizer& set_module_name(const std::string& module_name, std::optional<QuantizationConfig> config);
  XNNPACKQuantizer& set_filter_function(NodeFilter filter_fn);

  const std::optional<QuantizationConfig>& global_config() const { return global_config_; }

  void transform_for_annotation(GraphModule& gm) override { convert_scalars_to_attrs(gm); }
  void annotate(GraphModule& gm) override;
  void validate(const GraphModule& gm) const override { (void)gm; }

 private:
  using ConfigList = std::vector<std::pair<std::string, std::optional<QuantizationConfig>>>;  // a Python dict
  void annotate_all_patterns(GraphModule& gm, const std::optional<QuantizationConfig>& config,
                             const NodeFilter& stage_filter, const std::string* operator_target) const;

  std::optional<QuantizationConfig> global_config_;
  ConfigList operator_type_config_;
  ConfigList module_type_config_;
  ConfigList module_name_config_;
  NodeFilter filter_fn_;
};

}  // namespace pt::executorch
