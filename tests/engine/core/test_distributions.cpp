// test_distributions.cpp — StudentT / Chi2 / standard gamma against torch 1.13, bit for bit.
//
// Golden data: tests/golden/gen_distributions.py (each .bin holds the n samples, then the randn(7)
// torch drew right after them, which checks the generator state and its cached double normal).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/distributions.h"

namespace {

std::vector<float> read_f32(const std::string& name) {
  std::ifstream f(std::string(PT_SOURCE_DIR) + "/tests/golden/distributions/" + name + ".bin", std::ios::binary);
  REQUIRE(f.good());
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Number of positions whose float32 bits differ, comparing `got` with want[offset ...].
int64_t bit_mismatches(const pt::Tensor& got, const std::vector<float>& want, size_t offset) {
  REQUIRE(want.size() >= offset + static_cast<size_t>(got.numel()));
  int64_t bad = 0;
  const float* g = got.data<float>();
  for (int64_t i = 0; i < got.numel(); ++i) bad += bits(g[i]) != bits(want[offset + i]);
  return bad;
}

struct Case {
  const char* name;
  const char* kind;
  double param;
  int64_t n;
  uint64_t seed;
};

// The parameters of gen_distributions.py's CASES (the values come from the .bin files).
const Case kCases[] = {
    {"student_t_df3_n30000_s0", "student_t", 3.0, 30000, 0},
    {"student_t_df3_n1000_s1", "student_t", 3.0, 1000, 1},
    {"student_t_df1_n4096_s7", "student_t", 1.0, 4096, 7},
    {"student_t_df0.5_n777_s3", "student_t", 0.5, 777, 3},
    {"student_t_df10_n17_s5", "student_t", 10.0, 17, 5},
    {"student_t_df2.5_n7_s11", "student_t", 2.5, 7, 11},
    {"student_t_df30_n16_s2", "student_t", 30.0, 16, 2},
    {"chi2_df3_n5000_s4", "chi2", 3.0, 5000, 4},
    {"chi2_df0.7_n3000_s9", "chi2", 0.7, 3000, 9},
    {"standard_gamma_a0.25_n3000_s6", "standard_gamma", 0.25, 3000, 6},
    {"standard_gamma_a1_n2000_s8", "standard_gamma", 1.0, 2000, 8},
    {"standard_gamma_a7.5_n2000_s10", "standard_gamma", 7.5, 2000, 10},
};

pt::Tensor draw(const Case& c, pt::Generator& gen) {
  const std::string kind = c.kind;
  if (kind == "student_t") return pt::student_t(c.param, {c.n}, gen);
  if (kind == "chi2") return pt::chi2(c.param, {c.n}, gen);
  return pt::standard_gamma(pt::Tensor::full({c.n}, static_cast<float>(c.param)), gen);
}

}  // namespace

TEST_CASE("distributions: StudentT, Chi2 and _standard_gamma match torch 1.13 bit for bit") {
  for (const Case& c : kCases) {
    INFO(c.name);
    const std::vector<float> want = read_f32(c.name);
    REQUIRE(want.size() == static_cast<size_t>(c.n) + 7);
    pt::Generator gen(c.seed);
    pt::Tensor x = draw(c, gen);
    REQUIRE(x.shape() == pt::Shape{c.n});
    CHECK(bit_mismatches(x, want, 0) == 0);
    pt::Tensor after = pt::randn({7}, gen);  // the scalar normal path: uses the cached double normal
    CHECK(bit_mismatches(after, want, static_cast<size_t>(c.n)) == 0);
  }
}

TEST_CASE("distributions: the default generator and manual_seed drive student_t") {
  const std::vector<float> want = read_f32("student_t_df3_n1000_s1");
  pt::manual_seed(1);
  pt::Tensor x = pt::student_t(3.0, {1000});
  CHECK(bit_mismatches(x, want, 0) == 0);
}

TEST_CASE("distributions: multi-dimensional shapes fill in element order") {
  const std::vector<float> want = read_f32("student_t_df1_n4096_s7");
  pt::Generator gen(7);
  pt::Tensor x = pt::student_t(1.0, {64, 64}, gen);
  CHECK(x.shape() == pt::Shape{64, 64});
  CHECK(bit_mismatches(x, want, 0) == 0);
}

TEST_CASE("distributions: invalid parameters throw ValueError and draw nothing") {
  pt::Generator gen(0), fresh(0);
  CHECK_THROWS_AS(pt::student_t(0.0, {4}, gen), pt::ValueError);
  CHECK_THROWS_AS(pt::student_t(-1.0, {4}, gen), pt::ValueError);
  CHECK_THROWS_AS(pt::student_t(std::nan(""), {4}, gen), pt::ValueError);
  CHECK_THROWS_AS(pt::chi2(-2.0, {4}, gen), pt::ValueError);
  CHECK_THROWS_AS(pt::student_t(3.0, {-1}, gen), pt::ValueError);
  CHECK_THROWS_AS(pt::standard_gamma(pt::Tensor::full({3}, -0.5f), gen), pt::ValueError);
  CHECK_THROWS_AS(pt::standard_gamma(pt::Tensor::full({3}, std::nanf("")), gen), pt::ValueError);
  CHECK_THROWS_AS(pt::standard_gamma(pt::Tensor::zeros({3}, pt::DType::Int32), gen), pt::TypeError);
  CHECK(gen.random() == fresh.random());  // no draw happened before the checks failed
}

TEST_CASE("distributions: a zero gamma concentration gives FLT_MIN without drawing") {
  pt::Generator gen(0), fresh(0);
  pt::Tensor g = pt::standard_gamma(pt::Tensor::zeros({5}), gen);
  for (float v : g.span<float>()) CHECK(v == std::numeric_limits<float>::min());
  CHECK(gen.random() == fresh.random());
}
