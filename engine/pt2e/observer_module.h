// observer_module.h — how prepare_pt2e puts an observer into a GraphModule, and the observer for
// DerivedQuantizationSpec (torchao pt2e/observer.py DerivedObserverOrFakeQuantize).
//
// An ObserverModule is the call_module target activation_post_process_k: it wraps one observer or
// fake-quantize instance (several names may wrap the same instance, then they share statistics).
//
//   pt::ObserverBase* obs = pt::get_observer(prepared, node);   // nullptr unless node is an observer node
//   obs->calculate_qparams();
//
// describe() is the qparams cell of observer_placement_table: "scale=0.03299 zp=-5", per channel
// "scale=0.0009225 zp=0 (per-channel, n=8)" (first channel shown), "dynamic" for a dynamic
// placeholder, "-" when there are no qparams yet (PlaceholderObserver float32).
// prepare_pt2e registers one ObserverModule per observer instance, under every activation_post_process_k
// name that uses it (torch.fx's setattr of one module under several names). clone() (used by
// GraphModule::clone, i.e. copy.deepcopy) rebuilds the observer by class name and kwargs and copies its
// statistics; a DerivedObserverOrFakeQuantize is copied and, in relink(), pointed at the copies of the
// observers it derives from, as deepcopy's memo points it.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "pt2e/quantizer.h"
#include "quant/observer.h"

namespace pt {

class ObserverModule : public SubModule {
 public:
  // ctr: how the observer was built (class name + full kwargs), so clone() can rebuild it; nullopt
  // for instances that cannot be rebuilt by name (derived observers).
  ObserverModule(std::shared_ptr<ObserverBase> observer, std::optional<ObserverOrFakeQuantizeConstructor> ctr);
  std::string type_name() const override { return observer_->type_name(); }
  // A fake quantize keeps the STE mask of the call for grad_mask(); an observer passes x through.
  Tensor forward(const Tensor& x) override;
  std::string describe() const override;
  std::shared_ptr<SubModule> clone() const override;
  void relink(const ModuleCopies& copies) override;
  std::optional<Tensor> grad_mask() const override { return grad_mask_; }

  ObserverBase& observer() const { return *observer_; }
  const std::shared_ptr<ObserverBase>& observer_ptr() const { return observer_; }

 private:
  std::shared_ptr<ObserverBase> observer_;
  std::optional<ObserverOrFakeQuantizeConstructor> ctr_;
  std::optional<Tensor> grad_mask_;  // of the last forward, when fake quant was on
};

// The observer behind a call_module node of gm, or nullptr.
ObserverBase* get_observer(const GraphModule& gm, const Node* node);
std::shared_ptr<ObserverBase> get_observer_ptr(const GraphModule& gm, const Node* node);

// Identity forward; calculate_qparams() = derive_qparams_fn(obs_or_fqs). Per-channel qschemes need ch_axis.
class DerivedObserverOrFakeQuantize : public ObserverBase {
 public:
  DerivedObserverOrFakeQuantize(const DerivedQuantizationSpec& spec, std::vector<std::shared_ptr<ObserverBase>> obs_or_fqs);
  const char* type_name() const override { return "DerivedObserverOrFakeQuantize"; }
  Tensor forward(const Tensor& x) override { return x; }
  QParams calculate_qparams() const override;
  std::vector<NamedBuffer> named_buffers() const override { return {}; }
  const std::vector<std::shared_ptr<ObserverBase>>& obs_or_fqs() const { return obs_or_fqs_; }
  // The same derivation over other observers (a copy's).
  std::shared_ptr<DerivedObserverOrFakeQuantize> with_obs_or_fqs(std::vector<std::shared_ptr<ObserverBase>> obs_or_fqs) const;

 private:
  DerivedObserverOrFakeQuantize(const ObserverConfig& config, DeriveQParamsFn fn,
                                std::vector<std::shared_ptr<ObserverBase>> obs_or_fqs);
  DeriveQParamsFn fn_;
  std::vector<std::shared_ptr<ObserverBase>> obs_or_fqs_;
};

}  // namespace pt
