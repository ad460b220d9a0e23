// test_histogram_observer.cpp — HistogramObserver (torchao 0.18 algorithm) against the torch 1.13
// transcription in tests/golden/gen_histogram.py, bit for bit: histogram, min/max, search range,
// scale and zero_point, number of quant_error evaluations; plus the torch building blocks
// (linspace, cascade sum, histc) and the observer's errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/distributions.h"
#include "core/generator.h"
#include "quant/histogram_observer.h"

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<char> read_golden(const std::string& name) {
  std::ifstream f(std::string(PT_SOURCE_DIR) + "/tests/golden/histogram/" + name, std::ios::binary);
  REQUIRE(f.good());
  return std::vector<char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Sequential little-endian reader over a golden file.
struct Reader {
  std::vector<char> bytes;
  size_t at = 0;
  template <class T> T next() {
    if (at + sizeof(T) > bytes.size()) throw std::out_of_range("golden file ends early");
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  std::vector<float> floats(size_t n) {
    std::vector<float> v(n);
    for (float& f : v) f = next<float>();
    return v;
  }
};

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

int64_t bit_mismatches(std::span<const float> got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  int64_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) bad += bits(got[i]) != bits(want[i]);
  return bad;
}

struct Batch {
  const char* kind;
  int64_t n;
  float scale;
};

// The batch recipes of gen_histogram.py's make_batch, drawn from the engine's generator.
pt::Tensor make_batch(const Batch& b, pt::Generator& gen) {
  const std::string kind = b.kind;
  pt::Tensor x;
  if (kind == "randn" || kind == "randn_inf") x = pt::randn({b.n}, gen);
  else if (kind == "relu_randn") x = pt::randn({b.n}, gen);
  else if (kind == "neg_abs_randn") x = pt::randn({b.n}, gen);
  else if (kind == "student_t3") x = pt::student_t(3.0, {b.n}, gen);
  else if (kind == "full") return pt::Tensor::full({b.n}, b.scale);
  else if (kind == "inf_only") return pt::Tensor::full({b.n}, kInf);
  float* p = x.data<float>();
  for (int64_t i = 0; i < b.n; ++i) {
    if (kind == "relu_randn") p[i] = std::max(p[i], 0.0f) * b.scale;
    else if (kind == "neg_abs_randn") p[i] = -std::fabs(p[i]) * b.scale - 1.0f;
    else p[i] *= b.scale;
  }
  if (kind == "randn_inf") {
    for (int64_t i = 0; i < b.n; i += 97) p[i] = kInf;
    for (int64_t i = 0; i < b.n; i += 89) p[i] = -kInf;
  }
  return x;
}

struct Case {
  const char* name;
  uint64_t seed;
  pt::DType dtype;
  pt::QScheme qscheme;
  std::optional<int64_t> quant_min, quant_max;
  float eps;
  int64_t bins;
  std::vector<Batch> batches;
};

std::vector<Batch> spike_batches() {
  std::vector<Batch> v;
  for (int i = 0; i < 20; ++i) v.push_back({"randn", 1000, i == 3 ? 10.0f : 1.0f});
  return v;
}

// gen_histogram.py's CASES (parameters only; every result comes from the golden files).
std::vector<Case> cases() {
  using pt::DType;
  using pt::QScheme;
  const QScheme aff = QScheme::per_tensor_affine, sym = QScheme::per_tensor_symmetric;
  const float e12 = 0x1p-12f;
  return {
      {"gauss20k_int8_affine", 0, DType::Int8, aff, -128, 127, e12, 2048, {{"randn", 20000, 1}}},
      {"gauss20k_uint8_symmetric", 0, DType::UInt8, sym, {}, {}, e12, 2048, {{"randn", 20000, 1}}},
      {"gauss20k_int8_symmetric", 0, DType::Int8, sym, -128, 127, e12, 2048, {{"randn", 20000, 1}}},
      {"relu5k_uint8_affine", 3, DType::UInt8, aff, {}, {}, 0x1p-23f, 2048, {{"relu_randn", 5000, 1}}},
      {"t3_20k_int8_affine", 4, DType::Int8, aff, -128, 127, e12, 2048, {{"student_t3", 20000, 1}}},
      {"grow_int8_affine", 1, DType::Int8, aff, -128, 127, e12, 2048,
       {{"randn", 1000, 1}, {"randn", 1000, 2}, {"randn", 1000, 4}}},
      {"shrink_uint8_affine", 2, DType::UInt8, aff, 0, 255, e12, 2048,
       {{"randn", 1000, 4}, {"randn", 1000, 1}, {"randn", 1000, 0.5f}}},
      {"spike20_int8_affine", 5, DType::Int8, aff, -128, 127, e12, 2048, spike_batches()},
      {"const_first_int8_affine", 6, DType::Int8, aff, -128, 127, e12, 2048, {{"full", 100, 0.5f}, {"randn", 1000, 1}}},
      {"const_both_uint8_symmetric", 7, DType::UInt8, sym, 0, 255, e12, 2048, {{"full", 10, 2}, {"full", 10, 2}}},
      {"const_then_wider_const_int8_affine", 7, DType::Int8, aff, -128, 127, e12, 2048,
       {{"full", 10, 2}, {"full", 30, -1}}},
      {"inf_dropped_int8_symmetric", 8, DType::Int8, sym, -128, 127, e12, 2048,
       {{"randn_inf", 2000, 1}, {"inf_only", 5, 0}, {"randn_inf", 2000, 3}}},
      {"negative_only_int8_affine", 9, DType::Int8, aff, -128, 127, e12, 2048, {{"neg_abs_randn", 3000, 2}}},
      {"single_value_int8_affine", 10, DType::Int8, aff, -128, 127, e12, 2048, {{"full", 1, 3}}},
      {"bins256_int8_affine", 11, DType::Int8, aff, -127, 127, e12, 256, {{"randn", 4000, 1}, {"randn", 4000, 1.5f}}},
      {"uninitialized_int8_affine", 0, DType::Int8, aff, -128, 127, e12, 2048, {}},
  };
}

pt::ObserverArgs args_of(const Case& c) {
  pt::ObserverArgs a;
  a.dtype = c.dtype;
  a.qscheme = c.qscheme;
  a.quant_min = c.quant_min;
  a.quant_max = c.quant_max;
  a.eps = c.eps;
  a.bins = c.bins;
  return a;
}

pt::ObserverArgs int8_affine() {
  pt::ObserverArgs a;
  a.dtype = pt::DType::Int8;
  a.quant_min = -128;
  a.quant_max = 127;
  a.eps = 0x1p-12f;
  return a;
}

}  // namespace

TEST_CASE("HistogramObserver matches the torchao algorithm on torch 1.13, bit for bit") {
  for (const Case& c : cases()) {
    INFO(c.name);
    Reader r{read_golden(std::string(c.name) + ".bin")};
    const float min_val = r.next<float>(), max_val = r.next<float>();
    const float search_min = r.next<float>(), search_max = r.next<float>(), scale = r.next<float>();
    const int32_t zero_point = r.next<int32_t>(), bins = r.next<int32_t>(), evaluations = r.next<int32_t>();
    const std::vector<float> histogram = r.floats(static_cast<size_t>(bins));
    REQUIRE(bins == c.bins);

    pt::Generator gen(c.seed);
    pt::HistogramObserver obs(args_of(c));
    for (const Batch& b : c.batches) {
      pt::Tensor x = make_batch(b, gen);
      pt::Tensor y = obs.forward(x);
      CHECK(y.same_storage(x));  // forward returns its input
    }
    CHECK(bits(obs.min_val().item()) == bits(min_val));
    CHECK(bits(obs.max_val().item()) == bits(max_val));
    CHECK(bit_mismatches(obs.histogram().span<float>(), histogram) == 0);
    const pt::QParams qp = obs.calculate_qparams();
    REQUIRE(qp.scale.numel() == 1);
    CHECK(bits(qp.scale.data<float>()[0]) == bits(scale));
    CHECK(qp.zero_point.to(pt::DType::Int32).data<int32_t>()[0] == zero_point);
    if (obs.is_initialized()) {
      const pt::HistogramSearch s = obs.non_linear_param_search();
      CHECK(bits(s.min) == bits(search_min));
      CHECK(bits(s.max) == bits(search_max));
      CHECK(s.quant_error_evaluations == evaluations);
    } else {
      CHECK(std::isnan(search_min));
      CHECK_THROWS_AS(obs.non_linear_param_search(), pt::RuntimeError);
    }
  }
}

TEST_CASE("HistogramObserver quant_error equals torchao's _compute_quantization_error") {
  pt::Generator gen(0);
  pt::HistogramObserver obs(int8_affine());
  obs.forward(pt::randn({20000}, gen));
  Reader r{read_golden("quant_error.bin")};
  std::vector<std::pair<int64_t, int64_t>> pairs = {{0, 2047}, {10, 2000}, {100, 1900}, {1000, 1000},
                                                    {500, 1500}, {3, 7},    {2040, 2047}};
  for (int64_t k = 0; k < 40; ++k) {  // gen_histogram.py's QUANT_ERROR_PAIRS tail
    const int64_t start = (k * 53) % 1500;
    pairs.push_back({start, start + (k * 97) % (2047 - start)});
  }
  for (auto [start, end] : pairs) {
    INFO(start << ".." << end);
    const double want = r.next<double>();
    CHECK(obs.quant_error(start, end) == want);
  }
}

TEST_CASE("torch building blocks: linspace, sum and histc match torch 1.13") {
  Reader r{read_golden("primitives.bin")};
  const struct { double a, b; int64_t n; } lin[] = {
      {-4.34328031539917, 4.1014933586120605, 32769}, {-4.34328031539917, 4.1014933586120605, 2049},
      {-44.6, 51.3, 2049}, {1.2345, 1.2346, 2049}, {-100.0, 7.0, 17}, {2.5, -1.5, 16}, {-1.0, 1.0, 33},
      {0.0, 1.0, 2}, {-7.0, 9.0, 1000}};
  for (const auto& l : lin) {
    INFO("linspace " << l.a << " " << l.b << " " << l.n);
    const std::vector<float> want = r.floats(static_cast<size_t>(l.n));
    CHECK(bit_mismatches(pt::linspace(static_cast<float>(l.a), static_cast<float>(l.b), l.n), want) == 0);
  }
  pt::Generator gen(0);
  for (int64_t n : {1, 7, 8, 9, 100, 2048, 5000, 70000}) {
    INFO("sum n=" << n);
    pt::Tensor x = pt::randn({n}, gen);
    for (float& v : x.span<float>()) v *= 1000.0f;
    CHECK(bits(pt::sum_f32(x.span<float>())) == bits(r.next<float>()));
  }
  pt::Tensor x = pt::randn({1000}, gen);
  float* p = x.data<float>();
  p[0] = p[1] = p[2] = 0.5f;
  const struct { int64_t bins; double lo, hi; } hc[] = {{15, -2.0, 2.0}, {2047, -3.0, 2.5}, {2048, 0.0, 0.0}, {100, 1.0, 1.0}};
  for (const auto& h : hc) {
    INFO("histc bins=" << h.bins << " [" << h.lo << ", " << h.hi << "]");
    std::span<const float> in = x.span<float>();
    if (h.lo == h.hi) in = in.first(3);
    CHECK(bit_mismatches(pt::histc(in, h.bins, h.lo, h.hi), r.floats(static_cast<size_t>(h.bins))) == 0);
  }
  CHECK(r.at == r.bytes.size());
}

TEST_CASE("HistogramObserver reproduces the search edges of seed M02-1's gaussian") {
  pt::Generator gen(0);
  (void)pt::randn({20000}, gen);  // table A's tensor comes first in the notebook's stream
  pt::HistogramObserver obs(int8_affine());
  obs.forward(pt::randn({100000}, gen));
  const pt::HistogramSearch s = obs.non_linear_param_search();
  CHECK(s.min == static_cast<float>(-4.256577968597412));
  CHECK(s.max == static_cast<float>(4.21388578414917));
  const pt::QParams qp = obs.calculate_qparams();
  CHECK(qp.zero_point.to(pt::DType::Int32).data<int32_t>()[0] == 0);
  CHECK(std::fabs(qp.scale.data<float>()[0] - 0.0332f) < 0.00005f);
}

TEST_CASE("HistogramObserver is registered, has torchao's buffers and rejects what torchao rejects") {
  std::unique_ptr<pt::ObserverBase> o = pt::make_observer("HistogramObserver", int8_affine());
  CHECK(std::string(o->type_name()) == "HistogramObserver");
  const std::vector<pt::NamedBuffer> buffers = o->named_buffers();
  REQUIRE(buffers.size() == 4);
  CHECK(buffers[0].first == "eps");
  CHECK(buffers[1].first == "histogram");
  CHECK(buffers[1].second.shape() == pt::Shape{2048});
  CHECK(buffers[2].first == "min_val");
  CHECK(buffers[3].first == "max_val");
  CHECK(buffers[2].second.dim() == 0);

  pt::ObserverArgs per_channel = int8_affine();
  per_channel.qscheme = pt::QScheme::per_channel_affine;
  CHECK_THROWS_AS(pt::HistogramObserver(per_channel), pt::NotImplementedError);
  pt::ObserverArgs dynamic = int8_affine();
  dynamic.is_dynamic = true;
  CHECK_THROWS_AS(pt::HistogramObserver(dynamic), pt::NotImplementedError);
  pt::ObserverArgs no_bins = int8_affine();
  no_bins.bins = 0;
  CHECK_THROWS_AS(pt::HistogramObserver(no_bins), pt::ValueError);
  pt::ObserverArgs with_axis = int8_affine();
  with_axis.ch_axis = 0;
  CHECK_THROWS_AS(pt::make_observer("HistogramObserver", with_axis), pt::TypeError);
}

TEST_CASE("HistogramObserver: bad input throws and leaves the observer as it was") {
  pt::HistogramObserver obs(int8_affine());
  CHECK_THROWS_AS(obs.forward(pt::Tensor::zeros({4}, pt::DType::Int8)), pt::TypeError);
  pt::Tensor with_nan = pt::Tensor::from<float>({1.0f, std::nanf(""), 3.0f}, {3});
  CHECK_THROWS_AS(obs.forward(with_nan), pt::RuntimeError);
  CHECK_FALSE(obs.is_initialized());
  const pt::QParams unset = obs.calculate_qparams();
  CHECK(unset.scale.data<float>()[0] == 1.0f);
  CHECK(unset.zero_point.to(pt::DType::Int32).data<int32_t>()[0] == 0);

  obs.forward(pt::Tensor::from<float>({-1.0f, 2.0f, 0.5f}, {3}));
  const pt::Tensor before = obs.histogram().clone();
  CHECK_THROWS_AS(obs.forward(with_nan), pt::RuntimeError);
  CHECK(obs.min_val().item() == -1.0f);
  CHECK(obs.max_val().item() == 2.0f);
  CHECK(bit_mismatches(obs.histogram().span<float>(), std::vector<float>(before.span<float>().begin(),
                                                                          before.span<float>().end())) == 0);
  obs.forward(pt::Tensor());  // empty input: ignored
  obs.forward(pt::Tensor::full({3}, -kInf));  // nothing finite: ignored
  CHECK(obs.min_val().item() == -1.0f);
}
