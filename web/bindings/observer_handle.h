// observer_handle.h — the one Embind handle type for every observer and fake-quantize object, shared
// by bind_quant.cpp (observers a cell builds) and bind_pt2e.cpp (observers inside a prepared graph:
// the handle shares the graph's instance, so it sees calibration).
#pragma once
#include <memory>

#include "core/error.h"
#include "quant/observer.h"

namespace ptjs {

class ObserverHandle {
 public:
  ObserverHandle() = default;
  explicit ObserverHandle(std::shared_ptr<pt::ObserverBase> o) : impl_(std::move(o)) {}
  pt::ObserverBase& impl() const {
    if (!impl_) throw pt::RuntimeError("observer was not constructed");
    return *impl_;
  }
  const void* identity() const { return impl_.get(); }

 private:
  std::shared_ptr<pt::ObserverBase> impl_;
};

}  // namespace ptjs
