// i32_requantize/wasmsimd.cpp — i32_requantize (kernels.h) four accumulators a vector, sixteen a step
// when the output is contiguous (their low bytes gathered by one shuffle); the last n % 4 (or an output
// with a stride, lane by lane) through the reference's step.
//   fp32         f32x4 convert, mul, pmax / pmin (the scalar max / min exactly), + magic, i32x4 sub;
//   fixed_point  a·b in i64x2 halves (extmul), the nudge and C's truncating division by 2^31 with
//                shifts and masks, the low words gathered back; RoundingDivideByPOT on i32x4;
//   shift        i32x4 add and arithmetic shift;
//   shift_even   the arithmetic shift, then one added where the dropped bits are above the half or at the
//                half of an odd floor (masks and compares); a left shift for shift ≤ 0;
//   f32_output   f32x4 convert, mul, add, pmax (the scalar max exactly): the lanes are the floats, four a store.
// int16 codes (out_bytes 2) are gathered as the low two bytes of each lane, eight a store. The kind is chosen
// once a call (a loop per kind), and the step keeps the scale and shift it reads as its own: the stores to out
// could alias the Requantization as far as the compiler knows, so reading it in the loop loads it every vector.
#include <cstring>

#include "kernels/simd128.h"
#include "kernels/variants.h"

namespace pt::kernels {

namespace {

template <RequantKind Kind> struct Step {
  v128_t scale;                                          // fp32, f32_output
  int32_t shift;
  v128_t lo, hi, magic, magic_less_zp;                   // fp32
  v128_t multiplier, left, right_mask, right_half_mask;  // fixed_point
  v128_t round;                                          // shift
  v128_t even_mask, even_half;                           // shift_even
  v128_t zp, qmin, qmax;
  v128_t bias_f32, min_f32;                              // f32_output

  explicit Step(const Requantization& rq)
      : scale(wasm_f32x4_splat(rq.scale)),
        shift(rq.shift),
        lo(wasm_f32x4_splat(static_cast<float>(rq.qmin - rq.zero_point))),
        hi(wasm_f32x4_splat(static_cast<float>(rq.qmax - rq.zero_point))),
        magic(wasm_f32x4_splat(12582912.0f)),
        magic_less_zp(wasm_i32x4_splat(static_cast<int32_t>(0x4B400000u - static_cast<uint32_t>(rq.zero_point)))),
        multiplier(wasm_i32x4_splat(rq.multiplier)),
        left(wasm_i32x4_splat(0)),
        right_mask(wasm_i32x4_splat(0)),
        right_half_mask(wasm_i32x4_splat(0)),
        round(wasm_i32x4_splat(rq.kind == RequantKind::shift && rq.shift > 0 ? int32_t{1} << (rq.shift - 1) : 0)),
        // shift_even: the dropped bits and their half (for no shift a half of 1 that no remainder of 0 reaches).
        even_mask(wasm_i32x4_splat(rq.shift > 0 && rq.shift < 32 ? static_cast<int32_t>((uint32_t{1} << rq.shift) - 1) : 0)),
        even_half(wasm_i32x4_splat(rq.shift > 0 && rq.shift < 32 ? int32_t{1} << (rq.shift - 1) : 1)),
        zp(wasm_i32x4_splat(rq.zero_point)),
        qmin(wasm_i32x4_splat(rq.qmin)),
        qmax(wasm_i32x4_splat(rq.qmax)),
        bias_f32(wasm_f32x4_splat(rq.bias_f32)),
        min_f32(wasm_f32x4_splat(rq.min_f32)) {
    if (rq.kind == RequantKind::fixed_point && rq.shift < 0) {
      const int32_t mask = static_cast<int32_t>((int64_t{1} << -rq.shift) - 1);
      right_mask = wasm_i32x4_splat(mask);
      right_half_mask = wasm_i32x4_splat(mask >> 1);
    }
  }

  // gemmlowp SaturatingRoundingDoublingHighMul on four lanes.
  v128_t srdhm(v128_t x) const {
    const v128_t half = wasm_i64x2_splat(int64_t{1} << 30);
    const v128_t negative_nudge = wasm_i64x2_splat(-(int64_t{1} << 31) + 1);  // 1 − 2^30 − 2^30
    const v128_t low31 = wasm_i64x2_splat((int64_t{1} << 31) - 1);
    v128_t halves[2] = {wasm_i64x2_extmul_low_i32x4(x, multiplier), wasm_i64x2_extmul_high_i32x4(x, multiplier)};
    for (v128_t& p : halves) {
      const v128_t q = wasm_i64x2_add(p, wasm_i64x2_add(half, wasm_v128_and(wasm_i64x2_shr(p, 63), negative_nudge)));
      p = wasm_i64x2_shr(wasm_i64x2_add(q, wasm_v128_and(wasm_i64x2_shr(q, 63), low31)), 31);
    }
    const v128_t r32 = wasm_i32x4_shuffle(halves[0], halves[1], 0, 2, 4, 6);
    const v128_t int_min = wasm_i32x4_splat(std::numeric_limits<int32_t>::min());
    const v128_t overflow = wasm_v128_and(wasm_i32x4_eq(x, int_min), wasm_i32x4_eq(multiplier, int_min));
    return wasm_v128_bitselect(wasm_i32x4_splat(std::numeric_limits<int32_t>::max()), r32, overflow);
  }

  v128_t operator()(v128_t acc) const {
    if constexpr (Kind == RequantKind::f32_output) {
      const v128_t scaled = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), scale);
      return wasm_f32x4_pmax(wasm_f32x4_add(scaled, bias_f32), min_f32);
    }
    if constexpr (Kind == RequantKind::fp32) {
      v128_t f = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), scale);
      f = wasm_f32x4_pmin(wasm_f32x4_pmax(f, lo), hi);
      return wasm_i32x4_sub(wasm_f32x4_add(f, magic), magic_less_zp);
    }
    v128_t v;
    if constexpr (Kind == RequantKind::fixed_point) {
      v = srdhm(wasm_i32x4_shl(acc, static_cast<uint32_t>(shift > 0 ? shift : 0)));
      if (shift < 0) {
        const v128_t rem = wasm_v128_and(v, right_mask);
        const v128_t threshold = wasm_i32x4_sub(right_half_mask, wasm_i32x4_lt(v, wasm_i32x4_splat(0)));
        v = wasm_i32x4_sub(wasm_i32x4_shr(v, static_cast<uint32_t>(-shift)), wasm_i32x4_gt(rem, threshold));
      }
    } else if constexpr (Kind == RequantKind::shift_even) {
      if (shift <= 0) {
        v = wasm_i32x4_shl(acc, static_cast<uint32_t>(-shift));
      } else {
        const v128_t q = wasm_i32x4_shr(acc, static_cast<uint32_t>(shift));
        const v128_t rem = wasm_v128_and(acc, even_mask);  // in [0, 2^31): signed compares are unsigned ones
        const v128_t odd = wasm_i32x4_ne(wasm_v128_and(q, wasm_i32x4_splat(1)), wasm_i32x4_splat(0));
        const v128_t up = wasm_v128_or(wasm_i32x4_gt(rem, even_half), wasm_v128_and(wasm_i32x4_eq(rem, even_half), odd));
        v = wasm_i32x4_sub(q, up);  // up lanes are −1
      }
    } else {
      v = wasm_i32x4_shr(wasm_i32x4_add(acc, round), static_cast<uint32_t>(shift));
    }
    return wasm_i32x4_min(wasm_i32x4_max(wasm_i32x4_add(v, zp), qmin), qmax);
  }
};

template <RequantKind Kind>
void requantize(const int32_t* acc, size_t n, int32_t bias, const Requantization& r, uint8_t* out, size_t out_stride) {
  const Step<Kind> step(r);
  const v128_t b = wasm_i32x4_splat(bias);
  size_t i = 0;
  if (r.out_bytes == 4) {
    if (out_stride == 1)
      for (; i + 4 <= n; i += 4) wasm_v128_store(out + 4 * i, step(wasm_i32x4_add(wasm_v128_load(acc + i), b)));
    for (; i < n; ++i) {
      const int32_t v = r.apply(static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + static_cast<uint32_t>(bias)));
      std::memcpy(out + 4 * i * out_stride, &v, 4);
    }
    return;
  }
  if (r.out_bytes == 2) {
    if (out_stride == 1)
      for (; i + 8 <= n; i += 8) {
        const v128_t lo = step(wasm_i32x4_add(wasm_v128_load(acc + i), b));
        const v128_t hi = step(wasm_i32x4_add(wasm_v128_load(acc + i + 4), b));
        wasm_v128_store(out + 2 * i, wasm_i8x16_shuffle(lo, hi, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29));
      }
    for (; i < n; ++i) {
      const int16_t code = static_cast<int16_t>(r.apply(static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + static_cast<uint32_t>(bias))));
      std::memcpy(out + 2 * i * out_stride, &code, 2);
    }
    return;
  }
  if (out_stride == 1) {
    for (; i + 16 <= n; i += 16) {
      v128_t v[4];
      for (size_t q = 0; q < 4; ++q) v[q] = step(wasm_i32x4_add(wasm_v128_load(acc + i + 4 * q), b));
      const v128_t lo16 = wasm_i8x16_shuffle(v[0], v[1], 0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0);
      const v128_t hi16 = wasm_i8x16_shuffle(v[2], v[3], 0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0);
      wasm_v128_store(out + i, wasm_i64x2_shuffle(lo16, hi16, 0, 2));
    }
  } else {
    for (; i + 4 <= n; i += 4) {
      const v128_t v = step(wasm_i32x4_add(wasm_v128_load(acc + i), b));
      out[i * out_stride] = static_cast<uint8_t>(wasm_i32x4_extract_lane(v, 0));
      out[(i + 1) * out_stride] = static_cast<uint8_t>(wasm_i32x4_extract_lane(v, 1));
      out[(i + 2) * out_stride] = static_cast<uint8_t>(wasm_i32x4_extract_lane(v, 2));
      out[(i + 3) * out_stride] = static_cast<uint8_t>(wasm_i32x4_extract_lane(v, 3));
    }
  }
  for (; i < n; ++i)
    out[i * out_stride] = static_cast<uint8_t>(r.apply(static_cast<int32_t>(static_cast<uint32_t>(acc[i]) + static_cast<uint32_t>(bias))));
}

}  // namespace

void i32_requantize__wasmsimd(const int32_t* acc, size_t n, int32_t bias, const Requantization& r, uint8_t* out,
                              size_t out_stride) noexcept {
  switch (r.kind) {
    case RequantKind::fp32: return requantize<RequantKind::fp32>(acc, n, bias, r, out, out_stride);
    case RequantKind::fixed_point: return requantize<RequantKind::fixed_point>(acc, n, bias, r, out, out_stride);
    case RequantKind::shift: return requantize<RequantKind::shift>(acc, n, bias, r, out, out_stride);
    case RequantKind::shift_even: return requantize<RequantKind::shift_even>(acc, n, bias, r, out, out_stride);
    case RequantKind::f32_output: return requantize<RequantKind::f32_output>(acc, n, bias, r, out, out_stride);
  }
}

}  // namespace pt::kernels
