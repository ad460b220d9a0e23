// qat_flow.cpp — apply, the fake-quantize switches and freeze_bn_stats (see qat_flow.h).
#include "pt2e/qat_flow.h"

#include <set>

#include "graph/passes.h"
#include "pt2e/observer_module.h"
#include "quant/fake_quantize.h"

namespace pt {

std::vector<std::shared_ptr<ObserverBase>> observer_instances(const GraphModule& gm) {
  std::vector<std::shared_ptr<ObserverBase>> out;
  std::set<const ObserverBase*> seen;
  for (const auto& [name, module] : gm.modules())
    if (const auto* m = dynamic_cast<const ObserverModule*>(module.get()); m && seen.insert(&m->observer()).second)
      out.push_back(m->observer_ptr());
  return out;
}

void apply(GraphModule& gm, const std::function<void(ObserverBase&)>& fn) {
  for (const std::shared_ptr<ObserverBase>& o : observer_instances(gm)) fn(*o);
}

namespace {
template <class F>
void if_fake_quantize(ObserverBase& mod, F&& f) {
  if (auto* fq = dynamic_cast<FakeQuantizeBase*>(&mod)) f(*fq);
}
}  // namespace

void disable_observer(ObserverBase& mod) { if_fake_quantize(mod, [](FakeQuantizeBase& fq) { fq.disable_observer(); }); }
void enable_observer(ObserverBase& mod) { if_fake_quantize(mod, [](FakeQuantizeBase& fq) { fq.enable_observer(); }); }
void disable_fake_quant(ObserverBase& mod) { if_fake_quantize(mod, [](FakeQuantizeBase& fq) { fq.disable_fake_quant(); }); }
void enable_fake_quant(ObserverBase& mod) { if_fake_quantize(mod, [](FakeQuantizeBase& fq) { fq.enable_fake_quant(); }); }

int freeze_bn_stats(GraphModule& gm) { return move_exported_model_to_eval(gm); }

}  // namespace pt
