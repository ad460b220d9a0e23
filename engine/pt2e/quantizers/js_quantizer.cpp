// js_quantizer.cpp — JsQuantizer (see js_quantizer.h).
#include "pt2e/quantizers/js_quantizer.h"

namespace pt {

JsQuantizer::JsQuantizer(AnnotateFn annotate, ValidateFn validate, TransformFn transform)
    : annotate_(std::move(annotate)), validate_(std::move(validate)), transform_(std::move(transform)) {
  if (!annotate_) throw TypeError("JsQuantizer: an annotate(model) function is required");
}

JsQuantizer& JsQuantizer::set_validate(ValidateFn validate) {
  validate_ = std::move(validate);
  return *this;
}

JsQuantizer& JsQuantizer::set_transform_for_annotation(TransformFn transform) {
  transform_ = std::move(transform);
  return *this;
}

void JsQuantizer::transform_for_annotation(GraphModule& gm) {
  if (transform_) transform_(gm);
}

void JsQuantizer::validate(const GraphModule& gm) const {
  if (validate_) validate_(gm);
}

}  // namespace pt
