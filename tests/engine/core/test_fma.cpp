// test_fma.cpp — core/fma.h's fma_f32 is a·b + c rounded once, bit for bit, in both builds.
//
// Golden data: tests/golden/fma/fma_f32.bin, written by tests/golden/gen_fma.py from exact rational
// arithmetic (Python's fractions), so it depends on no libm: ties a double rounding gets wrong, special values,
// results below float's normal range, and drawn triples of every scale. Natively the C library's std::fma
// (one instruction, or glibc's exact fmaf) must agree with the file too, which checks the generator.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/fma.h"

#include "golden_floats.h"

using pt::fma_f32;

namespace {

uint32_t bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Same bits, or both NaN (a NaN's payload is not part of the contract).
bool same(float a, float b) { return (a != a && b != b) || bits(a) == bits(b); }

std::string record(const float* r, float got) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "fma(%a, %a, %a): exact %a, got %a", r[0], r[1], r[2], r[3], got);
  return buf;
}

std::vector<float> golden() { return golden_floats("fma/fma_f32.bin"); }

// Runs fn over every record; returns how many differ and names the first.
template <class Fn> int64_t differing(const std::vector<float>& g, Fn fn, std::string& first) {
  int64_t n = 0;
  for (size_t i = 0; i + 4 <= g.size(); i += 4) {
    const float got = fn(g[i], g[i + 1], g[i + 2]);
    if (!same(got, g[i + 3]) && n++ == 0) first = record(&g[i], got);
  }
  return n;
}

}  // namespace

TEST_CASE("fma_f32 is a·b + c rounded once on every golden record (exact rational arithmetic)", "[fma][golden]") {
  const std::vector<float> g = golden();
  REQUIRE(g.size() >= 4 * 20000);
  std::string first;
  const int64_t fast = differing(g, [](float a, float b, float c) { return fma_f32(a, b, c); }, first);
  INFO("fma_f32: " << first);
  CHECK(fast == 0);
  first.clear();
  const int64_t exact = differing(g, [](float a, float b, float c) { return pt::fma_f32_exact(a, b, c); }, first);
  INFO("fma_f32_exact: " << first);
  CHECK(exact == 0);
#ifndef __EMSCRIPTEN__
  first.clear();
  const int64_t libc = differing(g, [](float a, float b, float c) { return std::fma(a, b, c); }, first);
  INFO("the C library's std::fma against the generator: " << first);
  CHECK(libc == 0);
#endif
}

TEST_CASE("fma_f32: a double sum on a float tie goes the exact way", "[fma]") {
  // a·b = 2^-24 − 2^-70 added to the odd float 1 + 2^-23: the double sum rounds onto the tie 1 + 2^-23 + 2^-24,
  // which float rounding alone would send up to the even 1 + 2^-22; the exact sum lies below the tie, so the
  // fused result is 1 + 2^-23 (bits 0x3f800001).
  const float a = 1.0f + 0x1p-23f, b = 0x1p-24f * (1.0f - 0x1p-23f), c = 1.0f + 0x1p-23f;
  const double r = static_cast<double>(a) * b + c;
  CHECK(pt::fma_f32_needs_exact(r));
  CHECK(bits(static_cast<float>(r)) == 0x3f800002u);
  CHECK(bits(fma_f32(a, b, c)) == 0x3f800001u);
  CHECK(bits(fma_f32(-a, b, -c)) == 0xbf800001u);
}

#ifndef __EMSCRIPTEN__
TEST_CASE("fma_f32 equals the C library's std::fma on a million drawn triples (native build)", "[fma]") {
  std::mt19937 gen(20261204);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-150, 130), kind(0, 3);
  std::uniform_int_distribution<uint32_t> any_bits;
  auto draw = [&]() -> float {
    switch (kind(gen)) {
      case 0: return unit(gen);
      case 1: return std::ldexp(unit(gen), exponent(gen));
      case 2: { const uint32_t w = any_bits(gen); float f; std::memcpy(&f, &w, 4); return f; }
      default: return static_cast<float>(static_cast<int>(unit(gen) * 64)) / 8.0f;
    }
  };
  int64_t differ = 0;
  float first[4] = {};
  for (int i = 0; i < 1000000; ++i) {
    const float a = draw(), b = draw(), c = draw();
    const float want = std::fma(a, b, c), got = fma_f32(a, b, c);
    if (!same(got, want) && differ++ == 0) first[0] = a, first[1] = b, first[2] = c, first[3] = want;
  }
  INFO(record(first, fma_f32(first[0], first[1], first[2])));
  CHECK(differ == 0);
}
#endif
