// kernel_tester.h — the kernel tester: runs every variant of a kernel against its scalar reference on
// drawn arguments and compares the outputs bit for bit. One loop serves every kernel; a kernel brings
// only its row of the table in test_kernels.cpp: a function that draws one call's arguments for a
// given size and reads the outputs of any variant run on them.
//
//   kt::KernelUnderTest k = kt::under_test(pt::kernels::f32_aminmax, draw_aminmax);
//   kt::Result r = kt::check(k);          // r.mismatch: "" or the first difference, named
//
// Sizes: 0, 1, 2, 3, around every variant's lane count and its multiples (L − 1, L, L + 1, ...),
// a few hundred and thousand, random ones and one above 10^5. Randomness is a splitmix64 stream from
// a fixed seed, so the native and the wasm build draw the very same calls (std:: distributions differ
// between libstdc++ and libc++); a report names the kernel, the variant, the call's shape and the
// first output element that differs, with both values' bits.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "kernels/kernels.h"

namespace kt {

// ---- randomness ------------------------------------------------------------------------------------

struct Rng {
  uint64_t state;
  uint64_t next() {  // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }  // [0, n)
  float unit() { return static_cast<float>(next() >> 40) * 0x1p-24f; }  // [0, 1), exact
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1p-53 < p; }
  template <typename T> const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
};

inline uint32_t bits(float v) { return __builtin_bit_cast(uint32_t, v); }
inline float from_bits(uint32_t b) { return __builtin_bit_cast(float, b); }

// ---- float values ----------------------------------------------------------------------------------
// A mix drawn once per call: a scale 2^-20 … 2^20 for roughly normal values (the sum of four
// uniforms), a share of special values: NaN (quiet, negative, signalling), ±inf, ±0, subnormals,
// the largest and smallest normals, and repeats of an earlier element (ties); and in a quarter of the
// calls relu's output: every negative value becomes a zero of either sign.
struct FloatMix {
  float scale;
  double special;
  bool relu;

  static FloatMix draw(Rng& r) {
    static const std::vector<double> shares = {0.0, 0.001, 0.05, 0.5};
    return {std::ldexp(1.0f, static_cast<int>(r.below(41)) - 20), r.pick(shares), r.chance(0.25)};
  }
};

inline float special_float(Rng& r) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const uint32_t sign = static_cast<uint32_t>(r.below(2)) << 31;
  switch (r.below(8)) {
    case 0: return from_bits(r.pick(std::vector<uint32_t>{0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fffffffu}));
    case 1: return r.chance(0.5) ? kInf : -kInf;
    case 2: return from_bits(sign);                                              // ±0
    case 3: return from_bits(sign | static_cast<uint32_t>(1 + r.below(0x7fffff)));  // ±subnormal
    case 4: return from_bits(sign | 0x7f7fffffu);                                // ±FLT_MAX
    case 5: return from_bits(sign | 0x00800000u);                                // ±FLT_MIN
    case 6: return from_bits(sign | 1u);                                         // ±denorm_min
    default: return from_bits(sign | static_cast<uint32_t>(r.next() & 0x7fffffffu));  // any bits
  }
}

inline std::vector<float> draw_floats(Rng& r, size_t n, const FloatMix& mix) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) {
    if (mix.special > 0 && r.chance(mix.special)) {
      x[i] = (i > 0 && r.chance(0.25)) ? x[r.below(i)] : special_float(r);
    } else {
      x[i] = (r.unit() + r.unit() + r.unit() + r.unit() - 2.0f) * mix.scale;
    }
    if (mix.relu && x[i] < 0.0f) x[i] = r.chance(0.5) ? -0.0f : 0.0f;
  }
  return x;
}

// ---- outputs ---------------------------------------------------------------------------------------

// A kernel's outputs as named runs of 32-bit words, compared bit for bit.
struct Field {
  std::string name;
  std::vector<uint32_t> words;
};
using Outputs = std::vector<Field>;

inline Field scalar_field(const std::string& name, float v) { return {name, {bits(v)}}; }
inline Field scalar_field(const std::string& name, bool v) { return {name, {v ? 1u : 0u}}; }
inline void add_aminmax(Outputs& out, const pt::kernels::AMinMax& s) {
  out.push_back(scalar_field("min", s.min));
  out.push_back(scalar_field("max", s.max));
  out.push_back(scalar_field("nan", s.nan));
}

// ---- the table's rows --------------------------------------------------------------------------------

// One drawn call of a kernel with function type Fn: its shape, and how to run a variant on it.
template <typename Fn> struct Call {
  std::string shape;
  std::function<Outputs(Fn*)> run;
};

// A kernel as the loop sees it: variant names and lanes, and calls drawn for a size.
struct KernelUnderTest {
  std::string name;
  std::vector<std::string> isas;  // [0] the scalar reference
  std::vector<size_t> lanes;
  struct Drawn {
    std::string shape;
    std::function<Outputs(size_t variant)> run;
  };
  std::function<Drawn(Rng&, size_t n)> draw;
};

// A row of the table: the kernel and `Call<Fn> draw(Rng&, size_t n)`.
template <typename Fn, typename Draw>
KernelUnderTest under_test(const pt::kernels::Kernel<Fn>& kernel, Draw draw) {
  KernelUnderTest k{std::string(kernel.name), {}, {}, {}};
  for (const auto& v : kernel.variants) {
    k.isas.emplace_back(v.isa);
    k.lanes.push_back(v.lanes);
  }
  const std::vector<Fn*> fns = [&] {
    std::vector<Fn*> f;
    for (const auto& v : kernel.variants) f.push_back(v.fn);
    return f;
  }();
  k.draw = [fns, draw](Rng& r, size_t n) {
    Call<Fn> call = draw(r, n);
    return KernelUnderTest::Drawn{call.shape, [fns, run = call.run](size_t v) { return run(fns[v]); }};
  };
  return k;
}

// ---- the loop ----------------------------------------------------------------------------------------

inline std::vector<size_t> sizes_for(const std::vector<size_t>& lanes, Rng& r) {
  std::set<size_t> s = {0, 1, 2, 3, 64, 255, 1000, 4099, 100003};
  for (size_t l : lanes)
    for (size_t m : {1, 2, 3, 4, 8})
      for (size_t d : {m * l - 1, m * l, m * l + 1}) s.insert(d);
  for (int k = 0; k < 4; ++k) s.insert(r.below(64));
  for (int k = 0; k < 4; ++k) s.insert(r.below(20000));
  return {s.begin(), s.end()};
}

inline std::string hex(uint32_t w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", w);
  return buf;
}

// "" if a and b have the same bits; otherwise the first differing element, named.
inline std::string first_difference(const Outputs& got, const Outputs& want) {
  for (size_t f = 0; f < want.size(); ++f) {
    const Field& w = want[f];
    if (f >= got.size() || got[f].name != w.name) return "output " + w.name + " missing";
    const Field& g = got[f];
    if (g.words.size() != w.words.size())
      return w.name + " has " + std::to_string(g.words.size()) + " elements, reference " + std::to_string(w.words.size());
    for (size_t i = 0; i < w.words.size(); ++i) {
      if (g.words[i] == w.words[i]) continue;
      const std::string at = w.words.size() == 1 ? w.name : w.name + "[" + std::to_string(i) + "]";
      return at + " = " + hex(g.words[i]) + ", reference " + hex(w.words[i]);
    }
  }
  return "";
}

// One drawn call run on every variant of k: the first variant that does not return the reference's
// bits and its first difference (both "" when every variant does).
struct VariantDifference {
  std::string variant, difference;
};
inline VariantDifference variant_difference(const KernelUnderTest& k, const KernelUnderTest::Drawn& call) {
  const Outputs want = call.run(0);
  for (size_t v = 1; v < k.isas.size(); ++v)
    if (std::string d = first_difference(call.run(v), want); !d.empty()) return {k.isas[v], d};
  return {};
}

struct Result {
  size_t calls = 0;           // drawn calls, each run on every variant
  size_t largest = 0;         // the largest size tried
  std::string mismatch;       // "" when every variant matched the reference on every call
};

inline constexpr uint64_t kSeed = 0x5eed'c0de'2024'0012ull;

// Every variant of k against k's reference (variant 0): calls_per_size calls for every size.
inline Result check(const KernelUnderTest& k, uint64_t seed = kSeed, size_t calls_per_size = 6) {
  Rng r{seed};
  Result res;
  for (size_t n : sizes_for(k.lanes, r)) {
    res.largest = std::max(res.largest, n);
    for (size_t c = 0; c < calls_per_size; ++c) {
      const KernelUnderTest::Drawn call = k.draw(r, n);
      ++res.calls;
      const VariantDifference d = variant_difference(k, call);
      if (d.difference.empty()) continue;
      res.mismatch = k.name + ": variant " + d.variant + " differs from the " + k.isas[0] + " reference on " +
                     call.shape + " (call " + std::to_string(res.calls) + ", seed " + hex(static_cast<uint32_t>(seed >> 32)) +
                     hex(static_cast<uint32_t>(seed)).substr(2) + "): first difference " + d.difference;
      return res;
    }
  }
  return res;
}

}  // namespace kt
