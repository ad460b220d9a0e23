// xnnpack_quantizer.h — XNNPACKQuantizer as torchao's testing copy has it
// (torchao/testing/pt2e/_xnnpack_quantizer.py + _xnnpack_quantizer_utils.py; docs/algorithms.md).
// This is the quantizer the course's M01–M07 use, with its quirks on torch 2.14 graphs kept.
//
//   pt::XNNPACKQuantizer q;
//   q.set_global(pt::get_symmetric_quantization_config({.is_per_channel = true}));
//   pt::GraphModule prepared = pt::prepare_pt2e(gm, q);     // pt2e/prepare.h
//
// What it does, in torchao's order:
// - transform_for_annotation: every non-Node operand of aten.add.Tensor / aten.mul.Tensor becomes a
//   0-dim float32 buffer _tensor_constant_<k> read by a get_attr (so it can be observed).
// - annotate: a dynamic global config runs only the dynamic annotators (DYNAMIC_OPS = linear); else
//   for each config (set_module_name ones, then set_module_type ones, then the global one for
//   nodes in none of those modules): the QAT-only conv+bn annotators if is_qat, then STATIC_OPS in
//   order (fusions first; an annotator skips a pattern any of whose nodes is already `_annotated`).
//   Finally propagate_annotation shares qparams through relu / max_pool2d / mean / flatten / view ...
// - cat, adaptive_avg_pool2d and gru_io_only find their nodes through get_source_partitions. torch 2.14
//   export writes no node.meta["source_fn_stack"] (nor do our graphs), and the fallback on nn_module_stack
//   matches only modules (nn.AdaptiveAvgPool2d, nn.GRU), which the zoo does not use: they annotate nothing,
//   so cat and a max_pool2d after it stay float (seed M01-2). set_operator_type is stored and ignored.
// - The conv+bn annotators (QAT) match conv2d / conv1d → batch_norm(training=True) [→ relu].
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pt2e/quantizer.h"
#include "pt2e/quantizer_utils.h"

namespace pt {

struct SymmetricQuantizationOptions {
  bool is_per_channel = false;
  bool is_qat = false;
  bool is_dynamic = false;
  int64_t act_qmin = -128;
  int64_t act_qmax = 127;
  int64_t weight_qmin = -127;
  int64_t weight_qmax = 127;
};

// int8 per-tensor affine activations (HistogramObserver, or PlaceholderObserver when dynamic,
// FusedMovingAvgObsFakeQuantize / FakeQuantize for QAT), int8 symmetric weights with ch_axis 0
// (MinMaxObserver / PerChannelMinMaxObserver, FusedMovingAvgObsFakeQuantize for QAT), eps 2^-12,
// no bias spec, no output spec when dynamic.
QuantizationConfig get_symmetric_quantization_config(const SymmetricQuantizationOptions& options = {});
// Its registry entry (pt2e/quantizer_registry.h) with SymmetricQuantizationOptions' fields as keywords, shown
// in JS as pt.get_symmetric_quantization_config (ns "") and pt.executorch.get_symmetric_quantization_config.
struct ConfigFunction;
ConfigFunction symmetric_quantization_config_function(const std::string& ns);

// The testing module's free functions live in pt::xnnpack (not pt::) so that other quantizers'
// same-named helpers (ExecuTorch's) are not ambiguous through argument-dependent lookup.
namespace xnnpack {

// One annotator: writes annotations for the patterns it finds among nodes passing `filter`.
using AnnotatorType =
    std::function<void(GraphModule& gm, const std::optional<QuantizationConfig>& config, const NodeFilter& filter)>;
// OP_TO_ANNOTATOR: "linear", "linear_relu", "conv", "conv_relu", "conv_transpose_relu", "conv_bn",
// "conv_bn_relu", "conv_transpose_bn", "conv_transpose_bn_relu", "adaptive_avg_pool2d",
// "gru_io_only", "add", "add_relu", "mul", "mul_relu", "cat". ValueError for another name.
const AnnotatorType& op_to_annotator(const std::string& op);
// propagate_annotation over torchao's share list (pt2e/quantizer_utils.h, group::xnnpack_share_obs_or_fq).
void propagate_annotation(GraphModule& gm);

}  // namespace xnnpack

class XNNPACKQuantizer : public Quantizer {
 public:
  static const std::vector<std::string>& STATIC_QAT_ONLY_OPS();
  static const std::vector<std::string>& STATIC_OPS();
  static const std::vector<std::string>& DYNAMIC_OPS();

  XNNPACKQuantizer& set_global(const QuantizationConfig& config);
  XNNPACKQuantizer& set_operator_type(const std::string& operator_type, const QuantizationConfig& config);
  // module_type: the class path as nn_module_stack holds it ("torch.nn.modules.conv.Conv2d") or its last part.
  XNNPACKQuantizer& set_module_type(const std::string& module_type, const QuantizationConfig& config);
  // ValueError for nullopt (torchao asserts: "quantization_config == None is not supported yet").
  XNNPACKQuantizer& set_module_name(const std::string& module_name, const std::optional<QuantizationConfig>& config);

  void transform_for_annotation(GraphModule& gm) override { convert_scalars_to_attrs(gm); }
  void annotate(GraphModule& gm) override;
  void validate(const GraphModule& gm) const override { (void)gm; }

  std::optional<QuantizationConfig> global_config;
  // Insertion-ordered as torchao's dicts; setting a key again replaces its config in place.
  std::vector<std::pair<std::string, QuantizationConfig>> operator_type_config;
  std::vector<std::pair<std::string, QuantizationConfig>> module_type_config;
  std::vector<std::pair<std::string, QuantizationConfig>> module_name_config;

 private:
  void annotate_with(GraphModule& gm, const std::vector<std::string>& ops, bool static_path);
};

}  // namespace pt
