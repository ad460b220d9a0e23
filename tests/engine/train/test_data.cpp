// test_data.cpp — the synthetic image set (graph/datasets.h) and DataLoader / accuracy (train/data.h):
// DataLoader's shuffled order against torch 1.13's DataLoader(shuffle=True, generator) over three epochs
// (tests/golden/gen_data.py), the set's splits, classes and normalization, and the typed errors.
#include <catch2/catch.hpp>

#include <set>

#include "graph/datasets.h"
#include "ops/golden.h"
#include "train/data.h"

using namespace pt;

namespace {

// TensorDataset(arange(n)): sample i is the value i, labelled i.
TensorDataset arange_dataset(int64_t n) {
  TensorDataset d{Tensor::empty({n, 1}, DType::Float32), Tensor::empty({n}, DType::Int32)};
  for (int64_t i = 0; i < n; ++i) {
    d.x.data<float>()[i] = static_cast<float>(i);
    d.labels.data<int32_t>()[i] = static_cast<int32_t>(i);
  }
  return d;
}

std::vector<float> floats(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }

}  // namespace

TEST_CASE("DataLoader(shuffle=True, generator) yields torch 1.13's order, epoch after epoch") {
  const golden::Golden g("shuffle", "data");
  for (auto [n, b] : {std::pair<int64_t, int64_t>{10, 4}, {12, 4}, {7, 7}}) {
    DataLoader loader(arange_dataset(n), {.batch_size = b, .shuffle = true, .seed = 3});
    CHECK(loader.num_batches() == (n + b - 1) / b);
    for (int epoch = 0; epoch < 3; ++epoch) {
      std::vector<float> got;
      const std::vector<Batch> batches = loader.epoch();
      for (size_t k = 0; k < batches.size(); ++k) {
        CHECK(batches[k].x.size(0) == std::min<int64_t>(b, n - static_cast<int64_t>(k) * b));
        for (int64_t i = 0; i < batches[k].labels.numel(); ++i) {
          CHECK(batches[k].labels.data<int32_t>()[i] == static_cast<int32_t>(batches[k].x.data<float>()[i]));
          got.push_back(batches[k].x.data<float>()[i]);
        }
      }
      INFO("n " << n << " batch " << b << " epoch " << epoch);
      CHECK(got == floats(g.tensor("loader.n" + std::to_string(n) + ".b" + std::to_string(b) + ".epoch" + std::to_string(epoch))));
    }
  }
}

TEST_CASE("DataLoader without shuffle keeps the data set's order; drop_last drops the short batch") {
  DataLoader plain(arange_dataset(10), {.batch_size = 4});
  const std::vector<Batch> a = plain.epoch(), b = plain.epoch();
  REQUIRE(a.size() == 3);
  CHECK(floats(a[2].x) == std::vector<float>{8, 9});
  CHECK(floats(b[0].x) == std::vector<float>{0, 1, 2, 3});
  DataLoader dropping(arange_dataset(10), {.batch_size = 4, .drop_last = true});
  CHECK(dropping.num_batches() == 2);
  CHECK(dropping.epoch().size() == 2);
}

TEST_CASE("synthetic_images: deterministic splits, balanced labels, a prefix property, shared normalization") {
  const SyntheticImages o{.num_classes = 10, .noise = 0.2};
  const TensorDataset a = synthetic_images("train", 200, o), b = synthetic_images("train", 50, o);
  const TensorDataset t = synthetic_images("test", 50, o);
  CHECK(a.x.shape() == Shape{200, 3, 16, 16});
  for (int64_t i = 0; i < 200; ++i) CHECK(a.labels.data<int32_t>()[i] == i % 10);
  // n samples are a prefix of a longer draw; the test split is another draw
  CHECK(std::equal(b.x.data<float>(), b.x.data<float>() + b.x.numel(), a.x.data<float>()));
  CHECK_FALSE(std::equal(t.x.data<float>(), t.x.data<float>() + t.x.numel(), a.x.data<float>()));
  // Normalize with the train split's statistics: the first 1024 train samples have mean 0, std 1 per channel
  const TensorDataset big = synthetic_images("train", 1024, o);
  const int64_t hw = 16 * 16;
  for (int64_t c = 0; c < 3; ++c) {
    double s = 0, sq = 0;
    for (int64_t i = 0; i < 1024; ++i)
      for (int64_t p = 0; p < hw; ++p) {
        const double v = big.x.data<float>()[(i * 3 + c) * hw + p];
        s += v;
        sq += v * v;
      }
    const double count = 1024.0 * hw;
    CHECK(std::abs(s / count) < 1e-4);
    CHECK(std::abs(std::sqrt(sq / count) - 1) < 1e-4);
  }
  // every class draws a different picture: no two class means of the first 200 samples are the same
  std::set<float> firsts;
  for (int64_t i = 0; i < 10; ++i) firsts.insert(a.x.data<float>()[i * 3 * hw + 5 * 16 + 7]);
  CHECK(firsts.size() > 1);
}

TEST_CASE("calibration_batches is the default train split in batches") {
  const std::vector<Batch> cal = calibration_batches(70, 32);
  REQUIRE(cal.size() == 3);
  CHECK(cal[2].x.size(0) == 6);
  const TensorDataset d = synthetic_images("train", 70, SyntheticImages{.num_classes = 4, .noise = 0.05});
  CHECK(std::equal(cal[1].x.data<float>(), cal[1].x.data<float>() + cal[1].x.numel(), d.x.data<float>() + 32 * 3 * 256));
  CHECK(cal[1].labels.data<int32_t>()[0] == 0);
}

TEST_CASE("accuracy: top-1 in percent, first maximum wins") {
  Tensor logits = Tensor::empty({4, 3}, DType::Float32);
  const float v[] = {1, 2, 0, /**/ 5, 5, 1, /**/ 0, 0, 3, /**/ 2, 1, 0};
  std::copy(v, v + 12, logits.data<float>());
  Tensor labels = Tensor::empty({4}, DType::Int32);
  const int32_t l[] = {1, 1, 2, 2};  // the tie in row 1 predicts class 0
  std::copy(l, l + 4, labels.data<int32_t>());
  CHECK(accuracy(logits, labels) == 50.0);
}

TEST_CASE("data: typed errors for bad input") {
  CHECK_THROWS_AS(synthetic_images("val", 10), ValueError);
  CHECK_THROWS_AS(synthetic_images("train", 0), ValueError);
  CHECK_THROWS_AS(synthetic_images("train", 10, SyntheticImages{.num_classes = 11}), ValueError);
  CHECK_THROWS_AS(synthetic_images("train", 10, SyntheticImages{.noise = std::nan("")}), ValueError);
  CHECK_THROWS_AS(synthetic_images("train", 10, SyntheticImages{.sample_shape = {3, 16}}), ValueError);
  CHECK_THROWS_AS(DataLoader(arange_dataset(4), {.batch_size = 0}), ValueError);
  CHECK_THROWS_AS(collate(arange_dataset(4), {0, 4}), IndexError);
  Tensor logits = Tensor::empty({2, 3}, DType::Float32);
  CHECK_THROWS_AS(accuracy(logits, Tensor::empty({3}, DType::Int32)), ValueError);
  CHECK_THROWS_AS(accuracy(logits, Tensor::empty({2}, DType::Float32)), TypeError);
  CHECK_THROWS_AS(accuracy(Tensor::empty({6}, DType::Float32), Tensor::empty({6}, DType::Int32)), ValueError);
}
