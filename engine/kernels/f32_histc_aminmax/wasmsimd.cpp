// f32_histc_aminmax/wasmsimd.cpp — f32_histc_aminmax (kernels.h) four elements per step: the bins of a
// vector at once, lane k counted in copy k (element 4j + k, so copy i % 4 as the reference); the last
// n % 4 elements take the reference's step.
//
// The bin is trunc(a / width) with a = f32(e − lo) · f32(bins). Dividing is slow, so it is first taken
// with a reciprocal: r = f32(a · f32(1 / width)). With 1 / width a normal float, r and torch's
// correctly rounded f32(a / width) differ by less than |a / width| · 2^-22 (two roundings of r, one
// of the quotient), so for |a / width| < 2 · bins by less than tol = bins · 2^-21: when r is at least
// tol away from every integer both truncate alike, and a vector with a lane closer than that is
// divided. Lanes with |a / width| ≥ 2 · bins clamp to the same edge bin either way. Above 2^16 bins
// tol would reach 1/32 and the division is always taken.
#include "kernels/f32_aminmax/wasmsimd.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

struct Bin4 {
  v128_t lo, fbins, width, inv_width, tol, one_minus_tol, top, zero;
  bool reciprocal;

  explicit Bin4(const HistcRange& r)
      : lo(wasm_f32x4_splat(r.lo)), fbins(wasm_f32x4_splat(static_cast<float>(r.bins))),
        width(wasm_f32x4_splat(r.width)), inv_width(wasm_f32x4_splat(1.0f / r.width)),
        tol(wasm_f32x4_splat(static_cast<float>(r.bins) * 0x1p-21f)),
        one_minus_tol(wasm_f32x4_splat(1.0f - static_cast<float>(r.bins) * 0x1p-21f)),
        top(wasm_i32x4_splat(static_cast<int32_t>(r.bins - 1))), zero(wasm_i32x4_splat(0)),
        reciprocal(r.bins <= (int64_t{1} << 16) && std::isnormal(1.0f / r.width)) {}

  v128_t operator()(v128_t e) const {
    const v128_t a = wasm_f32x4_mul(wasm_f32x4_sub(e, lo), fbins);
    v128_t k;
    if (reciprocal) {
      const v128_t r = wasm_f32x4_mul(a, inv_width);
      k = wasm_i32x4_trunc_sat_f32x4(r);
      const v128_t frac = wasm_f32x4_sub(r, wasm_f32x4_convert_i32x4(k));
      if (wasm_v128_any_true(wasm_v128_or(wasm_f32x4_lt(frac, tol), wasm_f32x4_gt(frac, one_minus_tol))))
        k = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_div(a, width));
    } else {
      k = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_div(a, width));
    }
    return wasm_i32x4_max(wasm_i32x4_min(k, top), zero);
  }
};

}  // namespace

AMinMax f32_histc_aminmax__wasmsimd(const float* x, size_t n, HistcRange range, uint32_t* counts) noexcept {
  const size_t bins = static_cast<size_t>(range.bins);
  const Bin4 bin_of(range);
  AMinMax4 lanes;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t v = wasm_v128_load(x + i);
    lanes.add(v);
    const v128_t b = bin_of(v);
    ++counts[static_cast<uint32_t>(wasm_i32x4_extract_lane(b, 0))];
    ++counts[bins + static_cast<uint32_t>(wasm_i32x4_extract_lane(b, 1))];
    ++counts[2 * bins + static_cast<uint32_t>(wasm_i32x4_extract_lane(b, 2))];
    ++counts[3 * bins + static_cast<uint32_t>(wasm_i32x4_extract_lane(b, 3))];
  }
  AMinMax s = lanes.fold();
  for (; i < n; ++i) {
    s.add(x[i]);
    ++counts[(i & 3) * bins + static_cast<size_t>(range.bin(x[i]))];
  }
  return s.positive_zeros();
}

}  // namespace pt::kernels
