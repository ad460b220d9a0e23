// fuzz_input.h — what every fuzz target (tests/fuzz/targets/*.cpp) draws its choices from: the fuzzer's bytes
// read front to back as small decisions (a bool, an int in a range, one of a list), floats that favour the
// values that break numerics (NaN, ±Inf, -0, denormals, float extremes, huge and tiny), and shapes that are
// either small enough to run quickly or far past what a tensor may hold (pt::kMaxTensorBytes, overflowing
// products) — never the slow middle. Once the bytes run out every read returns its smallest choice, so any
// input is a complete, deterministic test case (libFuzzer's usual contract).
//
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     pt::fuzz::Input in(data, size);
//     pt::Shape s = in.shape();
//     float v = in.special_float();
//     return pt::fuzz::expect_typed([&] { pt::randn(s); });   // a pt::Error is an answer; anything else escapes
//   }
// The same target file builds two ways (CMakeLists.txt, "Fuzz targets"): a libFuzzer executable (-DPT_FUZZ=ON,
// clang; scripts/fuzz.js runs it) and, in every native build, a replay of the committed corpus and crash
// reproducers (tests/fuzz/replay_main.cpp; ctest "fuzz:<target>", part of npm test).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/tensor.h"

namespace pt::fuzz {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }

  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool flag() { return byte() & 1; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | byte();
    return v;
  }
  // An integer in [lo, hi] (inclusive).
  int64_t range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    if (span == 0) return lo;
    uint64_t v = (static_cast<uint64_t>(u32()) << 32) | u32();
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + (span == UINT64_MAX ? v : v % (span + 1)));
  }
  // One of items, which must not be empty (a harness bug, not the engine's: reported as a crash).
  template <class T> const T& pick(const std::vector<T>& items) { return items.at(static_cast<size_t>(range(0, static_cast<int64_t>(items.size()) - 1))); }

  // An integer that is usually small, sometimes an edge (0, -1, the int8 / uint8 / int32 bounds, ±2^31, ±2^53, int64's).
  int64_t edgy_int() {
    static const std::vector<int64_t> edges = {0, 1, -1, 2, 127, -128, 255, 256, -129, 32767, -32768, 65535,
                                               2147483647, -2147483648LL, 2147483648LL, int64_t{1} << 53,
                                               std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
    switch (byte() % 4) {
      case 0: return pick(edges);
      case 1: return range(-300, 300);
      case 2: return range(-4, 16);
      default: return static_cast<int64_t>((static_cast<uint64_t>(u32()) << 32) | u32());
    }
  }

  // A float that numerics trip over as often as an ordinary one.
  float special_float() {
    static const std::vector<float> special = {
        0.0f, -0.0f, 1.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
        std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
        std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
        std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest(), std::numeric_limits<float>::epsilon(),
        1e-30f, 1e30f, 3.4e38f, 0.5f, 127.5f, -128.5f, 1e-7f, 65504.0f};
    switch (byte() % 4) {
      case 0: return pick(special);
      case 1: {  // any bit pattern
        const uint32_t bits = u32();
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
      }
      case 2: return static_cast<float>(range(-1000, 1000)) / 8.0f;
      default: return static_cast<float>(range(-1000000, 1000000)) * 1e-3f * std::ldexp(1.0f, static_cast<int>(range(-40, 40)));
    }
  }
  double special_double() { return flag() ? static_cast<double>(special_float()) : static_cast<double>(edgy_int()) * std::ldexp(1.0, static_cast<int>(range(-60, 20))); }

  // n floats: all special, all ordinary (a normal-ish spread), or mixed.
  std::vector<float> floats(int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    const int mode = byte() % 3;
    const float scale = std::ldexp(1.0f, static_cast<int>(range(-20, 20)));
    for (float& x : v) {
      if (mode == 0 || (mode == 2 && byte() % 8 == 0)) x = special_float();
      else x = (static_cast<float>(range(-4096, 4096)) / 1024.0f) * scale;
    }
    return v;
  }

  // A shape: usually small (numel <= kSmallNumel, rank 0-5, zero dims included); sometimes past every limit
  // (negative, a product over 2^31 elements or 2^31 bytes, int64 overflow), which must fail before allocating.
  static constexpr int64_t kSmallNumel = 4096;
  Shape shape(int max_rank = 5) {
    if (byte() % 16 != 0) return small_shape(0, max_rank);
    Shape s(static_cast<size_t>(range(1, max_rank)));  // past the limits
    for (int64_t& d : s) d = flag() ? edgy_int() : range(0, int64_t{1} << 34);
    if (flag()) s[0] = int64_t{1} << 30;
    // Never the slow middle: unless a dimension is 0 or negative, at least 2^31 elements (past the byte limit for
    // every dtype). An edge like 2^31 - 1 alone passed for int8 and made a 2 GiB block (a libFuzzer timeout).
    int64_t numel = 1;
    bool empty_or_negative = false;
    for (int64_t d : s) {
      if (d <= 0) empty_or_negative = true;
      else numel = numel > (int64_t{1} << 40) / d ? int64_t{1} << 40 : numel * d;
    }
    if (!empty_or_negative && numel < (int64_t{1} << 31)) s[0] = int64_t{1} << 31;
    return s;
  }
  // A small shape only (numel <= kSmallNumel; a dimension of 0 now and then), for what a target must allocate.
  Shape small_shape(int min_rank = 0, int max_rank = 4) {
    Shape s(static_cast<size_t>(range(min_rank, max_rank)));
    int64_t numel = 1;
    for (int64_t& d : s) {
      d = byte() % 8 == 0 ? 0 : range(1, std::max<int64_t>(1, std::min<int64_t>(64, kSmallNumel / numel)));
      numel *= std::max<int64_t>(d, 1);
    }
    return s;
  }

  std::string name(const std::vector<std::string>& known) {
    if (byte() % 8 == 0) {  // something no list has
      std::string s;
      for (int i = 0, n = static_cast<int>(range(0, 12)); i < n; ++i) s += static_cast<char>(range(1, 255));
      return s;
    }
    return pick(known);
  }

  // A float32 tensor of a small shape filled by floats().
  Tensor tensor(const Shape& s) {
    Tensor t = Tensor::empty(s);
    const std::vector<float> v = floats(t.numel());
    std::copy(v.begin(), v.end(), t.data<float>());
    return t;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Runs f; a typed engine error (pt::Error) is a correct answer to bad input and is swallowed. Any other
// exception escapes to libFuzzer (or the replay), which reports it: the engine must never answer with one.
template <class F> int expect_typed(F&& f) {
  try {
    f();
  } catch (const pt::Error&) {
  }
  return 0;
}

}  // namespace pt::fuzz
