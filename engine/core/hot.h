// hot.h — PT_HOT_LOOP keeps a hot loop in a small function of its own.
//
// In the browser V8 compiles the engine's wasm function by function: with its baseline compiler when a
// function is first called, and again, optimised and in the background, once the function has run long
// enough (dynamic tiering; wasm has no on-stack replacement, so a loop can only speed up on a later call).
// A loop inlined into a big function (argument checks, error messages, dtype dispatch) makes the whole big
// function hot: V8 then spends tens of milliseconds of the page's CPU optimising all of it while a lesson
// runs its first cells. A kernel marked PT_HOT_LOOP stays a small function, so it alone is optimised.
//
//   namespace { PT_HOT_LOOP void scale_into(const float* x, float s, float* y, int64_t n) { ... } }
//
// A hot loop also stays free of calls that may throw: such a call, made from a function that has something to
// clean up (a vector, a Tensor), keeps the compiler from optimising across it (with the wasm exceptions the
// module is built with, -fwasm-exceptions, it is a try region; with Emscripten's older JS exceptions it even went
// out to a JavaScript invoke_* wrapper and back). So a loop takes its pointers before it starts
// (Tensor::data<T>() checks the dtype and may throw), and the kernels of engine/kernels/ are noexcept.
#pragma once

#define PT_HOT_LOOP [[gnu::noinline]]
