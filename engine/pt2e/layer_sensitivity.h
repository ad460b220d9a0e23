// layer_sensitivity.h — what lesson M05 builds on the numeric debugger (pt2e/numeric_debugger.h): per-node
// SQNR of a quantized model, which layers are sensitive to quantization, and the model's SQNR as more
// layers are kept in float.
//
//   pt::QuantizationData data{calibration, x};                  // calibration batches; the inputs compared on
//   auto quantizer_for = [](const std::vector<std::string>& keep_float) {   // the backend's own way to skip layers
//     auto q = std::make_shared<pt::X86InductorQuantizer>();
//     q->set_global(pt::get_default_x86_inductor_quantization_config());
//     for (const std::string& layer : keep_float) q->set_module_name_qconfig(layer, std::nullopt);
//     return q;
//   };
//   pt::NumericComparison c = pt::quantize_and_compare(exported, *quantizer_for({}), data);
//   c.model_sqnr; c.nodes;                                      // output SQNR, compare_results per handle
//   auto alone = pt::quantize_one_layer_alone(exported, quantizer_for, pt::layer_names(exported), data);
//   auto kept = pt::keep_one_layer_float(exported, quantizer_for, pt::layer_names(exported), data);
//   auto curve = pt::sqnr_vs_layers_kept_float(exported, quantizer_for, pt::rank_by_sensitivity(alone), data);
//
// A layer is a conv or linear module, named by its module path as nn_module_stack holds it ("conv1", "fc");
// layer_names lists them in graph order. Keeping layers in float is the quantizer's business, so the helpers
// take a quantizer maker: for a list of layers to keep in float, a quantizer that skips them — with a None
// config where the backend supports it (X86InductorQuantizer.set_module_name_qconfig(name, None); ExecuTorch's
// XNNPACKQuantizer.set_module_type(type, None) for a whole type), or by configuring only the other layers
// (XNNPACKQuantizer.set_module_name(name, config) for each, no global config).
//
// quantize_and_compare(exported, quantizer, data): a copy of `exported` gets numeric debug handles (those it
// has are kept); the float reference is that copy with its batch norms folded (fold_bn, as prepare_pt2e folds
// them: numeric_debugger.h); the quantized model is prepare_pt2e → one forward per calibration batch →
// convert_pt2e of the copy; both run `data.inputs` through prepare_for_propagation_comparison and
// compare_results; model_sqnr is compute_sqnr(quantized output, float output) on the inputs (dB, +inf
// when equal). `exported` is not changed.
// quantize_one_layer_alone: for each layer L, the model SQNR when every other layer is kept in float (L is
// quantized together with whatever the quantizer quantizes outside the layers). keep_one_layer_float: for
// each L, the model SQNR with L alone kept in float. rank_by_sensitivity: the layers of a quantize-alone
// result, most sensitive (lowest SQNR) first — the numeric debugger's ranking.
// sqnr_vs_layers_kept_float(order): point k keeps order[0..k) in float, k = 0 .. order.size().
// (Colouring a graph view by SQNR: the JS API's pt.sqnr_by_node gives each node of a graph the SQNR of its
// handle, so an op and the q / dq nodes convert made of it share a colour.)
// Errors: ValueError for no calibration batch, a layer name that is not one of layer_names, or a model
// with other than one output; the passes' and the quantizer's own errors pass through.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "pt2e/numeric_debugger.h"
#include "pt2e/quantizer.h"

namespace pt {

struct QuantizationData {
  std::vector<Tensor> calibration;  // one forward of the prepared model per batch
  Tensor inputs;                    // what float and quantized models are compared on
};

using QuantizerForKeptFloat = std::function<std::shared_ptr<Quantizer>(const std::vector<std::string>& keep_float)>;

struct NumericComparison {
  GraphModule reference;  // the float model with handles, batch norms folded
  GraphModule quantized;  // convert_pt2e's result, with the same handles
  std::map<int64_t, NodeAccuracySummary> nodes;
  double model_sqnr = 0;
};

struct LayerSQNR {
  std::vector<std::string> kept_float;  // the layers the quantizer was told to keep in float
  std::string layer;                    // the layer the point is about ("" for a curve point)
  double model_sqnr = 0;
};

std::vector<std::string> layer_names(const GraphModule& gm);
NumericComparison quantize_and_compare(const GraphModule& exported, Quantizer& quantizer, const QuantizationData& data);
std::vector<LayerSQNR> quantize_one_layer_alone(const GraphModule& exported, const QuantizerForKeptFloat& quantizer_for,
                                                const std::vector<std::string>& layers, const QuantizationData& data);
std::vector<LayerSQNR> keep_one_layer_float(const GraphModule& exported, const QuantizerForKeptFloat& quantizer_for,
                                            const std::vector<std::string>& layers, const QuantizationData& data);
std::vector<std::string> rank_by_sensitivity(const std::vector<LayerSQNR>& quantize_alone);
std::vector<LayerSQNR> sqnr_vs_layers_kept_float(const GraphModule& exported, const QuantizerForKeptFloat& quantizer_for,
                                                 const std::vector<std::string>& order, const QuantizationData& data);

}  // namespace pt
