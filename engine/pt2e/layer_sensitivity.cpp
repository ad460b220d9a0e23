// layer_sensitivity.cpp — quantize_and_compare and the per-layer experiments (see layer_sensitivity.h).
#include "pt2e/layer_sensitivity.h"

#include <algorithm>

#include "graph/passes.h"
#include "graph/targets.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "quant/quantize.h"

namespace pt {

namespace {

// The module path of a conv / linear node, or "" when it is not a layer.
std::string layer_of(const Node& n) {
  if (!(is_call(&n, group::conv) || is_call(&n, group::linear)) || n.meta.nn_module_stack.empty()) return "";
  return n.meta.nn_module_stack.back().fqn;
}

void check_layers(const GraphModule& gm, const std::vector<std::string>& layers) {
  const std::vector<std::string> known = layer_names(gm);
  for (const std::string& l : layers)
    if (std::find(known.begin(), known.end(), l) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw ValueError("no layer named '" + l + "' in the model (its layers: " + list + ")");
    }
}

// The logged output of `gm` (with loggers) on x: runs it and returns its one output.
Tensor run_one_output(GraphModule& gm, const Tensor& x) {
  const std::vector<Tensor> out = gm.forward({x});
  if (out.size() != 1) throw ValueError("the model has " + std::to_string(out.size()) + " outputs, expected 1");
  return out[0];
}

LayerSQNR point(const GraphModule& exported, const QuantizerForKeptFloat& quantizer_for,
                std::vector<std::string> keep_float, std::string layer, const QuantizationData& data) {
  const std::shared_ptr<Quantizer> q = quantizer_for(keep_float);
  if (!q) throw ValueError("the quantizer maker returned no quantizer");
  const double s = quantize_and_compare(exported, *q, data).model_sqnr;
  return {std::move(keep_float), std::move(layer), s};
}

}  // namespace

std::vector<std::string> layer_names(const GraphModule& gm) {
  std::vector<std::string> out;
  for (const Node* n : gm.graph.nodes()) {
    const std::string l = layer_of(*n);
    if (!l.empty() && std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
  }
  return out;
}

NumericComparison quantize_and_compare(const GraphModule& exported, Quantizer& quantizer, const QuantizationData& data) {
  if (data.calibration.empty()) throw ValueError("quantize_and_compare: expected at least one calibration batch");
  GraphModule model = exported.clone();
  generate_numeric_debug_handle(model);
  GraphModule reference = model.clone();
  fold_bn(reference);
  GraphModule prepared = prepare_pt2e(model, quantizer);
  for (const Tensor& x : data.calibration) prepared.forward({x});
  GraphModule quantized = convert_pt2e(prepared);

  GraphModule ref_logged = prepare_for_propagation_comparison(reference);
  GraphModule act_logged = prepare_for_propagation_comparison(quantized);
  const Tensor ref_out = run_one_output(ref_logged, data.inputs);
  const Tensor act_out = run_one_output(act_logged, data.inputs);
  NumericComparison c{std::move(reference), std::move(quantized),
                      compare_results(extract_results_from_loggers(ref_logged), extract_results_from_loggers(act_logged)),
                      sqnr(act_out, ref_out)};
  return c;
}

std::vector<LayerSQNR> quantize_one_layer_alone(const GraphModule& exported, const QuantizerForKeptFloat& quantizer_for,
                                                const std::vector<std::string>& layers, const QuantizationData& data) {
  check_layers(exported, layers);
  const std::vector<std::string> all = layer_names(exported);
  std::vector<LayerSQNR> out;
  for (const std::string& l : layers) {
    std::vector<std::string> others;
    for (const std::string& o : all)
      if (o != l) others.push_back(o);
    out.push_back(point(exported, quantizer_for, others, l, data));
  }
  return out;
}

std::vector<LayerSQNR> keep_one_layer_float(const GraphModule& exported, const QuantizerForKeptFloat& quantizer_for,
                                            const std::vector<std::string>& layers, const QuantizationData& data) {
  check_layers(exported, layers);
  std::vector<LayerSQNR> out;
  for (const std::string& l : layers) out.push_back(point(exported, quantizer_for, {l}, l, data));
  return out;
}

std::vector<std::string> rank_by_sensitivity(const std::vector<LayerSQNR>& quantize_alone) {
  std::vector<LayerSQNR> sorted = quantize_alone;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const LayerSQNR& a, const LayerSQNR& b) { return a.model_sqnr < b.model_sqnr; });
  std::vector<std::string> out;
  for (const LayerSQNR& p : sorted) out.push_back(p.layer);
  return out;
}

std::vector<LayerSQNR> sqnr_vs_layers_kept_float(const GraphModule& exported, const QuantizerForKeptFloat& quantizer_for,
                                                 const std::vector<std::string>& order, const QuantizationData& data) {
  check_layers(exported, order);
  std::vector<LayerSQNR> out;
  for (size_t k = 0; k <= order.size(); ++k)
    out.push_back(point(exported, quantizer_for, {order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k)}, "", data));
  return out;
}

}  // namespace pt
