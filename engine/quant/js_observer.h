// js_observer.h — JsObserver: an observer made of callbacks, so an observer class written in
// JavaScript (a lesson cell's power-of-two observer) can be the observer_or_fake_quant_ctr of a
// QuantizationSpec and reach prepare_pt2e / convert_pt2e like the engine's classes. The JS bindings
// (web/bindings/bind_pt2e.cpp) register such a class by its name with a factory that builds a new JS
// instance and wraps its methods as these callbacks; C++ can pass lambdas.
//
//   pt::JsObserver::Callbacks cb{
//       [&](const pt::Tensor& x) { seen.push_back(x.clone()); },         // forward: record statistics
//       [&] { return pt::QParams{pt::Tensor::full({1}, 0.125f), pt::Tensor::zeros({1}, pt::DType::Int32)}; }};
//   pt::JsObserver obs("Pow2Observer", args, cb);
//
// The engine checks what calculate_qparams returns before anything uses it, and names the observer:
// a count of scales other than 1 (per tensor) or the channels forward saw along ch_axis (per channel),
// zero points of another count, a scale that is not finite and > 0, a zero point that is no integer of
// [quant_min, quant_max] — ValueError "<Name>.calculate_qparams() returned ...". An error a callback
// throws passes through, prefixed with the observer's name. The configuration comes from the keywords
// prepare_pt2e passes (dtype, quant_min / quant_max, qscheme, ch_axis, eps, as for any observer class;
// defaults int8, its full range, per_tensor_affine). Its state lives in the callbacks' owner (a JS
// object), so GraphModule::clone shares the instance instead of rebuilding it (pt2e/observer_module.h).
#pragma once
#include <functional>
#include <string>

#include "quant/observer.h"

namespace pt {

class JsObserver : public ObserverBase {
 public:
  struct Callbacks {
    std::function<void(const Tensor& x)> forward;
    std::function<QParams()> calculate_qparams;
    std::function<std::vector<NamedBuffer>()> named_buffers = nullptr;  // optional: none
    std::function<void()> release = nullptr;                            // optional: called once, at destruction
  };
  // TypeError for a missing forward or calculate_qparams; ValueError for a bad range or dtype.
  JsObserver(std::string name, const ObserverArgs& args, Callbacks callbacks);
  ~JsObserver() override;

  const char* type_name() const override { return name_.c_str(); }
  Tensor forward(const Tensor& x) override;
  QParams calculate_qparams() const override;
  std::vector<NamedBuffer> named_buffers() const override;

 private:
  std::string name_;
  Callbacks cb_;
  int64_t channels_ = -1;  // the size along ch_axis forward last saw (per channel)
};

// The checks calculate_qparams applies to a result: as described above. `who` names the observer.
void check_observer_qparams(const std::string& who, const ObserverConfig& config, int64_t channels, const QParams& qp);

}  // namespace pt
