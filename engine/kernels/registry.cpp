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

// ---- integer kernels (engine/lower/) ----
constexpr Variant<I16GemmFn> i16_gemm_variants[] = {
    {"scalar", i16_gemm__scalar, 1},
    {"wasmsimd", i16_gemm__wasmsimd, 4},
};

constexpr Variant<PackPairsFn> i16_pack_pairs_variants[] = {
    {"scalar", i16_pack_pairs__scalar, 1},
    {"wasmsimd", i16_pack_pairs__wasmsimd, 8},
};

constexpr Variant<RequantizeFn> i32_requantize_variants[] = {
    {"scalar", i32_requantize__scalar, 1},
    {"wasmsimd", i32_requantize__wasmsimd, 16},
};

constexpr Variant<Q8AddFn> q8_add_variants[] = {
    {"scalar", q8_add__scalar, 1},
    {"wasmsimd", q8_add__wasmsimd, 16},
};

constexpr Variant<Q8MaxFn> q8_max_variants[] = {
    {"scalar", q8_max__scalar, 1},
    {"wasmsimd", q8_max__wasmsimd, 16},
};

constexpr Variant<Q8SumFn> q8_sum_variants[] = {
    {"scalar", q8_sum__scalar, 1},
    {"wasmsimd", q8_sum__wasmsimd, 16},
};

// ---- float kernels for training and the float graph (f32_gemm) ----
constexpr Variant<GemmFn> gemm_variants[] = {
    {"scalar", f32_gemm__scalar, 1},
    {"wasmsimd", f32_gemm__wasmsimd, 8},
};

}  // namespace

const Kernel<AMinMaxFn> f32_aminmax{"f32_aminmax", aminmax_variants};
const Kernel<HistcAMinMaxFn> f32_histc_aminmax{"f32_histc_aminmax", histc_aminmax_variants};

const Kernel<I16GemmFn> i16_gemm{"i16_gemm", i16_gemm_variants};
const Kernel<PackPairsFn> i16_pack_pairs{"i16_pack_pairs", i16_pack_pairs_variants};
const Kernel<RequantizeFn> i32_requantize{"i32_requantize", i32_requantize_variants};
const Kernel<Q8AddFn> q8_add{"q8_add", q8_add_variants};
const Kernel<Q8MaxFn> q8_max{"q8_max", q8_max_variants};
const Kernel<Q8SumFn> q8_sum{"q8_sum", q8_sum_variants};

const Kernel<GemmFn> f32_gemm{"f32_gemm", gemm_variants};

std::vector<std::string_view> kernel_names() {
  return {f32_aminmax.name, f32_histc_aminmax.name, f32_gemm.name, i16_gemm.name,
          i16_pack_pairs.name, i32_requantize.name, q8_add.name, q8_max.name, q8_sum.name};
}

}  // namespace pt::kernels
