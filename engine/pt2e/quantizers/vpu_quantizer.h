// vpu_quantizer.h — VPUQuantizer: a quantizer for a fictional VPU, the course's example of writing a
// backend's hardware rules as a quantizer (lesson M10). It follows the shape of torchao's backend
// quantizers (XNNPACKQuantizer: a config, annotators per pattern, validate) with the VPU's rules:
//
//   power-of-two scales   every activation and weight scale is 2^k (PowerOfTwoMinMaxObserver,
//                         quant/power_of_two_observer.h: the MinMax scale rounded UP to 2^k, so no
//                         observed value clips), so every requantization is a shift (engine/lower/vpu.h);
//   symmetric int8        activations int8 [-128, 127], weights int8 [-127, 127], zero point 0, one
//                         scale per weight tensor (per tensor: the VPU applies one shift per op);
//   int32 derived bias    a DerivedQuantizationSpec: scale s_act · s_w, zero point 0, int32;
//   shared scales         add and cat read their inputs as codes of one scale: the second and later inputs
//                         and the output share the first input's observer (SharedQuantizationSpec), as do
//                         max_pool2d, flatten and the means (which copy or average codes);
//   Q3.12 output          the op that produces the model's output writes int16 codes of scale 2^-12
//                         (FixedQParamsQuantizationSpec: 3 integer bits, 12 fraction bits, range [-8, 8));
//   fused relu only       relu runs as the clamp of the conv / linear / add before it (its only user).
//
//   pt::VPUQuantizer q;
//   q.set_global(pt::get_vpu_quantization_config());
//   pt::GraphModule prepared = pt::prepare_pt2e(gm, q);   // validate() runs inside, after annotate
//
// validate(gm) checks the VPU can run every op of the graph and throws NotImplementedError naming the
// first node it cannot, its target and why: an op it has no unit for (sigmoid, batch_norm left unfolded,
// ...), a relu not fused into the op before it, an add that broadcasts, a conv with dilation, a mean
// over a count of elements that is no power of two (its 1/count would be no shift), or a model output
// produced by an op that does not requantize (max_pool2d, cat, flatten: they copy codes).
// Registered as pt.VPUQuantizer with set_global, and get_vpu_quantization_config() (no keywords).
#pragma once
#include <optional>

#include "pt2e/quantizer.h"
#include "pt2e/quantizer_utils.h"

namespace pt {

inline constexpr double kQ3_12Scale = 1.0 / 4096.0;  // 2^-12: the Q3.12 output's scale

// Activations: int8 per_tensor_symmetric PowerOfTwoMinMaxObserver (eps 2^-12); weights: the same with
// [-127, 127]; no bias spec (VPUQuantizer derives it); not QAT.
QuantizationConfig get_vpu_quantization_config();
// The model output's spec: int16, scale 2^-12, zero point 0, [-32768, 32767].
FixedQParamsQuantizationSpec vpu_output_qspec();

class VPUQuantizer : public Quantizer {
 public:
  VPUQuantizer& set_global(const QuantizationConfig& config);
  void annotate(GraphModule& gm) override;
  void validate(const GraphModule& gm) const override;

  std::optional<QuantizationConfig> global_config;
};

// The rule validate() applies to one node: "" when the VPU runs it, else why not.
std::string vpu_unsupported_reason(const GraphModule& gm, const Node* n);

}  // namespace pt
