// test_randperm.cpp — pt::randperm against torch 1.13's torch.randperm(n, generator=g) (tests/golden/gen_data.py):
// every value for three seeds and n = 1 .. 1000, and a sequence of draws on one generator (randperm, randperm,
// randn, randperm), which shows randperm consumes the generator's state as torch does.
#include <catch2/catch.hpp>

#include "core/generator.h"
#include "ops/golden.h"

using namespace pt;

namespace {

// The indices of a golden tensor (stored as float32, exact below 2^24).
std::vector<int32_t> indices(const Tensor& t) {
  std::vector<int32_t> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(static_cast<int32_t>(t.data<float>()[i]));
  return out;
}

std::vector<int32_t> values(const Tensor& t) { return {t.data<int32_t>(), t.data<int32_t>() + t.numel()}; }

}  // namespace

TEST_CASE("randperm equals torch.randperm with a generator, value for value") {
  const golden::Golden g("shuffle", "data");
  for (uint64_t seed : {0, 1, 42})
    for (int64_t n : {1, 2, 3, 10, 100, 1000}) {
      Generator gen(seed);
      const Tensor p = randperm(n, gen);
      INFO("seed " << seed << " n " << n);
      CHECK(p.dtype() == DType::Int32);
      CHECK(values(p) == indices(g.tensor("randperm.seed" + std::to_string(seed) + ".n" + std::to_string(n))));
    }
}

TEST_CASE("randperm draws from the generator as torch does: a later randn sees the same state") {
  const golden::Golden g("shuffle", "data");
  const Tensor want = g.tensor("sequence");
  Generator gen(7);
  const Tensor a = randperm(10, gen), b = randperm(5, gen), r = randn({20}, gen), c = randperm(6, gen);
  const float* w = want.data<float>();
  CHECK(values(a) == std::vector<int32_t>(w, w + 10));
  CHECK(values(b) == std::vector<int32_t>(w + 10, w + 15));
  for (int i = 0; i < 20; ++i) CHECK(r.data<float>()[i] == w[15 + i]);  // bit for bit
  CHECK(values(c) == std::vector<int32_t>(w + 35, w + 41));
}

TEST_CASE("randperm edge cases: n = 0 is empty, a negative n is torch's RuntimeError") {
  Generator gen(0);
  CHECK(randperm(0, gen).numel() == 0);
  CHECK_THROWS_AS(randperm(-1, gen), RuntimeError);
  CHECK_THROWS_WITH(randperm(-1, gen), Catch::Contains("negative dimension -1"));
}
