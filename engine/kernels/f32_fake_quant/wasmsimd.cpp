// f32_fake_quant/wasmsimd.cpp — f32_fake_quant (kernels.h) sixteen elements a step, all in float32 lanes:
// qf = zp + nearest(x · inv_scale); the clamp as pmax / pmin against the range ends (pmax(quant_min, NaN)
// is quant_min, the reference's rule); y = (clamp − zp) · scale; the mask from two compares, narrowed to
// bytes. Float arithmetic is the reference's integer arithmetic while zero_point and the range ends lie
// strictly within ±2^24: qf is then a whole number, the clamp and clamp − zp exact or rounded once alike, and a
// sum zp + rne(x·inv) past ±2^24 rounds to a float still past the range end (at ±2^24 itself, 2^24 + 1 would
// round onto the end and set the mask). Calls outside that (int32 ranges) and the last n % 16 elements go
// through the reference.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

void f32_fake_quant__wasmsimd(const float* x, size_t n, const FakeQuant& p, float* out, uint8_t* mask) noexcept {
  constexpr int64_t kExact = int64_t{1} << 24;
  auto exact = [](int64_t v) { return v > -kExact && v < kExact; };
  size_t i = 0;
  if (exact(p.zero_point) && exact(p.quant_min) && exact(p.quant_max)) {
    const v128_t inv = wasm_f32x4_splat(p.inv_scale), scale = wasm_f32x4_splat(p.scale);
    const v128_t zp = wasm_f32x4_splat(static_cast<float>(p.zero_point));
    const v128_t lo = wasm_f32x4_splat(static_cast<float>(p.quant_min)), hi = wasm_f32x4_splat(static_cast<float>(p.quant_max));
    const v128_t one = wasm_i8x16_splat(1);
    for (; i + 16 <= n; i += 16) {
      v128_t m[4];
      for (size_t k = 0; k < 4; ++k) {
        const v128_t qf = wasm_f32x4_add(zp, wasm_f32x4_nearest(wasm_f32x4_mul(wasm_v128_load(x + i + 4 * k), inv)));
        const v128_t q = wasm_f32x4_pmin(hi, wasm_f32x4_pmax(lo, qf));
        wasm_v128_store(out + i + 4 * k, wasm_f32x4_mul(wasm_f32x4_sub(q, zp), scale));
        m[k] = wasm_v128_and(wasm_f32x4_le(lo, qf), wasm_f32x4_le(qf, hi));
      }
      const v128_t m16 = wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(m[0], m[1]), wasm_i16x8_narrow_i32x4(m[2], m[3]));
      wasm_v128_store(mask + i, wasm_v128_and(m16, one));
    }
  }
  f32_fake_quant__scalar(x + i, n - i, p, out + i, mask + i);
}

}  // namespace pt::kernels
