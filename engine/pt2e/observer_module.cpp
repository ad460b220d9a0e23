// observer_module.cpp — ObserverModule (call_module wrapper), get_observer, DerivedObserverOrFakeQuantize.
#include "pt2e/observer_module.h"

#include <cstring>

#include "graph/report.h"
#include "quant/fake_quantize.h"
#include "quant/js_observer.h"

namespace pt {

namespace {

// Copies running statistics and same-shaped buffers from `src` into a freshly built `dst` of the same class.
void copy_state(const ObserverBase& src, ObserverBase& dst) {
  const auto* us = dynamic_cast<const UniformQuantizationObserverBase*>(&src);
  auto* ud = dynamic_cast<UniformQuantizationObserverBase*>(&dst);
  if (us && ud) ud->set_min_max(us->min_val().clone(), us->max_val().clone());
  const auto* fs = dynamic_cast<const FakeQuantize*>(&src);
  auto* fd = dynamic_cast<FakeQuantize*>(&dst);
  if (fs && fd) copy_state(fs->activation_post_process(), fd->activation_post_process());
  const auto src_bufs = src.named_buffers();
  for (auto& [name, t] : dst.named_buffers())
    for (const auto& [sname, st] : src_bufs)
      if (sname == name && st.shape() == t.shape() && st.dtype() == t.dtype() && st.nbytes() > 0)
        std::memcpy(t.bytes(), st.bytes(), st.nbytes());
}

}  // namespace

ObserverModule::ObserverModule(std::shared_ptr<ObserverBase> observer,
                               std::optional<ObserverOrFakeQuantizeConstructor> ctr)
    : observer_(std::move(observer)), ctr_(std::move(ctr)) {
  if (!observer_) throw ValueError("ObserverModule: observer must not be null");
}

Tensor ObserverModule::forward(const Tensor& x) {
  auto* fq = dynamic_cast<FakeQuantizeBase*>(observer_.get());
  if (!fq) return observer_->forward(x);
  FakeQuantOutput out = fq->forward_cachemask(x);
  grad_mask_.reset();
  if (fq->fake_quant_enabled()) grad_mask_ = std::move(out.mask);
  return out.output;
}

std::string ObserverModule::describe() const {
  const ObserverBase& o = *observer_;
  if (o.type_name() == std::string("PlaceholderObserver")) return o.is_dynamic() ? "dynamic" : "-";
  const QParams qp = o.calculate_qparams();
  const int64_t n = qp.scale.numel();
  if (n == 0) return "-";
  const std::string zp = qp.zero_point.dtype() == DType::Int32 ? std::to_string(qp.zero_point.data<int32_t>()[0])
                                                                : fmt_g4(qp.zero_point.data<float>()[0]);
  std::string s = "scale=" + fmt_g4(qp.scale.data<float>()[0]) + " zp=" + zp;
  if (is_per_channel(o.qscheme())) s += " (per-channel, n=" + std::to_string(n) + ")";
  return s;
}

std::shared_ptr<SubModule> ObserverModule::clone() const {
  if (const auto* d = dynamic_cast<const DerivedObserverOrFakeQuantize*>(observer_.get()))
    return std::make_shared<ObserverModule>(d->with_obs_or_fqs(d->obs_or_fqs()), ctr_);  // relink() follows
  // Not rebuilt by name: an instance without a constructor, or a JS observer (its state lives in JS).
  if (!ctr_ || dynamic_cast<const JsObserver*>(observer_.get())) return std::make_shared<ObserverModule>(observer_, ctr_);
  std::shared_ptr<ObserverBase> fresh = make_observer(ctr_->name, ctr_->kwargs);
  copy_state(*observer_, *fresh);
  return std::make_shared<ObserverModule>(std::move(fresh), ctr_);
}

void ObserverModule::relink(const ModuleCopies& copies) {
  const auto* d = dynamic_cast<const DerivedObserverOrFakeQuantize*>(observer_.get());
  if (!d) return;
  // Each observer this one derives from, replaced by the copy of the module that wraps it in the original.
  std::vector<std::shared_ptr<ObserverBase>> sources = d->obs_or_fqs();
  for (auto& src : sources)
    for (const auto& [original, copy] : copies) {
      const auto* om = dynamic_cast<const ObserverModule*>(original);
      if (om && om->observer_ptr() == src) {
        src = static_cast<ObserverModule*>(copy)->observer_ptr();
        break;
      }
    }
  observer_ = d->with_obs_or_fqs(std::move(sources));
}

std::shared_ptr<ObserverBase> get_observer_ptr(const GraphModule& gm, const Node* node) {
  if (!node || node->op != OpKind::call_module) return nullptr;
  const auto* m = dynamic_cast<const ObserverModule*>(gm.get_module(node->target));
  return m ? m->observer_ptr() : nullptr;
}

ObserverBase* get_observer(const GraphModule& gm, const Node* node) { return get_observer_ptr(gm, node).get(); }

// ---- DerivedObserverOrFakeQuantize -----------------------------------------------------------------

// torchao pt2e/__init__.py DerivedObserverOrFakeQuantize.__init__ with the kwargs prepare.py passes: dtype,
// quant_min, quant_max, qscheme, ch_axis as the spec holds them (None stays None: ObserverConfig::none), and
// is_dynamic not passed (False).
static ObserverConfig derived_config(const DerivedQuantizationSpec& spec) {
  ObserverConfig c;
  c.dtype = spec.dtype;
  c.quantized_dtype = spec.quantized_dtype;
  c.qscheme = spec.qscheme.value_or(QScheme::per_tensor_affine);
  if (!spec.qscheme) c.none.push_back("qscheme");
  c.quant_min = spec.quant_min.value_or(0);
  c.quant_max = spec.quant_max.value_or(0);
  if (!spec.quant_min) c.none.push_back("quant_min");
  if (!spec.quant_max) c.none.push_back("quant_max");
  c.has_customized_qrange = spec.quant_min && spec.quant_max;
  c.ch_axis = spec.ch_axis.value_or(-1);
  if (!spec.ch_axis) c.none.push_back("ch_axis");
  if (spec.qscheme && is_per_channel(*spec.qscheme) && !spec.ch_axis)
    throw ValueError("DerivedObserverOrFakeQuantize: must provide a valid ch_axis if qscheme is per channel");
  return c;
}

DerivedObserverOrFakeQuantize::DerivedObserverOrFakeQuantize(const DerivedQuantizationSpec& spec,
                                                             std::vector<std::shared_ptr<ObserverBase>> obs_or_fqs)
    : DerivedObserverOrFakeQuantize(derived_config(spec), spec.derive_qparams_fn, std::move(obs_or_fqs)) {}

DerivedObserverOrFakeQuantize::DerivedObserverOrFakeQuantize(const ObserverConfig& config, DeriveQParamsFn fn,
                                                             std::vector<std::shared_ptr<ObserverBase>> obs_or_fqs)
    : ObserverBase(config), fn_(std::move(fn)), obs_or_fqs_(std::move(obs_or_fqs)) {
  if (!fn_) throw ValueError("DerivedObserverOrFakeQuantize: derive_qparams_fn is not set");
}

std::shared_ptr<DerivedObserverOrFakeQuantize> DerivedObserverOrFakeQuantize::with_obs_or_fqs(
    std::vector<std::shared_ptr<ObserverBase>> obs_or_fqs) const {
  return std::shared_ptr<DerivedObserverOrFakeQuantize>(
      new DerivedObserverOrFakeQuantize(config_, fn_, std::move(obs_or_fqs)));
}

QParams DerivedObserverOrFakeQuantize::calculate_qparams() const {
  std::vector<ObserverBase*> obs;
  for (const auto& o : obs_or_fqs_) obs.push_back(o.get());
  return fn_(obs);
}

}  // namespace pt
