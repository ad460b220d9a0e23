// variants.h — every kernel variant's function, named <kernel>__<isa> after the file that defines it
// (engine/kernels/<kernel>/<isa>.cpp). registry.cpp lists them per kernel; nothing else calls them
// directly (the engine calls the dispatch points of kernels.h, the tester walks the registry).
#pragma once
#include "kernels/kernels.h"

namespace pt::kernels {

AMinMax f32_aminmax__scalar(const float* x, size_t n) noexcept;
AMinMax f32_aminmax__wasmsimd(const float* x, size_t n) noexcept;

AMinMax f32_histc_aminmax__scalar(const float* x, size_t n, HistcRange range, uint32_t* counts) noexcept;
AMinMax f32_histc_aminmax__wasmsimd(const float* x, size_t n, HistcRange range, uint32_t* counts) noexcept;

void f32_gemm__scalar(const GemmArgs& g) noexcept;
void f32_gemm__wasmsimd(const GemmArgs& g) noexcept;

}  // namespace pt::kernels
