// x86_inductor_quantizer.h — torchao's X86InductorQuantizer (docs/algorithms.md; torchao
// torchao/quantization/pt2e/quantizer/x86_inductor_quantizer.py, restated).
//
//   pt::X86InductorQuantizer q;
//   q.set_global(pt::get_default_x86_inductor_quantization_config());     // uint8 act, int8 per-channel w
//   q.set_module_name_qconfig("out", std::nullopt);                        // None: leave module "out" fp32
//   q.set_module_type_qconfig("torch.nn.Linear", cfg);                     // becomes an operator-type config
//   q.set_function_type_qconfig("torch.cat", cfg);
//   pt::GraphModule prepared = pt::prepare_pt2e(gm, q);
//   for (const std::string& w : q.warnings()) ...                          // what torchao would warn about
//
// How it differs from XNNPACK (lesson M09):
// - activations are uint8 0..255 (0..127 with reduce_range) per_tensor_affine; weights int8 -128..127
//   per_channel_symmetric on axis 0; eps 2^-12; bias not quantized.
// - conv / linear patterns annotate their inputs only (activation, weight, bias) and flag the last node
//   of the pattern `_is_output_of_quantized_pattern`; there is no output observer. Of a binary pattern
//   (conv2d + add [+ relu]) only the add's extra input is observed.
// - per config the annotation order is: (QAT or None config: conv+bn+add+relu, conv+bn+add, conv+bn+unary,
//   conv+bn) -> conv2d+add+relu -> conv2d+add -> conv+unary (relu, hardtanh, hardswish, relu6, silu for
//   conv2d; relu for conv1d) -> conv2d -> linear+add+relu -> linear+add -> linear+unary (relu, leaky_relu,
//   tanh, gelu) -> linear -> matmul -> mul.Tensor (two tensors of one shape) -> propagation over
//   int8-in-int8-out ops (max_pool2d, cat, avg_pool2d, adaptive_avg_pool2d, flatten): such an op is
//   annotated only when its inputs are outputs of quantized patterns (flatten only if a user is
//   quantizable; cat: first input observed, the others Shared((first, cat))). After every config, the
//   outputs of annotated int8-in-int8-out ops get Shared((input, op)), edited in place.
// - priority: module_name configs (every node of the pattern inside the module) -> operator-type configs
//   (exactly one node of the pattern has the target) -> global (exactly one node is a default quantizable
//   op). A None config annotates its matches as "do not quantize" (_annotated, no specs), which blocks
//   the later stages. Mixing QAT / non-QAT or static / dynamic configs skips the setter with a warning.
// Patterns are found as get_source_partitions finds them in a graph from torch 2.14's non-strict export,
// which has no source_fn_stack: a module type (Conv2d, BatchNorm2d, Linear, ReLU, ...) is the class of a
// node's innermost nn_module_stack frame, operator.add is aten.add (its torch_fn names "add"); a function
// such as F.relu matches nothing, so conv -> F.relu is no conv + relu pattern, while conv -> an nn.ReLU
// module is (every relu of the zoo is one, graph/models.cpp). A partition is one node; sequential
// partitions are producer -> user chains.
// Deviation: a node annotated by another quantizer (no X86 flag) counts as "not a quantized output"
// where torchao would fail an assertion. get_x86_inductor_linear_dynamic_fp16_config is not provided:
// the engine has no float16 dtype.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pt2e/quantizer.h"
#include "pt2e/quantizer_utils.h"

namespace pt {

// uint8 activations (HistogramObserver; FusedMovingAvgObsFakeQuantize for QAT; PlaceholderObserver for
// dynamic; FakeQuantize(MovingAverageMinMaxObserver, averaging_constant=1) for QAT dynamic), int8
// per-channel weights (PerChannelMinMaxObserver; QAT: FusedMovingAvgObsFakeQuantize over
// MovingAveragePerChannelMinMaxObserver), eps 2^-12, output activation = input activation.
QuantizationConfig get_default_x86_inductor_quantization_config(bool is_qat = false, bool is_dynamic = false,
                                                                bool reduce_range = false);

// node.meta annotation written by X86InductorQuantizer: a QuantizationAnnotation plus the flag.
struct X86InductorQuantizationAnnotation : QuantizationAnnotation {
  bool _is_output_of_quantized_pattern = false;
  std::shared_ptr<const NodeAnnotation> with_nodes_remapped(
      const std::function<Node*(const Node*)>& map) const override;
};

// Annotated by X86InductorQuantizer with `_is_output_of_quantized_pattern` set.
bool is_output_of_quantized_pattern(const Node* node);

class X86InductorQuantizer : public Quantizer {
 public:
  // A pattern filter: gets the nodes of one match.
  using PatternFilter = std::function<bool(const std::vector<Node*>& nodes)>;

  X86InductorQuantizer& set_global(std::optional<QuantizationConfig> config);
  X86InductorQuantizer& set_module_name_qconfig(const std::string& module_name, std::optional<QuantizationConfig> config);
  // Module classes: "torch.nn.Conv2d" (or "torch.nn.modules.conv.Conv2d"), Linear, MaxPool2d, AvgPool2d,
  // AdaptiveAvgPool2d; functions: "torch.nn.functional.conv1d" (or "F.conv1d"), conv2d, linear,
  // max_pool2d, avg_pool2d, adaptive_avg_pool2d, "torch.cat", "torch.flatten", "torch.matmul",
  // "torch.mul". Each maps to an aten operator and stores an operator-type config; any other name is
  // skipped with a warning, as torchao does.
  X86InductorQuantizer& set_module_type_qconfig(const std::string& module_type, std::optional<QuantizationConfig> config);
  X86InductorQuantizer& set_function_type_qconfig(const std::string& function_type,
                                                  std::optional<QuantizationConfig> config);

  const std::optional<QuantizationConfig>& global_config() const { return global_config_; }
  // Messages torchao would emit with warnings.warn (skipped configs, unknown types, unquantized pools).
  const std::vector<std::string>& warnings() const { return warnings_; }

  void annotate(GraphModule& gm) override;
  void validate(const GraphModule& gm) const override { (void)gm; }

 private:
  using ConfigList = std::vector<std::pair<std::string, std::optional<QuantizationConfig>>>;  // a Python dict
  bool need_skip_config(const std::optional<QuantizationConfig>& config);
  X86InductorQuantizer& set_mapped_operator_qconfig(const std::string& kind, const std::string& name,
                                                    std::optional<QuantizationConfig> config);
  void annotate_with_config(GraphModule& gm, const std::optional<QuantizationConfig>& config,
                            const PatternFilter& filter);

  std::optional<QuantizationConfig> global_config_;
  ConfigList operator_type_qconfig_;  // keyed by aten target (target::conv2d, ...)
  ConfigList module_name_qconfig_;
  std::vector<std::string> warnings_;
};

}  // namespace pt
