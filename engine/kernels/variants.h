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

void f32_max_pool2d__scalar(const MaxPool2d& p) noexcept;
void f32_max_pool2d__wasmsimd(const MaxPool2d& p) noexcept;

void f32_fake_quant__scalar(const float* x, size_t n, const FakeQuant& p, float* out, uint8_t* mask) noexcept;
void f32_fake_quant__wasmsimd(const float* x, size_t n, const FakeQuant& p, float* out, uint8_t* mask) noexcept;

void f32_affine_fma__scalar(const float* x, size_t n, float a, float c, float* y) noexcept;
void f32_affine_fma__wasmsimd(const float* x, size_t n, float a, float c, float* y) noexcept;

void f64_chain_sums__scalar(const ChainSums& c) noexcept;
void f64_chain_sums__wasmsimd(const ChainSums& c) noexcept;

void f32_winograd_input__scalar(const F32WinogradInput& w) noexcept;
void f32_winograd_input__wasmsimd(const F32WinogradInput& w) noexcept;

void f32_winograd_output__scalar(const F32WinogradOutput& w) noexcept;
void f32_winograd_output__wasmsimd(const F32WinogradOutput& w) noexcept;

void f32_winograd_grad__scalar(const F32WinogradGrad& w) noexcept;
void f32_winograd_grad__wasmsimd(const F32WinogradGrad& w) noexcept;

// ---- integer kernels ----
void i16_gemm__scalar(const I16Gemm& g) noexcept;
void i16_gemm__wasmsimd(const I16Gemm& g) noexcept;

void i16_gemm_offsets__scalar(const I16GemmOffsets& g) noexcept;
void i16_gemm_offsets__wasmsimd(const I16GemmOffsets& g) noexcept;

void i16_winograd_input__scalar(const WinogradInput& w) noexcept;
void i16_winograd_input__wasmsimd(const WinogradInput& w) noexcept;

void i32_winograd_output__scalar(const WinogradOutput& w) noexcept;
void i32_winograd_output__wasmsimd(const WinogradOutput& w) noexcept;

void i16_pack_pairs__scalar(const int16_t* row0, const int16_t* row1, size_t n, size_t p0, int16_t* out, size_t panel_stride) noexcept;
void i16_pack_pairs__wasmsimd(const int16_t* row0, const int16_t* row1, size_t n, size_t p0, int16_t* out,
                              size_t panel_stride) noexcept;

void i32_requantize__scalar(const int32_t* acc, size_t n, int32_t bias, const Requantization& r, uint8_t* out,
                            size_t out_stride) noexcept;
void i32_requantize__wasmsimd(const int32_t* acc, size_t n, int32_t bias, const Requantization& r, uint8_t* out,
                              size_t out_stride) noexcept;

void q8_add__scalar(const uint8_t* a, const uint8_t* b, size_t n, const AddParams& p, uint8_t* out) noexcept;
void q8_add__wasmsimd(const uint8_t* a, const uint8_t* b, size_t n, const AddParams& p, uint8_t* out) noexcept;

void q8_max__scalar(const uint8_t* a, const uint8_t* b, size_t n, bool is_signed, uint8_t* out) noexcept;
void q8_max__wasmsimd(const uint8_t* a, const uint8_t* b, size_t n, bool is_signed, uint8_t* out) noexcept;

void q8_widen_pairs__scalar(const WidenPairs& w) noexcept;
void q8_widen_pairs__wasmsimd(const WidenPairs& w) noexcept;

int32_t q8_sum__scalar(const uint8_t* x, size_t n, bool is_signed) noexcept;
int32_t q8_sum__wasmsimd(const uint8_t* x, size_t n, bool is_signed) noexcept;

}  // namespace pt::kernels
