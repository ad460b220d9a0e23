// generator.cpp — torch's CPU generator and its float32 sampling kernels, bit for bit
// (docs/algorithms.md, Generator).
//
// Three layers, each a small function:
//   1. MT19937 (Generator::random), seeded like at::mt19937 with the low 32 bits of the seed.
//   2. Draws: a float uniform from one 32-bit draw (24 bits), a double uniform from random64 (53 bits),
//      and the scalar normal_distribution<double> with its cached second Box–Muller value.
//   3. Fills: uniform_ (one draw per element, fma(u, to-from, from)) and normal_ — n >= 16 runs the
//      AVX2 kernel's Box–Muller on blocks of 16 with avx_mathfun's Cephes log/sincos, reproduced in
//      scalar f32 with fused multiply-adds (fma_f32, core/fma.h) exactly where the compiled kernel fuses;
//      n < 16 runs the scalar path.
// The double path calls std::log/sin/cos; see scalar_normal() for why the libm does not show.
#include "core/generator.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <sstream>
#include <utility>

#include "core/fma.h"

namespace pt {

// ---- 1. MT19937 ---------------------------------------------------------------------------------

namespace {
constexpr int kStateN = 624;
constexpr int kStateM = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfu;
constexpr uint32_t kUpperMask = 0x80000000u;
constexpr uint32_t kLowerMask = 0x7fffffffu;

uint32_t twist(uint32_t u, uint32_t v) {
  uint32_t mixed = (u & kUpperMask) | (v & kLowerMask);
  return (mixed >> 1) ^ ((v & 1u) ? kMatrixA : 0u);
}
}  // namespace

Generator::Generator(uint64_t seed) { manual_seed(seed); }

void Generator::manual_seed(uint64_t seed) {
  seed_ = seed;
  state_[0] = static_cast<uint32_t>(seed & 0xffffffffu);
  for (int j = 1; j < kStateN; ++j)
    state_[j] = 1812433253u * (state_[j - 1] ^ (state_[j - 1] >> 30)) + static_cast<uint32_t>(j);
  index_ = kStateN;  // the first draw regenerates the whole state, as at::mt19937 does
  next_double_normal_.reset();
}

uint32_t Generator::random() {
  if (index_ >= kStateN) {  // regenerate the state in place (at::mt19937::next_state)
    int j = 0;
    for (; j < kStateN - kStateM; ++j) state_[j] = state_[j + kStateM] ^ twist(state_[j], state_[j + 1]);
    for (; j < kStateN - 1; ++j) state_[j] = state_[j + kStateM - kStateN] ^ twist(state_[j], state_[j + 1]);
    state_[j] = state_[kStateM - 1] ^ twist(state_[j], state_[0]);
    index_ = 0;
  }
  uint32_t y = state_[index_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

uint64_t Generator::random64() {
  uint64_t hi = random();
  uint64_t lo = random();
  return (hi << 32) | lo;
}

Generator& default_generator() {
  static Generator gen;
  return gen;
}

void manual_seed(uint64_t seed) { default_generator().manual_seed(seed); }

// ---- 2. Draws -----------------------------------------------------------------------------------

namespace {

// at::uniform_real_distribution<float>: 24 random bits scaled by 2^-24, then x*(to-from)+from,
// which torch's FMA-enabled build contracts into one fma.
float uniform_float(Generator& gen, float from, float to) {
  const float u = static_cast<float>(gen.random() & 0xffffffu) * 0x1p-24f;
  return fma_f32(u, to - from, from);
}

// at::uniform_real_distribution<double>(0, 1): 53 random bits scaled by 2^-53.
double uniform_double01(Generator& gen) {
  return static_cast<double>(gen.random64() & ((uint64_t{1} << 53) - 1)) * 0x1p-53;
}

// at::normal_distribution<double>: Box–Muller on two double uniforms; returns r·cos θ and caches
// r·sin θ in the generator for the next call. transformation::normal (val*std + mean) is
// contracted to an fma in torch's build (tests/golden/random/normal_fma_probe proves it).
// The libm shows only through the cast to float: glibc (native, torch) and musl (wasm) differ by one
// double ulp in ~3% of sin/cos and ~0.01% of log results, and a float32 result flips only when such
// a pair straddles a float rounding tie (~2^-29 per value); 15M scalar-path values were identical.
double scalar_normal(Generator& gen, double mean, double std) {
  std::optional<double>& cached = gen.next_double_normal_sample();
  if (cached) {
    double v = *cached;
    cached.reset();
    return std::fma(v, std, mean);
  }
  double u1 = uniform_double01(gen);
  double u2 = uniform_double01(gen);
  double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  double theta = 2.0 * std::numbers::pi * u1;
  cached = r * std::sin(theta);
  return std::fma(r * std::cos(theta), std, mean);
}

// ---- 3. The AVX2 normal kernel in scalar f32 ----------------------------------------------------

uint32_t bits_of(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

float float_of(uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

// avx_mathfun.h log256_ps for x > 0, with the fused multiply-adds of torch's build.
float cephes_logf(float x) {
  const float min_norm_pos = float_of(0x00800000u);
  x = x > min_norm_pos ? x : min_norm_pos;
  float e = static_cast<float>(static_cast<int32_t>(bits_of(x) >> 23) - 127) + 1.0f;
  float m = float_of((bits_of(x) & ~0x7f800000u) | bits_of(0.5f));
  if (m < 0.707106781186547524f) {
    e -= 1.0f;
    m = (m - 1.0f) + m;
  } else {
    m = m - 1.0f;
  }
  float z = m * m;
  static const float p[8] = {-1.1514610310e-1f, 1.1676998740e-1f, -1.2420140846e-1f, 1.4249322787e-1f,
                             -1.6668057665e-1f, 2.0000714765e-1f, -2.4999993993e-1f, 3.3333331174e-1f};
  float y = 7.0376836292e-2f;
  for (float c : p) y = fma_f32(y, m, c);
  y = y * m;
  y = fma_f32(y, z, e * -2.12194440e-4f);
  y = fma_f32(-z, 0.5f, y);
  float r = m + y;
  return fma_f32(e, 0.693359375f, r);
}

// avx_mathfun.h sincos256_ps for theta >= 0 (theta = 2π·u here), with torch's build's fmas.
void cephes_sincosf(float theta, float* s, float* c) {
  float y = theta * 1.27323954473516f;
  int32_t j = static_cast<int32_t>(y);
  j = (j + 1) & ~1;
  y = static_cast<float>(j);
  bool swap_sin = (j & 4) != 0;
  bool poly_sin = (j & 2) == 0;
  float x = fma_f32(y, -0.78515625f, theta);
  x = fma_f32(y, -2.4187564849853515625e-4f, x);
  x = fma_f32(y, -3.77489497744594108e-8f, x);
  bool cos_sign = ((~(j - 2)) & 4) != 0;
  float z = x * x;
  float pc = 2.443315711809948e-5f;
  pc = fma_f32(pc, z, -1.388731625493765e-3f);
  pc = fma_f32(pc, z, 4.166664568298827e-2f);
  pc = pc * z;
  pc = fma_f32(pc, z, -(z * 0.5f));
  pc = pc + 1.0f;
  float ps = -1.9515295891e-4f;
  ps = fma_f32(ps, z, 8.3321608736e-3f);
  ps = fma_f32(ps, z, -1.6666654611e-1f);
  ps = ps * z;
  ps = fma_f32(ps, x, x);
  float sin_v = poly_sin ? ps : pc;
  float cos_v = poly_sin ? pc : ps;
  if (swap_sin) sin_v = float_of(bits_of(sin_v) ^ 0x80000000u);
  if (cos_sign) cos_v = float_of(bits_of(cos_v) ^ 0x80000000u);
  *s = sin_v;
  *c = cos_v;
}

// normal_fill_16_AVX2: d[0..8) and d[8..16) hold uniforms; overwrite them with normals.
void normal_fill_16(float* d, float mean, float std) {
  const float two_pi = static_cast<float>(2.0 * std::numbers::pi);
  for (int j = 0; j < 8; ++j) {
    float u1 = 1.0f - d[j];
    float u2 = d[j + 8];
    float radius = std::sqrt(-2.0f * cephes_logf(u1));
    float s, c;
    cephes_sincosf(two_pi * u2, &s, &c);
    d[j] = fma_f32(radius * c, std, mean);
    d[j + 8] = fma_f32(radius * s, std, mean);
  }
}

void normal_fill(float* d, int64_t n, float mean, float std, Generator& gen) {
  for (int64_t i = 0; i < n; ++i) d[i] = uniform_float(gen, 0.0f, 1.0f);
  for (int64_t i = 0; i + 15 < n; i += 16) normal_fill_16(d + i, mean, std);
  if (n % 16 != 0) {  // redraw the last 16 slots (overlapping the last full block) and redo them
    float* tail = d + n - 16;
    for (int i = 0; i < 16; ++i) tail[i] = uniform_float(gen, 0.0f, 1.0f);
    normal_fill_16(tail, mean, std);
  }
}

std::string num_str(double v) {  // formats a double as c10::str does (ostream defaults)
  std::ostringstream os;
  os << v;
  return os.str();
}

float* float_data(Tensor& t, const char* op) {
  if (t.dtype() != DType::Float32)
    throw TypeError(std::string(op) + ": expected a float32 tensor, got " + dtype_name(t.dtype()));
  return t.data<float>();
}

}  // namespace

// ---- Public API ---------------------------------------------------------------------------------

void uniform_(Tensor& t, double from, double to, Generator& gen) {
  float* d = float_data(t, "uniform_");
  const double lowest = -static_cast<double>(std::numeric_limits<float>::max());
  const double highest = static_cast<double>(std::numeric_limits<float>::max());
  if (!(from >= lowest && from <= highest)) throw RuntimeError("from is out of bounds for float");
  if (!(to >= lowest && to <= highest)) throw RuntimeError("to is out of bounds for float");
  if (!(from <= to))
    throw RuntimeError("uniform_ expects to return a [from, to) range, but found from=" + num_str(from) +
                       " > to=" + num_str(to));
  if (!(to - from <= highest))
    throw RuntimeError("uniform_ expects to-from <= std::numeric_limits<Float>::max(), but found to=" +
                       num_str(to) + " and from=" + num_str(from) + " which result in to-from to exceed the limit");
  const float f = static_cast<float>(from), g = static_cast<float>(to);
  for (int64_t i = 0; i < t.numel(); ++i) d[i] = uniform_float(gen, f, g);
}

void normal_(Tensor& t, double mean, double std, Generator& gen) {
  float* d = float_data(t, "normal_");
  if (!(std >= 0.0)) throw RuntimeError("normal expects std >= 0.0, but found std " + num_str(std));
  const int64_t n = t.numel();
  if (n >= 16) {
    normal_fill(d, n, static_cast<float>(mean), static_cast<float>(std), gen);
  } else {
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<float>(scalar_normal(gen, mean, std));
  }
}

Tensor randn(const Shape& shape, Generator& gen) {
  Tensor t = Tensor::empty(shape);
  normal_(t, 0.0, 1.0, gen);
  return t;
}

Tensor rand(const Shape& shape, Generator& gen) {
  Tensor t = Tensor::empty(shape);
  uniform_(t, 0.0, 1.0, gen);
  return t;
}

Tensor randperm(int64_t n, Generator& gen) {
  if (n < 0) throw RuntimeError("Trying to create tensor with negative dimension " + std::to_string(n) + ": [" + std::to_string(n) + "]");
  if (n > std::numeric_limits<int32_t>::max()) throw ValueError("randperm: n must fit in int32, got " + std::to_string(n));
  Tensor t = Tensor::empty({n}, DType::Int32);
  int32_t* r = t.data<int32_t>();
  for (int64_t i = 0; i < n; ++i) r[i] = static_cast<int32_t>(i);
  for (int64_t i = 0; i + 1 < n; ++i) std::swap(r[i], r[i + static_cast<int64_t>(gen.random() % static_cast<uint64_t>(n - i))]);
  return t;
}

}  // namespace pt
