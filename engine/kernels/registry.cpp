// registry.cpp — every kernel of the room: its variants, from the scalar reference (first) to the one
// this build's dispatch point calls (last). Both builds compile scalar and wasmsimd (SIMD128 natively
// through simde); a native x86 variant would be appended under the #if of the ISA that compiles it.
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

constexpr Variant<AMinMaxFn> aminmax_variants[] = {
    {"scalar", f32_aminmax__scalar, 1},
    {"wasmsimd", f32_aminmax__wasmsimd, 4},
};

constexpr Variant<HistcAMinMaxFn> histc_aminmax_variants[] = {
    {"scalar", f32_histc_aminmax__scalar, 1},
    {"wasmsimd", f32_histc_aminmax__wasmsimd, 4},
};

// ---- float kernels for training and the float graph (f32_gemm) ----
constexpr Variant<GemmFn> gemm_variants[] = {
    {"scalar", f32_gemm__scalar, 1},
    {"wasmsimd", f32_gemm__wasmsimd, 8},
};

}  // namespace

const Kernel<AMinMaxFn> f32_aminmax{"f32_aminmax", aminmax_variants};
const Kernel<HistcAMinMaxFn> f32_histc_aminmax{"f32_histc_aminmax", histc_aminmax_variants};

const Kernel<GemmFn> f32_gemm{"f32_gemm", gemm_variants};

std::vector<std::string_view> kernel_names() { return {f32_aminmax.name, f32_histc_aminmax.name, f32_gemm.name}; }

}  // namespace pt::kernels
