// test_executorch_x86_sqnr.cpp — every zoo model through every configuration of the quantizers H7 owns
// (ExecuTorch XNNPACKQuantizer: PTQ per-tensor, per-channel, dynamic; X86InductorQuantizer: PTQ,
// PTQ reduce_range, dynamic): prepare_pt2e, calibrate on 4 batches, convert_pt2e, run, and SQNR of the
// converted output against the float model on a held-out batch. Prints the table (markdown) that
// tests/engine/pt2e/README_sqnr.md reproduces.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/report.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizers/executorch_xnnpack_quantizer.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"
#include "quant/quantize.h"

using namespace pt;

namespace {

struct Setup {
  std::string quantizer, config;
  std::function<std::shared_ptr<Quantizer>()> make;
};

std::vector<Setup> setups() {
  auto et = [](SymmetricQuantizationOptions o) {
    return [o] {
      auto q = std::make_shared<executorch::XNNPACKQuantizer>();
      q->set_global(executorch::get_symmetric_quantization_config(o));
      return std::shared_ptr<Quantizer>(q);
    };
  };
  auto x86 = [](bool is_dynamic, bool reduce_range) {
    return [=] {
      auto q = std::make_shared<X86InductorQuantizer>();
      q->set_global(get_default_x86_inductor_quantization_config(false, is_dynamic, reduce_range));
      return std::shared_ptr<Quantizer>(q);
    };
  };
  return {{"executorch.XNNPACKQuantizer", "PTQ per-tensor", et({})},
          {"executorch.XNNPACKQuantizer", "PTQ per-channel", et({.is_per_channel = true})},
          {"executorch.XNNPACKQuantizer", "dynamic per-channel", et({.is_per_channel = true, .is_dynamic = true})},
          {"X86InductorQuantizer", "PTQ", x86(false, false)},
          {"X86InductorQuantizer", "PTQ reduce_range", x86(false, true)},
          {"X86InductorQuantizer", "dynamic", x86(true, false)}};
}

// 5 batches of 4: image models use the synthetic calibration set, vector models randn.
std::vector<Tensor> batches(const Model& m) {
  std::vector<Tensor> out;
  if (m.input_shape.size() == 3) {
    for (const Batch& b : calibration_batches(20, 4, m.input_shape)) out.push_back(b.x);
  } else {
    for (int i = 0; i < 5; ++i) out.push_back(example_inputs(m, 4)[0]);
  }
  return out;
}

std::string fmt_db(float db) {
  if (std::isinf(db)) return "inf (identical)";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", db);
  return buf;
}

}  // namespace

TEST_CASE("every zoo model under every ExecuTorch and X86 configuration prepares converts and runs with an SQNR table",
          "[sqnr]") {
  Table table{{"model", "quantizer", "config", "observers", "q/dq nodes", "SQNR vs fp32 (dB)"}, {}};
  for (const std::string& name : model_names()) {
    for (const Setup& s : setups()) {
      INFO(name << " / " << s.quantizer << " " << s.config);
      manual_seed(0);
      Model m = get_model(name);
      GraphModule gm = export_module(m, example_inputs(m, 4));
      const std::vector<Tensor> data = batches(m);
      auto q = s.make();
      GraphModule prepared = prepare_pt2e(gm, *q);
      for (size_t i = 0; i + 1 < data.size(); ++i) prepared.forward({data[i]});
      GraphModule converted = convert_pt2e(prepared);
      converted.graph.lint();
      const Tensor ref = gm.forward({data.back()})[0];
      const Tensor out = converted.forward({data.back()})[0];
      const float db = sqnr(ref, out);
      const size_t n_qdq = qdq_nodes(converted).size();
      CHECK(observer_nodes(converted).empty());
      if (n_qdq == 0) {
        CHECK(db > 80.0f);  // nothing quantized: float agreement (batch norm folded by prepare)
      } else {
        CHECK(std::isfinite(db));
        CHECK(db > 15.0f);
      }
      table.rows.push_back({name, s.quantizer, s.config, std::to_string(observer_nodes(prepared).size()),
                            std::to_string(n_qdq), fmt_db(db)});
    }
  }
  std::cout << table.to_markdown() << std::flush;
}
