// test_qat_flow.cpp — the QAT flow's switches (pt2e/qat_flow.h): apply over a prepared model, torchao's
// disable_observer / enable_observer / disable_fake_quant / enable_fake_quant, and freeze_bn_stats.
#include <catch2/catch.hpp>

#include <set>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "graph/targets.h"
#include "ops/golden.h"
#include "pt2e/observer_module.h"
#include "pt2e/prepare.h"
#include "pt2e/qat_flow.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"
#include "quant/fake_quantize.h"

using namespace pt;

namespace {

struct Qat {
  GraphModule float_gm, prepared;
};

Qat prepared_tiny() {
  manual_seed(0);
  const Model m = get_model("tiny");
  GraphModule gm = export_module(m, example_inputs(m, 4));
  XNNPACKQuantizer q;
  q.set_global(get_symmetric_quantization_config({.is_per_channel = true, .is_qat = true}));
  GraphModule prepared = prepare_qat_pt2e(gm, q);
  return {std::move(gm), std::move(prepared)};
}

std::vector<FakeQuantizeBase*> fake_quants(GraphModule& gm) {
  std::vector<FakeQuantizeBase*> out;
  apply(gm, [&](ObserverBase& o) {
    if (auto* fq = dynamic_cast<FakeQuantizeBase*>(&o)) out.push_back(fq);
  });
  return out;
}

}  // namespace

TEST_CASE("apply visits each observer instance of a prepared model once") {
  Qat q = prepared_tiny();
  std::set<const ObserverBase*> distinct;
  for (auto& [name, module] : q.prepared.modules())
    if (auto* m = dynamic_cast<ObserverModule*>(module.get())) distinct.insert(&m->observer());
  int visits = 0;
  apply(q.prepared, [&](ObserverBase&) { ++visits; });
  CHECK(visits == static_cast<int>(distinct.size()));
  CHECK(visits > 0);
  CHECK(fake_quants(q.prepared).size() == distinct.size());  // QAT configs insert fake quantizes only
}

TEST_CASE("disable_observer keeps the qparams; disable_fake_quant passes values through; enable_* undo them") {
  Qat q = prepared_tiny();
  move_exported_model_to_eval(q.prepared);  // batch norms keep the float model's running statistics
  const Tensor x = randn({4, 3, 16, 16});
  q.prepared.forward({x});
  apply(q.prepared, disable_observer);
  std::vector<Tensor> scales;
  for (FakeQuantizeBase* fq : fake_quants(q.prepared)) {
    CHECK_FALSE(fq->observer_enabled());
    scales.push_back(fq->calculate_qparams().scale.clone());
  }
  Tensor wide = randn({4, 3, 16, 16});
  for (float& v : wide.span<float>()) v *= 5.f;  // a range the observers would have widened to
  q.prepared.forward({wide});
  const std::vector<FakeQuantizeBase*> fqs = fake_quants(q.prepared);
  for (size_t i = 0; i < fqs.size(); ++i) CHECK(golden::bit_equal(fqs[i]->calculate_qparams().scale, scales[i]));

  // fake quant off: the prepared QAT graph computes the float model (batch norms in eval mode in both)
  apply(q.prepared, disable_fake_quant);
  const Tensor ours = q.prepared.forward({x})[0], want = q.float_gm.forward({x})[0];
  CHECK(golden::max_rel_diff(ours, want) < 1e-5);

  apply(q.prepared, enable_fake_quant);
  apply(q.prepared, enable_observer);
  for (FakeQuantizeBase* fq : fake_quants(q.prepared)) {
    CHECK(fq->fake_quant_enabled());
    CHECK(fq->observer_enabled());
  }
  CHECK(golden::max_rel_diff(q.prepared.forward({x})[0], want) > 1e-4);  // quantization shows again
}

TEST_CASE("the flags are buffers: clone carries them; observers are not touched by the switches") {
  Qat q = prepared_tiny();
  apply(q.prepared, disable_fake_quant);
  GraphModule copy = q.prepared.clone();
  for (FakeQuantizeBase* fq : fake_quants(copy)) CHECK_FALSE(fq->fake_quant_enabled());
  MinMaxObserver plain;
  disable_observer(plain);  // not a fake quantize: nothing to switch, no error
  enable_fake_quant(plain);
}

TEST_CASE("freeze_bn_stats sets every QAT batch norm to use and keep its running statistics") {
  Qat q = prepared_tiny();
  move_exported_model_to_train(q.prepared);
  CHECK(freeze_bn_stats(q.prepared) == 4);
  CHECK(freeze_bn_stats(q.prepared) == 0);
  const Node* bn = nullptr;
  for (Node* n : q.prepared.graph.nodes())
    if (is_call(n, target::batch_norm)) bn = n;
  REQUIRE(bn);
  const Tensor rm = q.prepared.get_tensor(arg_node(bn, 3)->target).clone();
  q.prepared.forward({randn({4, 3, 16, 16})});
  CHECK(golden::bit_equal(q.prepared.get_tensor(arg_node(bn, 3)->target), rm));
}
