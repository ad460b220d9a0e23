// registry.cpp — every kernel of the room: its variants, from the scalar reference (first) to the one
// this build's dispatch point calls (last). Both builds compile scalar and wasmsimd (SIMD128 natively
// through simde). A kernel is one row of PT_KERNELS: its function type, its name and the SIMD128
// variant's elements per step; a kernel with more variants (a native x86 one under the #if of the ISA
// that compiles it) writes its Variant array and Kernel object by hand below the table.
#include "kernels/variants.h"

namespace pt::kernels {

#define PT_KERNELS(X) \
  X(AMinMaxFn, f32_aminmax, 4)            \
  X(HistcAMinMaxFn, f32_histc_aminmax, 4) \
  X(I16GemmFn, i16_gemm, 4)               \
  X(I16GemmOffsetsFn, i16_gemm_offsets, 4) \
  X(WinogradInputFn, i16_winograd_input, 8) \
  X(WinogradOutputFn, i32_winograd_output, 4) \
  X(PackPairsFn, i16_pack_pairs, 8)       \
  X(RequantizeFn, i32_requantize, 16)     \
  X(Q8AddFn, q8_add, 16)                  \
  X(Q8MaxFn, q8_max, 16)                  \
  X(Q8SumFn, q8_sum, 16)                  \
  X(Q8WidenPairsFn, q8_widen_pairs, 16)   \
  X(GemmFn, f32_gemm, 8)                  \
  X(MaxPool2dFn, f32_max_pool2d, 4)       \
  X(FakeQuantFn, f32_fake_quant, 16)     \
  X(AffineFmaFn, f32_affine_fma, 4)       \
  X(ChainSumsFn, f64_chain_sums, 4)       \
  X(F32WinogradInputFn, f32_winograd_input, 4) \
  X(F32WinogradOutputFn, f32_winograd_output, 4) \
  X(F32WinogradGradFn, f32_winograd_grad, 4)

#define PT_DEFINE_KERNEL(Fn, name, lanes)                                                                  \
  constexpr Variant<Fn> name##_variants[] = {{"scalar", name##__scalar, 1}, {"wasmsimd", name##__wasmsimd, lanes}}; \
  const Kernel<Fn> name{#name, name##_variants};
PT_KERNELS(PT_DEFINE_KERNEL)
#undef PT_DEFINE_KERNEL

std::vector<std::string_view> kernel_names() {
#define PT_KERNEL_NAME(Fn, kernel, lanes) kernel.name,
  return {PT_KERNELS(PT_KERNEL_NAME)};
#undef PT_KERNEL_NAME
}

}  // namespace pt::kernels
