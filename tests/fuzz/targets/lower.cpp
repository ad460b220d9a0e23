// lower.cpp — fuzz target: lowering (engine/lower: lower.h, int8_ops.h, integer_picture.h) on random converted
// graphs: a zoo model quantized for XNNPACK (per-tensor or per-channel) or x86 (reduce_range or not),
// calibrated on data with special values (NaN, ±Inf, huge, denormal: qparams at their edges), converted with
// or without folding, then some static quantize / dequantize nodes given any qparams (scale NaN, 0, negative,
// huge or denormal; any zero point; quant_min / quant_max swapped or out of the dtype's range), lowered for
// either backend with any requantization, run on any input (values or shape), and the integer pictures of any
// node at none, one or a few indices; then, at times, a conv's params edited to name the other weight layout
// (int8_ops.h WeightLayout) and the graph run and pictured again.
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"
#include "graph_input.h"
#include "lower/int8_ops.h"
#include "lower/integer_picture.h"
#include "lower/lower.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

using namespace pt;

namespace {

GraphModule quantized(fuzz::Input& in, const Model& m, const GraphModule& exported) {
  const auto calibrate_and_convert = [&](Quantizer& q) {
    GraphModule prepared = prepare_pt2e(exported, q);
    for (int i = 0, n = static_cast<int>(in.range(1, 2)); i < n; ++i) {
      std::vector<Tensor> x = example_inputs(m, 1);
      if (in.flag()) x = {in.tensor(x[0].shape())};  // special values
      prepared.forward(x);
    }
    return convert_pt2e(prepared, false, in.flag());
  };
  if (in.flag()) {
    XNNPACKQuantizer q;
    q.set_global(get_symmetric_quantization_config({.is_per_channel = in.flag()}));
    return calibrate_and_convert(q);
  }
  X86InductorQuantizer q;
  q.set_global(get_default_x86_inductor_quantization_config(false, false, in.flag()));
  return calibrate_and_convert(q);
}

// Any qparams on a static per-tensor quantize / dequantize node.
void any_qparams(fuzz::Input& in, GraphModule& gm) {
  std::vector<Node*> qdq;
  for (Node* n : gm.graph.nodes())
    if (per_tensor_qparams(*n)) qdq.push_back(n);
  for (int i = 0, n = static_cast<int>(in.range(0, 3)); i < n && !qdq.empty(); ++i) {
    Node* node = in.pick(qdq);
    QDQArgs a = *qdq_args(*node);
    if (in.flag()) a.scale = Arg(in.special_double());
    if (in.flag()) a.zero_point = Arg(in.edgy_int());
    if (in.byte() % 4 == 0) a.quant_min = in.edgy_int();
    if (in.byte() % 4 == 0) a.quant_max = in.edgy_int();
    gm.graph.set_args(node, qdq_arg_list(a));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  return fuzz::expect_typed([&] {
    const auto [m, exported] = fuzz::zoo_graph(in);
    GraphModule converted = quantized(in, m, exported);
    any_qparams(in, converted);
    static const std::vector<kernels::RequantKind> kinds = {kernels::RequantKind::fp32, kernels::RequantKind::fixed_point,
                                                            kernels::RequantKind::shift};
    Lowered l = lower(converted, {in.flag() ? LowerBackend::xnnpack : LowerBackend::x86, in.pick(kinds)});
    std::vector<Tensor> x = example_inputs(m, in.range(1, 2));
    if (in.flag()) x = {in.tensor(in.byte() % 4 == 0 ? in.small_shape() : x[0].shape())};
    fuzz::expect_typed([&] { l.gm.forward(x); });
    std::vector<std::string> names;
    for (const Node* n : l.gm.graph.nodes()) names.push_back(n->name);
    std::vector<int64_t> indices(static_cast<size_t>(in.range(0, 3)));  // none, one or a few elements in one call
    for (int64_t& i : indices) i = in.flag() ? in.range(0, 64) : in.edgy_int();
    fuzz::expect_typed([&] { integer_pictures(l.gm, in.name(names), x, indices); });
    std::vector<Node*> convs;
    for (Node* n : l.gm.graph.nodes())
      if (is_call(n, target::int8_conv2d)) convs.push_back(n);
    if (convs.empty() || !in.flag()) return;
    const Node* conv = in.pick(convs);
    const std::string params = int8_args(*conv)->params->target;
    Int8Params p = Int8Params::from(l.gm.get_tensor(params));
    p.weight_layout = p.weight_layout == static_cast<int32_t>(WeightLayout::taps) ? static_cast<int32_t>(WeightLayout::channel_pairs)
                                                                                 : static_cast<int32_t>(WeightLayout::taps);
    l.gm.set_tensor(params, p.to_tensor());
    fuzz::expect_typed([&] { l.gm.forward(x); });
    integer_pictures(l.gm, conv->name, x, indices);
  });
}
