// test_reference_representation.cpp — convert_pt2e(use_reference_representation=true) (pt2e/
// reference_representation.h): the int8 per-tensor patterns become torchao's reference ops, and the
// model's output stays within one quantization step of the q/dq graph's, as torchao's
// test_representation.py asserts (|Δ| ≤ 2·out_scale), on every zoo model under torchao's
// XNNPACKQuantizer per-tensor (conv / linear rewritten whole) and per-channel (q / dq rewritten only).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

using namespace pt;

TEST_CASE("reference representation: integer patterns, output within torchao's tolerance of the q/dq graph", "[reference]") {
  for (const bool per_channel : {false, true}) {
    for (const std::string& name : model_names()) {
      INFO(name << (per_channel ? " per-channel" : " per-tensor"));
      manual_seed(0);
      Model m = get_model(name);
      GraphModule gm = export_module(m, example_inputs(m, 4));
      XNNPACKQuantizer q;
      q.set_global(get_symmetric_quantization_config({.is_per_channel = per_channel}));
      GraphModule prepared = prepare_pt2e(gm, q);
      for (int i = 0; i < 3; ++i) prepared.forward(example_inputs(m, 4));
      GraphModule qdq = convert_pt2e(prepared);
      GraphModule ref = convert_pt2e(prepared, /*use_reference_representation=*/true);
      std::map<std::string, int> count;
      for (const Node* n : ref.graph.nodes()) ++count[n->target];
      // No int8 quantized_decomposed node is left: every pattern or q / dq became a reference op.
      for (const Node* n : ref.graph.nodes()) {
        const auto a = qdq_args(*n);
        CHECK(!(a && a->dtype == DType::Int8));
      }
      // conv → relu is no torchao conv pattern (its replacement has no relu): conv_relu's conv stays float;
      // residual's second conv feeds the add through its own q / dq.
      if (!per_channel && name == "residual") CHECK(count[target::reference_quantized_conv2d] == 1);
      if (!per_channel && name == "mlp") CHECK(count[target::reference_quantized_linear] == 1);  // fc2 (fc1 → relu is no pattern)
      if (!per_channel && name == "residual") CHECK(count[target::reference_quantized_add_relu] == 1);
      if (per_channel && name == "conv_relu") CHECK(count[target::reference_dequantize_per_channel_int8] == 1);
      // The tolerance of torchao's test: two steps of the output's scale; three where an add_relu is rewritten,
      // whose replacement truncates each input's term (out_dtype(mul, int32)) before the sum.
      double out_scale = 0;
      for (const Node* n : qdq.graph.nodes())
        if (const auto p = per_tensor_qparams(*n); p && node_kind(*n) == NodeKind::dequantize) out_scale = p->scale;
      const std::vector<Tensor> x = example_inputs(m, 4);
      const Tensor a = qdq.forward(x)[0], b = ref.forward(x)[0];
      REQUIRE(a.shape() == b.shape());
      double worst = 0;
      for (int64_t i = 0; i < a.numel(); ++i) worst = std::max(worst, std::abs(double(a.data<float>()[i]) - b.data<float>()[i]));
      const double steps = count[target::reference_quantized_add_relu] ? 3 : 2;
      CHECK(worst <= steps * out_scale + 1e-5);
    }
  }
}
