// f32_aminmax/wasmsimd.h — AMinMax over four SIMD128 lanes, shared by the wasmsimd variants that scan
// their input (f32_aminmax, f32_histc_aminmax). Include only from wasmsimd.cpp files (it needs SIMD128).
#pragma once
#include "kernels/kernels.h"
#include "kernels/simd128.h"

namespace pt::kernels {

// Lane k sees elements 4j + k: pmin / pmax are AMinMax::add's comparisons, so a NaN compares false
// and leaves the lane as it was.
struct AMinMax4 {
  v128_t min = wasm_f32x4_splat(std::numeric_limits<float>::infinity());
  v128_t max = wasm_f32x4_splat(-std::numeric_limits<float>::infinity());
  v128_t nan = wasm_i32x4_splat(0);

  void add(v128_t v) {
    min = wasm_f32x4_pmin(min, v);  // v < min ? v : min
    max = wasm_f32x4_pmax(max, v);  // max < v ? v : max
    nan = wasm_v128_or(nan, wasm_f32x4_ne(v, v));
  }

  // The lanes folded into one AMinMax (lanes never added to leave it empty); the caller adds the
  // elements left over and takes positive_zeros().
  AMinMax fold() const {
    float mins[4], maxs[4];
    wasm_v128_store(mins, min);
    wasm_v128_store(maxs, max);
    AMinMax s;
    for (int k = 0; k < 4; ++k) {
      s.min = mins[k] < s.min ? mins[k] : s.min;
      s.max = maxs[k] > s.max ? maxs[k] : s.max;
    }
    s.nan = wasm_v128_any_true(nan);
    return s;
  }
};

}  // namespace pt::kernels
