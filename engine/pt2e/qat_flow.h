// qat_flow.h — the switches of torchao's QAT flow, applied to a prepared model: observers and fake quant
// turned off and on (torchao quantization/pt2e/fake_quantize.py: disable_observer, enable_observer,
// disable_fake_quant, enable_fake_quant, which a learner applies with model.apply), and freezing batch-norm
// statistics (the PT2E QAT tutorial's training loop, docs/source/pt2e_quantization/pt2e_quant_qat.rst).
//
//   pt::GraphModule prepared = pt::prepare_qat_pt2e(exported, quantizer);     // pt2e/prepare.h
//   pt::move_exported_model_to_train(prepared);                              // graph/passes.h
//   ... train some epochs (train/train_loop.h) ...
//   pt::apply(prepared, pt::disable_observer);   // prepared_model.apply(torchao.quantization.pt2e.disable_observer)
//   pt::freeze_bn_stats(prepared);               // the tutorial's "Freezing BN for subseq epochs"
//   ... train on; then move_exported_model_to_eval(prepared) and convert_pt2e(prepared) (pt2e/convert.h)
//
// apply(gm, fn) is nn.Module.apply over the observer / fake-quantize modules prepare_pt2e inserted: fn runs
// once on each distinct instance (names that share one instance share it), in registration order. The four
// functions change a fake quantize's observer_enabled / fake_quant_enabled flag (FakeQuantizeBase,
// quant/fake_quantize.h) and leave any other module alone, as torchao's do (`isinstance(mod,
// FakeQuantizeBase)`); a flag is a buffer, so clone() and state_dict() carry it. With the observer off a
// fake quantize keeps its scale and zero point; with fake quant off it passes its input through (and its
// gradient unchanged).
// freeze_bn_stats(gm): the tutorial sets argument 5 (`training`) of every training batch norm to False, so
// batch norm normalises with its running statistics and stops updating them; that is the flag
// move_exported_model_to_eval (graph/passes.h) sets, and in this engine's graphs (no dropout) nothing else
// differs between the two, so it is that pass under the tutorial's name. Returns how many nodes changed.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "graph/graph.h"
#include "quant/observer.h"

namespace pt {

void apply(GraphModule& gm, const std::function<void(ObserverBase&)>& fn);
// The distinct observer / fake-quantize instances apply visits, in its order.
std::vector<std::shared_ptr<ObserverBase>> observer_instances(const GraphModule& gm);

void disable_observer(ObserverBase& mod);
void enable_observer(ObserverBase& mod);
void disable_fake_quant(ObserverBase& mod);
void enable_fake_quant(ObserverBase& mod);

int freeze_bn_stats(GraphModule& gm);

}  // namespace pt
