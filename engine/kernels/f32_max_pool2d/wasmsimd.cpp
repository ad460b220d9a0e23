// f32_max_pool2d/wasmsimd.cpp — f32_max_pool2d (kernels.h) four outputs of a row at a time: the outputs
// whose whole window lies inside the image scan it element by element as the reference does, one lane
// per output, without branches (take = v > best or v is NaN; best and the index chosen by bitselect).
// Each element's four values are one load when sw = 1 and four lane loads otherwise. The other outputs
// (windows over the padding, a row's last OW % 4 inside ones) go through MaxPool2d::window.
#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

// The outputs [lo, hi) along one axis whose window (k taps, stride s, padding pad, dilation d) lies
// inside [0, n).
void inside(int64_t n, int64_t k, int64_t s, int64_t pad, int64_t d, int64_t out, int64_t& lo, int64_t& hi) {
  lo = (pad + s - 1) / s;                   // o · s − pad ≥ 0
  const int64_t last = n - 1 - (k - 1) * d + pad;  // o · s ≤ last
  hi = last < 0 ? 0 : last / s + 1;
  lo = lo < out ? lo : out;
  hi = hi < lo ? lo : (hi > out ? out : hi);
}

// Four outputs ow .. ow + 3 of row oh.
void four(const MaxPool2d& p, const float* xp, int64_t oh, int64_t ow, float* y, int32_t* at_out) {
  const int32_t sw = static_cast<int32_t>(p.sw);
  const v128_t lane = wasm_i32x4_make(0, sw, 2 * sw, 3 * sw);
  v128_t best = wasm_f32x4_splat(0.0f), at = wasm_i32x4_splat(0);
  bool first = true;
  for (int64_t i = 0; i < p.kh; ++i) {
    const int32_t row = static_cast<int32_t>((oh * p.sh - p.ph + i * p.dh) * p.W);
    for (int64_t j = 0; j < p.kw; ++j) {
      const int32_t pos0 = row + static_cast<int32_t>(ow * p.sw - p.pw + j * p.dw);
      const float* q = xp + pos0;
      const v128_t v = sw == 1 ? wasm_v128_load(q) : wasm_f32x4_make(q[0], q[sw], q[2 * sw], q[3 * sw]);
      const v128_t pos = wasm_i32x4_add(wasm_i32x4_splat(pos0), lane);
      if (first) {
        best = v;
        at = pos;
        first = false;
        continue;
      }
      const v128_t take = wasm_v128_or(wasm_f32x4_gt(v, best), wasm_f32x4_ne(v, v));
      best = wasm_v128_bitselect(v, best, take);
      at = wasm_v128_bitselect(pos, at, take);
    }
  }
  wasm_v128_store(y, best);
  wasm_v128_store(at_out, at);
}

}  // namespace

void f32_max_pool2d__wasmsimd(const MaxPool2d& p) noexcept {
  int64_t row_lo, row_hi, col_lo, col_hi;
  inside(p.H, p.kh, p.sh, p.ph, p.dh, p.OH, row_lo, row_hi);
  inside(p.W, p.kw, p.sw, p.pw, p.dw, p.OW, col_lo, col_hi);
  for (size_t nc = 0; nc < p.planes; ++nc) {
    const float* xp = p.x + nc * static_cast<size_t>(p.H * p.W);
    const size_t out0 = nc * static_cast<size_t>(p.OH * p.OW);
    for (int64_t oh = 0; oh < p.OH; ++oh) {
      float* y = p.y + out0 + static_cast<size_t>(oh * p.OW);
      int32_t* at = p.indices + out0 + static_cast<size_t>(oh * p.OW);
      int64_t ow = 0;
      if (oh >= row_lo && oh < row_hi) {
        for (; ow < col_lo; ++ow) p.window(xp, oh, ow, y[ow], at[ow]);
        for (; ow + 4 <= col_hi; ow += 4) four(p, xp, oh, ow, y + ow, at + ow);
      }
      for (; ow < p.OW; ++ow) p.window(xp, oh, ow, y[ow], at[ow]);
    }
  }
}

}  // namespace pt::kernels
