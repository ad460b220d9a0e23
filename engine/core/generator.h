// generator.h — torch's CPU random generator, reproduced bit for bit.
//
// pt::Generator is MT19937 exactly as ATen's CPUGeneratorImpl drives it, and the sampling functions
// below consume it in the same order and with the same float arithmetic as torch's CPU kernels
// (docs/algorithms.md, Generator). After `manual_seed(s)`, `randn`, `rand`, `uniform_`, `normal_` return
// the very bits `torch.manual_seed(s); torch.randn(...)` returns, in the native and the wasm build.
//
//   pt::manual_seed(0);
//   pt::Tensor x = pt::randn({20000});   // == torch.randn(20000) after torch.manual_seed(0)
//
// randperm(n) draws as torch.randperm does (below).
// Like torch, normal_/randn take two paths: n >= 16 draws n (+16) float uniforms and runs the AVX2
// kernel's Box–Muller in blocks of 16; n < 16 draws double uniforms per pair and keeps the second
// value cached in the generator across calls (manual_seed clears it). The n < 16 path uses the C
// library's double log/sin/cos as torch does; musl (wasm) and glibc disagree in the last bit of a
// few % of those doubles, which the cast to float32 hides (tests/golden/random/scalar_stress).
// Errors: a negative shape is a ValueError naming "shape"; uniform_ with from > to and normal_ with
// std < 0 are RuntimeErrors with torch's messages; a non-float32 tensor is a TypeError.
#pragma once
#include <cstdint>
#include <optional>

#include "core/tensor.h"

namespace pt {

class Generator {
 public:
  explicit Generator(uint64_t seed = 67280421310721ULL);  // torch's default seed
  void manual_seed(uint64_t seed);
  uint64_t initial_seed() const { return seed_; }
  uint32_t random();    // next 32-bit MT19937 output
  uint64_t random64();  // two draws, the first is the high word
  // The cached second Box–Muller value of the scalar normal path (cleared by manual_seed).
  std::optional<double>& next_double_normal_sample() { return next_double_normal_; }

 private:
  uint64_t seed_ = 0;
  uint32_t state_[624];
  int index_ = 624;
  std::optional<double> next_double_normal_;
};

Generator& default_generator();
void manual_seed(uint64_t seed);  // seeds the default generator

Tensor randn(const Shape& shape, Generator& gen = default_generator());
Tensor rand(const Shape& shape, Generator& gen = default_generator());
void uniform_(Tensor& t, double from, double to, Generator& gen = default_generator());
void normal_(Tensor& t, double mean, double std, Generator& gen = default_generator());
// torch.randperm(n, generator=gen) on CPU: 0..n-1, then for i = 0 .. n-2 swap element i with element
// i + random() % (n - i) (ATen TensorFactories.cpp randperm_cpu; n - 1 draws of random()). int32 (torch:
// int64; the engine has no int64). A negative n is torch's RuntimeError.
Tensor randperm(int64_t n, Generator& gen = default_generator());

}  // namespace pt
