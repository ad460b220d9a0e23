// js_quantizer.h — JsQuantizer: a Quantizer made of callbacks, so a learner's JavaScript
// `annotate(graph)` (a lesson cell, seed M03's "ten-line rule-based quantizer") can be passed to
// prepare_pt2e. The JS bindings wrap JS functions as these std::function callbacks; C++ can use lambdas
// (with the helpers of pt2e/quantizer_utils.h).
//
//   pt::JsQuantizer q([](pt::GraphModule& gm) {                  // annotate (required)
//     for (pt::Node* n : gm.graph.nodes())
//       if (pt::is_call(n, pt::target::relu)) {
//         pt::annotate_output_qspec(n, act_spec);
//         pt::get_annotation(n)->_annotated = true;
//       }
//   });
//   q.set_validate([](const pt::GraphModule& gm) { /* throw a pt::Error to reject the graph */ });
//   q.set_transform_for_annotation([](pt::GraphModule& gm) { /* rewrite before annotate */ });
//   pt::GraphModule prepared = pt::prepare_pt2e(gm, q);
//
// An unset validate / transform_for_annotation does nothing (torchao's base transform is the
// identity; a Python subclass must define validate, the JS side supplies a no-op when a cell omits
// it). A missing annotate is a TypeError, as instantiating torchao's abstract Quantizer without it.
// Errors a callback throws (a pt::Error, or the JS error the bindings turn into one) pass through.
#pragma once
#include <functional>

#include "pt2e/quantizer.h"
#include "pt2e/quantizer_utils.h"

namespace pt {

class JsQuantizer : public Quantizer {
 public:
  using AnnotateFn = std::function<void(GraphModule& gm)>;
  using ValidateFn = std::function<void(const GraphModule& gm)>;
  using TransformFn = std::function<void(GraphModule& gm)>;

  explicit JsQuantizer(AnnotateFn annotate, ValidateFn validate = nullptr, TransformFn transform = nullptr);
  JsQuantizer& set_validate(ValidateFn validate);
  JsQuantizer& set_transform_for_annotation(TransformFn transform);

  void transform_for_annotation(GraphModule& gm) override;
  void annotate(GraphModule& gm) override { annotate_(gm); }
  void validate(const GraphModule& gm) const override;

 private:
  AnnotateFn annotate_;
  ValidateFn validate_;
  TransformFn transform_;
};

}  // namespace pt
