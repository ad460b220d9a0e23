// simd128.h — the SIMD128 intrinsics (<wasm_simd128.h>: v128_t, wasm_f32x4_add, ...) for the
// wasmsimd.cpp variants, in both builds. The wasm build compiles them to SIMD128 instructions
// (CMake gives these files -msimd128); the native build maps the same calls to SSE2 or scalar code
// through simde (Debian's libsimde-dev, simde/wasm/simd128.h), keeping wasm's semantics (NaN,
// saturation, pmin / pmax operand order), so native tests run the source the browser runs.
#pragma once

#ifdef __EMSCRIPTEN__
#ifndef __wasm_simd128__
#error "wasmsimd variants need -msimd128 (CMakeLists.txt sets it on engine/kernels/*/wasmsimd.cpp)"
#endif
#include <wasm_simd128.h>
#else
#define SIMDE_WASM_SIMD128_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#endif
