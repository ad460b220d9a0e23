// quantizer_js.h — bind_pt2e.cpp's readers for a quantizer described in JS (web/api/pt2e.js describe(): a
// backend quantizer's recorded setter calls, a ComposableQuantizer, or a quantizer written in JS), and its
// safe call of a JS function (an error thrown in JS comes back as the typed C++ error), for the binding
// files that take a quantizer too (bind_numeric_debugger.cpp).
#pragma once
#include <emscripten/val.h>

#include <memory>

#include "pt2e/quantizer.h"

namespace ptjs {

std::shared_ptr<pt::Quantizer> quantizer_from_js(const emscripten::val& description);
emscripten::val safe_call(const emscripten::val& fn, const emscripten::val& arg);

}  // namespace ptjs
