// datasets.cpp — the synthetic image set and calibration_batches (see datasets.h).
#include "graph/datasets.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

#include "core/generator.h"

namespace pt {

namespace {

// U[0, 1) with 24 random bits, like torch's float uniform.
float uniform01(Generator& gen) { return static_cast<float>(gen.random() & ((1u << 24) - 1)) * (1.0f / (1u << 24)); }
float uniform(Generator& gen, float lo, float hi) { return lo + (hi - lo) * uniform01(gen); }
int64_t uniform_int(Generator& gen, int64_t lo, int64_t hi) {  // lo..hi inclusive
  return lo + static_cast<int64_t>(gen.random() % static_cast<uint32_t>(hi - lo + 1));
}

// The shape mask of one sample, m(h, w) in [0, 1] (the table in datasets.h).
class Mask {
 public:
  Mask(int64_t H, int64_t W) : H_(H), W_(W), m_(static_cast<size_t>(H * W)) {}
  float& at(int64_t h, int64_t w) { return m_[static_cast<size_t>(h * W_ + w)]; }
  float operator[](int64_t p) const { return m_[static_cast<size_t>(p)]; }
  // Sets every pixel to f(h, w).
  template <class F>
  void fill(F&& f) {
    for (int64_t h = 0; h < H_; ++h)
      for (int64_t w = 0; w < W_; ++w) at(h, w) = f(h, w);
  }
  // Distance of pixel (h, w)'s centre to (cy, cx).
  static float dist(int64_t h, int64_t w, float cy, float cx) {
    return std::hypot(static_cast<float>(h) + 0.5f - cy, static_cast<float>(w) + 0.5f - cx);
  }
  int64_t H_, W_;

 private:
  std::vector<float> m_;
};

// A centre uniform in the middle half of the image, and a radius U(0.2, 0.35) * min(H, W) (ring, disc).
struct Circle {
  float cy, cx, r;
};
Circle draw_circle(Generator& gen, const Mask& m) {
  Circle c{};
  c.cy = uniform(gen, 0.25f, 0.75f) * static_cast<float>(m.H_);
  c.cx = uniform(gen, 0.25f, 0.75f) * static_cast<float>(m.W_);
  c.r = uniform(gen, 0.2f, 0.35f) * static_cast<float>(std::min(m.H_, m.W_));
  return c;
}

// Stripes of `coord` (a pixel's row, column or diagonal index): "on" for the first floor(period / 2) px of
// each period, period U{4, 5, 6} with a random phase.
template <class Coord>
void stripes(Generator& gen, Mask& m, Coord&& coord) {
  const int64_t period = uniform_int(gen, 4, 6);
  const int64_t phase = uniform_int(gen, 0, period - 1);
  m.fill([&](int64_t h, int64_t w) {
    const int64_t k = ((coord(h, w) + phase) % period + period) % period;
    return k < period / 2 ? 1.f : 0.f;
  });
}

void draw_mask(Generator& gen, int32_t label, Mask& m) {
  const int64_t H = m.H_, W = m.W_;
  switch (label) {
    case 0: {  // bars
      const bool along_rows = gen.random() & 1u;
      stripes(gen, m, [&](int64_t h, int64_t w) { return along_rows ? h : w; });
      break;
    }
    case 1: {  // ring
      const Circle c = draw_circle(gen, m);
      m.fill([&](int64_t h, int64_t w) { return std::max(0.f, 1.f - std::fabs(Mask::dist(h, w, c.cy, c.cx) - c.r) / 1.5f); });
      break;
    }
    case 2: {  // checker
      const int64_t cell = uniform_int(gen, 2, 4);
      const int64_t oy = uniform_int(gen, 0, cell - 1), ox = uniform_int(gen, 0, cell - 1);
      m.fill([&](int64_t h, int64_t w) { return ((h + oy) / cell + (w + ox) / cell) % 2 ? 1.f : 0.f; });
      break;
    }
    case 3: {  // gradient
      const float angle = uniform(gen, 0.f, 6.2831853f);
      const float dy = std::sin(angle), dx = std::cos(angle);
      float lo = 1e30f, hi = -1e30f;
      m.fill([&](int64_t h, int64_t w) {
        const float v = dy * static_cast<float>(h) + dx * static_cast<float>(w);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        return v;
      });
      m.fill([&](int64_t h, int64_t w) { return hi > lo ? (m.at(h, w) - lo) / (hi - lo) : 0.5f; });
      break;
    }
    case 4: {  // disc
      const Circle c = draw_circle(gen, m);
      m.fill([&](int64_t h, int64_t w) { return std::clamp(c.r - Mask::dist(h, w, c.cy, c.cx) + 0.5f, 0.f, 1.f); });
      break;
    }
    case 5: {  // plus
      const int64_t cy = uniform_int(gen, H / 4, H - 1 - H / 4), cx = uniform_int(gen, W / 4, W - 1 - W / 4);
      const int64_t t = uniform_int(gen, 2, 3);
      m.fill([&](int64_t h, int64_t w) {
        const bool row = h >= cy - t / 2 && h < cy - t / 2 + t, col = w >= cx - t / 2 && w < cx - t / 2 + t;
        return row || col ? 1.f : 0.f;
      });
      break;
    }
    case 6: {  // diagonal stripes
      const bool rising = gen.random() & 1u;
      stripes(gen, m, [&](int64_t h, int64_t w) { return rising ? h + w : h - w; });
      break;
    }
    case 7: {  // frame
      const int64_t side = std::max<int64_t>(4, static_cast<int64_t>(uniform(gen, 0.45f, 0.8f) * static_cast<float>(std::min(H, W))));
      const int64_t top = uniform_int(gen, 0, H - side), left = uniform_int(gen, 0, W - side);
      m.fill([&](int64_t h, int64_t w) {
        const int64_t y = h - top, x = w - left;
        if (y < 0 || x < 0 || y >= side || x >= side) return 0.f;
        return y < 2 || x < 2 || y >= side - 2 || x >= side - 2 ? 1.f : 0.f;
      });
      break;
    }
    case 8: {  // dots
      const int64_t period = uniform_int(gen, 4, 5);
      const int64_t oy = uniform_int(gen, 0, period - 1), ox = uniform_int(gen, 0, period - 1);
      m.fill([&](int64_t h, int64_t w) { return (h + oy) % period < 2 && (w + ox) % period < 2 ? 1.f : 0.f; });
      break;
    }
    default: {  // 9 cross: distance to the lines y - cy = ±(x - cx)
      const float cy = uniform(gen, 0.25f, 0.75f) * static_cast<float>(H);
      const float cx = uniform(gen, 0.25f, 0.75f) * static_cast<float>(W);
      m.fill([&](int64_t h, int64_t w) {
        const float y = static_cast<float>(h) + 0.5f - cy, x = static_cast<float>(w) + 0.5f - cx;
        const float d = std::min(std::fabs(y - x), std::fabs(y + x)) / std::sqrt(2.f);
        return std::max(0.f, 1.f - d / 1.5f);
      });
      break;
    }
  }
}

// One sample in pixel space ([0, 1]), written to out[C * H * W].
void draw_image(Generator& gen, int32_t label, float noise, int64_t C, Mask& mask, float* out) {
  const int64_t HW = mask.H_ * mask.W_;
  draw_mask(gen, label, mask);
  std::vector<float> bg(static_cast<size_t>(C)), fg(static_cast<size_t>(C));
  for (int64_t c = 0; c < C; ++c) {
    bg[static_cast<size_t>(c)] = uniform(gen, 0.f, 0.3f);
    fg[static_cast<size_t>(c)] = uniform(gen, 0.6f, 1.f);
  }
  const Tensor n = randn({C, mask.H_, mask.W_}, gen);
  const float* pn = n.data<float>();
  for (int64_t c = 0; c < C; ++c)
    for (int64_t p = 0; p < HW; ++p) {
      const float b = bg[static_cast<size_t>(c)], f = fg[static_cast<size_t>(c)];
      out[c * HW + p] = std::clamp(b + (f - b) * mask[p] + noise * pn[c * HW + p], 0.f, 1.f);
    }
}

void check_options(const char* fn, const SyntheticImages& o) {
  const Shape& s = o.sample_shape;
  if (s.size() != 3 || s[0] < 1 || s[1] < 1 || s[2] < 1)
    throw ValueError(std::string(fn) + ": sample_shape must be (C, H, W) with positive sizes, got " + shape_str(s));
  if (o.num_classes < 2 || o.num_classes > 10)
    throw ValueError(std::string(fn) + ": num_classes must be in 2..10, got " + std::to_string(o.num_classes));
  if (!(o.noise >= 0)) throw ValueError(std::string(fn) + ": noise must be >= 0, got " + std::to_string(o.noise));
}

// Samples 0..n-1 of a split in pixel space, calling sink(i, label, image).
template <class Sink>
void draw_split(const SyntheticImages& o, bool test, int64_t n, Sink&& sink) {
  const int64_t C = o.sample_shape[0];
  Generator gen(test ? o.seed + 1 : o.seed);
  Mask mask(o.sample_shape[1], o.sample_shape[2]);
  std::vector<float> img(static_cast<size_t>(C * mask.H_ * mask.W_));
  for (int64_t i = 0; i < n; ++i) {
    const int32_t label = static_cast<int32_t>(i % o.num_classes);
    draw_image(gen, label, static_cast<float>(o.noise), C, mask, img.data());
    sink(i, label, img.data());
  }
}

constexpr int64_t kStatsSamples = 1024;

struct ChannelStats {
  std::vector<float> mean, std;
};

// Per-channel mean and std (population) of the train split's first kStatsSamples samples, once per option set.
const ChannelStats& channel_stats(const SyntheticImages& o) {
  static std::mutex mu;
  static std::map<std::tuple<int64_t, Shape, double, uint64_t>, ChannelStats> cache;
  std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_tuple(o.num_classes, o.sample_shape, o.noise, o.seed);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const int64_t C = o.sample_shape[0], HW = o.sample_shape[1] * o.sample_shape[2];
  std::vector<double> sum(static_cast<size_t>(C)), sq(static_cast<size_t>(C));
  draw_split(o, false, kStatsSamples, [&](int64_t, int32_t, const float* img) {
    for (int64_t c = 0; c < C; ++c)
      for (int64_t p = 0; p < HW; ++p) {
        const double v = img[c * HW + p];
        sum[static_cast<size_t>(c)] += v;
        sq[static_cast<size_t>(c)] += v * v;
      }
  });
  ChannelStats s;
  const double count = static_cast<double>(kStatsSamples * HW);
  for (int64_t c = 0; c < C; ++c) {
    const double m = sum[static_cast<size_t>(c)] / count;
    const double var = std::max(0.0, sq[static_cast<size_t>(c)] / count - m * m);
    s.mean.push_back(static_cast<float>(m));
    s.std.push_back(var > 0 ? static_cast<float>(std::sqrt(var)) : 1.f);
  }
  return cache.emplace(key, std::move(s)).first->second;
}

}  // namespace

TensorDataset synthetic_images(const std::string& split, int64_t n, const SyntheticImages& options) {
  check_options("synthetic_images", options);
  if (split != "train" && split != "test")
    throw ValueError("synthetic_images: split must be 'train' or 'test', got '" + split + "'");
  if (n < 1) throw ValueError("synthetic_images: n must be >= 1, got " + std::to_string(n));
  const ChannelStats& stats = channel_stats(options);
  const int64_t C = options.sample_shape[0], HW = options.sample_shape[1] * options.sample_shape[2];
  Shape shape{n};
  shape.insert(shape.end(), options.sample_shape.begin(), options.sample_shape.end());
  TensorDataset d{Tensor::empty(shape, DType::Float32), Tensor::empty({n}, DType::Int32)};
  draw_split(options, split == "test", n, [&](int64_t i, int32_t label, const float* img) {
    d.labels.data<int32_t>()[i] = label;
    float* px = d.x.data<float>() + i * C * HW;
    for (int64_t c = 0; c < C; ++c)
      for (int64_t p = 0; p < HW; ++p)
        px[c * HW + p] = (img[c * HW + p] - stats.mean[static_cast<size_t>(c)]) / stats.std[static_cast<size_t>(c)];
  });
  return d;
}

Batch collate(const TensorDataset& d, const std::vector<int32_t>& indices) {
  const int64_t n = d.size(), b = static_cast<int64_t>(indices.size());
  const int64_t sample = n > 0 ? d.x.numel() / n : 0;
  Shape shape = d.x.shape();
  shape[0] = b;
  Batch out{Tensor::empty(shape, DType::Float32), Tensor::empty({b}, DType::Int32)};
  for (int64_t j = 0; j < b; ++j) {
    const int64_t i = indices[static_cast<size_t>(j)];
    if (i < 0 || i >= n) throw IndexError("index " + std::to_string(i) + " is out of bounds for a data set of size " + std::to_string(n));
    std::copy_n(d.x.data<float>() + i * sample, sample, out.x.data<float>() + j * sample);
    out.labels.data<int32_t>()[j] = d.labels.data<int32_t>()[i];
  }
  return out;
}

std::vector<Batch> calibration_batches(int64_t n, int64_t batch_size, const Shape& sample_shape) {
  if (n < 1 || batch_size < 1)
    throw ValueError("calibration_batches: n and batch_size must be >= 1, got n=" + std::to_string(n) +
                     ", batch_size=" + std::to_string(batch_size));
  const SyntheticImages options{.num_classes = 4, .sample_shape = sample_shape, .noise = 0.05, .seed = 2024};
  if (sample_shape.size() != 3 || sample_shape[0] < 1 || sample_shape[1] < 1 || sample_shape[2] < 1)
    throw ValueError("calibration_batches: sample_shape must be (C, H, W) with positive sizes, got " +
                     shape_str(sample_shape));
  const TensorDataset d = synthetic_images("train", n, options);
  std::vector<Batch> out;
  for (int64_t start = 0; start < n; start += batch_size) {
    std::vector<int32_t> indices(static_cast<size_t>(std::min(batch_size, n - start)));
    for (size_t j = 0; j < indices.size(); ++j) indices[j] = static_cast<int32_t>(start + static_cast<int64_t>(j));
    out.push_back(collate(d, indices));
  }
  return out;
}

}  // namespace pt
