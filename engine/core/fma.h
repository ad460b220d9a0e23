// fma.h — fma_f32(a, b, c): a·b + c on floats rounded once (what torch's FMA-built CPU kernels compute), fast
// and correct in both builds.
//
// torch's CPU build fuses multiply-adds (its AVX2 kernels, and the compiler's contraction of x*y+z), so the
// engine's float code that reproduces it needs a fused multiply-add. Natively std::fma is one instruction;
// in wasm it is a call into Emscripten's libc, tens of nanoseconds, and that fmaf rounds twice: on a double
// sum that lands exactly halfway between two floats it rounds the tie to even instead of toward the exact
// value (tests/engine/core/test_fma.cpp shows one). fma_f32 computes r = f64(a)·f64(b) + f64(c) instead: the
// product is exact in double, so r is rounded once, and rounding r to float gives the fused result unless r
// lies exactly halfway between two floats (its low 29 bits 0x10000000) or outside float's normal range
// (|r| < 2^-126, where float has fewer bits, or not finite). Those rare r go to fma_f32_exact, which rounds
// the double sum to odd first (Boldo and Melquiond: a sum rounded to odd in 53 bits, then to nearest in 24 or
// fewer, is the sum rounded to nearest once). kernels::f32_affine_fma's SIMD variant applies the same rule
// to four lanes.
//
//   y = pt::fma_f32(y, m, c);   // std::fma(y, m, c) as IEEE 754 defines it, bit for bit
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace pt {

// Whether r = f64(a)·f64(b) + f64(c), rounded to float, may differ from the fused result.
inline bool fma_f32_needs_exact(double r) {
  uint64_t bits;
  std::memcpy(&bits, &r, sizeof bits);
  const double mag = std::fabs(r);
  return (bits & 0x1fffffffu) == 0x10000000u || !(mag >= 0x1p-126 && mag <= std::numeric_limits<double>::max());
}

// The fused result for every input: the double sum's rounding error by TwoSum (exact), the sum moved to the
// neighbour with an odd last bit when it was inexact and even (round to odd), then rounded to float. Out of
// line, so that a loop over fma_f32 is not if-converted into running it for every element.
[[gnu::noinline]] inline float fma_f32_exact(float a, float b, float c) {
  const double p = static_cast<double>(a) * static_cast<double>(b);  // exact: 24 + 24 bits
  const double x = static_cast<double>(c);
  double s = p + x;
  if (!std::isfinite(s)) return static_cast<float>(s);  // an infinite or NaN operand (a float product cannot overflow a double)
  const double v = s - p;
  const double err = (p - (s - v)) + (x - v);  // p + x − s, exactly
  uint64_t bits;
  std::memcpy(&bits, &s, sizeof bits);
  if (err != 0 && (bits & 1) == 0) {
    bits += (err > 0) == (s > 0) ? 1 : -1;  // toward the exact sum (s != 0 here: an inexact sum is not 0)
    std::memcpy(&s, &bits, sizeof s);
  }
  return static_cast<float>(s);
}

inline float fma_f32(float a, float b, float c) {
  const double r = static_cast<double>(a) * static_cast<double>(b) + static_cast<double>(c);
  if (fma_f32_needs_exact(r)) [[unlikely]] return fma_f32_exact(a, b, c);
  return static_cast<float>(r);
}

}  // namespace pt
