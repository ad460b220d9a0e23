// observer_kwargs.h — the constructor keyword arguments of every observer and fake-quantize class,
// declared once. torchao spells them as Python keyword arguments (MinMaxObserver(dtype=..., eps=...),
// Observer.with_args(eps=2**-12)); here one table row per keyword yields everything that needs the list:
//
//   pt::ObserverArgs                the options struct: one std::optional field per row (unset = class default)
//   ObserverArgs::operator==        field-by-field equality (QuantizationSpec compares its constructor's kwargs)
//   ObserverArgs::set_names()       the names of the fields that are set, in table order
//   pt::for_each_observer_kwarg     visits (name, field) of every row, so a reader or writer (the JS
//                                   bindings, web/bindings/kwargs.h) handles each C++ type once
//   pt::observer_kwargs()           every (name, type, doc), for listings and for register_observer's check
//
// A keyword can also be passed as Python's None, which is not the same as leaving it out: torchao's
// prepare_pt2e passes every field of a QuantizationSpec, None included (prepare.py
// _create_obs_or_fq_from_qspec), so quant_min=None overrides a .with_args(quant_min=...) and qscheme=None
// reaches the class. ObserverArgs::none lists such keywords; each class treats them as its constructor
// treats None (ObserverConfig::none keeps the attributes that stay None).
//
// Which keywords a class accepts is decided by its registry entry (quant/observer.h ObserverClass::kwargs),
// listed by these names. A new keyword is one row here; a reader for a new C++ type is one overload in
// web/bindings/kwargs.h.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "quant/qparams.h"

namespace pt {

// X(name, C++ type, doc)
#define PT_OBSERVER_KWARGS(X)                                                                                  \
  X(dtype, DType, "quantized dtype; default quint8 (uint8), PlaceholderObserver float32")                     \
  X(qscheme, QScheme, "default per_tensor_affine (per_channel_affine for the per-channel classes)")           \
  X(reduce_range, bool, "use one bit less of the dtype's range; default false")                               \
  X(quant_min, int64_t, "lower end of a customized range (set with quant_max)")                                \
  X(quant_max, int64_t, "upper end of a customized range (set with quant_min)")                                \
  X(eps, float, "smallest scale; default float32 eps (the XNNPACK configs use 2^-12)")                        \
  X(is_dynamic, bool, "qparams computed when the graph runs; default false")                                   \
  X(ch_axis, int64_t, "per-channel classes: the channel axis; default 0")                                      \
  X(averaging_constant, double, "moving-average classes: c in m <- m + c * (x - m); default 0.01")             \
  X(bins, int64_t, "HistogramObserver: number of histogram bins; default 2048")                                \
  X(scale, double, "FixedQParamsObserver: the fixed scale (required)")                                         \
  X(zero_point, int64_t, "FixedQParamsObserver: the fixed zero point (required)")                              \
  X(observer, std::string, "fake-quantize classes: the wrapped observer class; default MovingAverageMinMaxObserver")

struct ObserverArgs {
#define PT_OBSERVER_KWARG_FIELD(name, type, doc) std::optional<type> name;
  PT_OBSERVER_KWARGS(PT_OBSERVER_KWARG_FIELD)
#undef PT_OBSERVER_KWARG_FIELD

  // Keywords passed as None, in the order they were passed (not set: a field is either set or here).
  std::vector<std::string> none;
  // dtype was written in torch's quantized spelling (torch.quint8, not torch.uint8; core/tensor.h).
  bool quantized_dtype = false;

  bool operator==(const ObserverArgs&) const = default;
  std::vector<std::string> set_names() const;  // names of the fields that are set, in table order
  void set_none(const std::string& name);      // clears the field and records it as None; ValueError if undeclared
  bool is_none(const std::string& name) const;
};

// Calls f(name, field) for every row, in table order; field is std::optional<type>& (const for a
// const ObserverArgs).
template <class Args, class F>
void for_each_observer_kwarg(Args& args, F&& f) {
#define PT_OBSERVER_KWARG_VISIT(name, type, doc) f(#name, args.name);
  PT_OBSERVER_KWARGS(PT_OBSERVER_KWARG_VISIT)
#undef PT_OBSERVER_KWARG_VISIT
}

struct ObserverKwarg {
  const char* name;
  const char* type;  // the C++ type as written in the table: "DType", "int64_t", "std::string", ...
  const char* doc;
};
const std::vector<ObserverKwarg>& observer_kwargs();  // every row, in table order
bool is_observer_kwarg(const std::string& name);

}  // namespace pt
