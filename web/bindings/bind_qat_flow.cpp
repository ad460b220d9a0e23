// bind_qat_flow.cpp — Embind for pt2e/qat_flow.h: the observer instances gm.apply(fn) visits (the switches
// themselves, disable_observer and the rest, are the fake-quantize objects' methods: web/api/quant.js), and
// freeze_bn_stats. The public API over these is web/api/qat.js.
#include <emscripten/bind.h>

#include "common.h"
#include "graph_handles.h"
#include "observer_handle.h"
#include "pt2e/qat_flow.h"

using emscripten::val;

namespace {

val observer_instances(const ptjs::GraphModuleHandle& gm) {
  return ptjs::guarded([&] {
    val arr = val::array();
    // val(handle): the array keeps its own copy (a bare argument to push would be a temporary, freed after the call)
    for (const auto& o : pt::observer_instances(gm.get())) arr.call<void>("push", val(ptjs::ObserverHandle(o)));
    return arr;
  });
}

double freeze_bn_stats(const ptjs::GraphModuleHandle& gm) {
  return ptjs::guarded([&] { return double(pt::freeze_bn_stats(gm.get())); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pt_qat_flow) {
  emscripten::function("observer_instances", &observer_instances);
  emscripten::function("freeze_bn_stats", &freeze_bn_stats);
}
