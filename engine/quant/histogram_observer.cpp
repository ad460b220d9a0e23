// histogram_observer.cpp — torchao 0.18 HistogramObserver with torch 1.13's float32 CPU numerics
// (see histogram_observer.h; docs/algorithms.md). Sections: torch building blocks (linspace,
// cascade sum, histc, floor division), the forward pass and histogram merge, the range search.
#include "quant/histogram_observer.h"
#include "core/fma.h"
#include "core/hot.h"
#include "kernels/kernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace pt {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int64_t kUpsampleRate = 16;        // torchao's fixed upsample_rate
constexpr int64_t kMaxBins = int64_t{1} << 22;  // a browser-sized cap on the bins argument

// ---- torch.linspace (float32) ----------------------------------------------------------------------
// The AVX2 kernel fills 16 elements per step as two 8-lane vectors: lane k of the vector starting at
// idx is base(idx) + k·step. base(idx) is start + step·idx below the halfway point and
// end − step·(steps − idx − 1) from it on, each one fused multiply-add (the kernel is compiled with
// contraction). Elements after the last full 16-block take base(idx) one by one.
struct Linspace {
  float start, end, step;
  int64_t steps, halfway, vector_end;

  Linspace(float s, float e, int64_t n)
      : start(s), end(e), step((e - s) / static_cast<float>(n - 1)), steps(n), halfway(n / 2),
        vector_end(n / 16 * 16) {}

  float base(int64_t idx) const {
    return idx < halfway ? fma_f32(step, static_cast<float>(idx), start)
                         : fma_f32(-step, static_cast<float>(steps - idx - 1), end);
  }
  float at(int64_t idx) const {
    if (steps == 1) return start;
    if (idx >= vector_end) return base(idx);
    const int64_t lane = idx % 8;
    return base(idx - lane) + static_cast<float>(lane) * step;
  }
};

// ---- torch.sum (float32 cascade sum) ---------------------------------------------------------------
// multi_row_sum: accumulates `rows` rows of 4 W-lane vectors into 4 levels of partial sums, carrying
// a level up every 2^level_power rows, so that only numbers of similar size meet.
int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  int64_t bits = 0;
  for (uint64_t v = static_cast<uint64_t>(x - 1); v != 0; v >>= 1) ++bits;
  return bits;
}

template <int W> using Lanes = std::array<float, W>;

template <int W> void add_lanes(Lanes<W>& acc, const float* x) {
  for (int k = 0; k < W; ++k) acc[k] += x[k];
}
template <int W> void add_lanes(Lanes<W>& acc, const Lanes<W>& x) { add_lanes<W>(acc, x.data()); }

template <int W> std::array<Lanes<W>, 4> multi_row_sum(const float* x, int64_t rows) {
  constexpr int kLevels = 4;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(rows) / kLevels);
  const int64_t level_step = int64_t{1} << level_power;
  const int64_t level_mask = level_step - 1;
  std::array<std::array<Lanes<W>, 4>, kLevels> acc{};
  int64_t i = 0;
  while (i + level_step <= rows) {
    for (int64_t j = 0; j < level_step; ++j, ++i)
      for (int k = 0; k < 4; ++k) add_lanes<W>(acc[0][k], x + (i * 4 + k) * W);
    for (int j = 1; j < kLevels; ++j) {
      for (int k = 0; k < 4; ++k) {
        add_lanes<W>(acc[j][k], acc[j - 1][k]);
        acc[j - 1][k] = Lanes<W>{};
      }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < rows; ++i)
    for (int k = 0; k < 4; ++k) add_lanes<W>(acc[0][k], x + (i * 4 + k) * W);
  for (int j = 1; j < kLevels; ++j)
    for (int k = 0; k < 4; ++k) add_lanes<W>(acc[0][k], acc[j][k]);
  return acc[0];
}

// row_sum: the row read as (-1, 4) blocks of W-lane vectors, leftover vectors into block 0.
template <int W> Lanes<W> row_sum(const float* x, int64_t vectors) {
  const int64_t rows = vectors / 4;
  std::array<Lanes<W>, 4> partial = multi_row_sum<W>(x, rows);
  for (int64_t i = rows * 4; i < vectors; ++i) add_lanes<W>(partial[0], x + i * W);
  for (int k = 1; k < 4; ++k) add_lanes<W>(partial[0], partial[k]);
  return partial[0];
}

// ---- floor division and clamp, as torch's float32 div(rounding_mode="floor") and clamp ----------
float div_floor(float a, float b) {
  if (b == 0.0f) return a / b;
  const float mod = std::fmod(a, b);
  float div = (a - mod) / b;
  if (mod != 0.0f && (b < 0.0f) != (mod < 0.0f)) div -= 1.0f;
  if (div == 0.0f) return std::copysign(0.0f, a / b);
  float floordiv = std::floor(div);
  if (div - floordiv > 0.5f) floordiv += 1.0f;
  return floordiv;
}

// clamp(div_floor(offset, width), 0, top), the destination bin of an offset. For width > 0 and
// top < 2^20 it takes a shortcut with the same value: offsets at or below 0 give 0 (or -0, a sign no
// later step can see); offsets at or past f32(width · (top + 2)) give top; otherwise, with
// 0 < offset / width < 2^20, div_floor is exactly floor(offset / width) (fmod is exact and the
// rounded (offset − fmod) / width stays within 1/8 of it), and the floor of the double quotient is
// that floor (a float quotient that is not an integer sits at least 2^-24 from one).
struct DstBin {
  float width, top, limit;
  bool shortcut;
  DstBin(float w, float t) : width(w), top(t), limit(w * (t + 2.0f)), shortcut(w > 0.0f && t < 0x1p20f) {}
  float operator()(float offset) const {
    if (shortcut && offset == offset) {
      if (offset <= 0.0f) return 0.0f;
      if (offset >= limit) return top;
      return std::min(static_cast<float>(std::floor(static_cast<double>(offset) / width)), top);
    }
    return std::min(std::max(div_floor(offset, width), 0.0f), top);
  }
};

// ---- input scan and histc counting (engine/kernels: f32_aminmax, f32_histc_aminmax) -----------------
// Scan: min / max ignoring NaN (infinities included), and whether a NaN was seen.
using Scan = kernels::AMinMax;

Scan scan(std::span<const float> x) { return kernels::f32_aminmax(x.data(), x.size()); }

// histc's range: bin of e is trunc(f32(e − lo) · f32(bins) / f32(hi − lo)), the top edge folded into
// the last bin (kernels::HistcRange::bin). The clamp to [0, bins − 1] only matters for ranges wider
// than float32 can scale (where torch's own index is undefined).
struct Binner {
  float lo, hi;
  kernels::HistcRange range;
  int64_t bins() const { return range.bins; }
};

// Four interleaved count arrays (so equal neighbours don't serialize on one counter), summed into
// torch's float32 histogram at the end.
struct Counts {
  size_t nb;
  std::vector<uint32_t> c;
  explicit Counts(int64_t bins) : nb(static_cast<size_t>(bins)), c(4 * nb, 0) {}
  uint32_t& at(size_t i, int64_t bin) { return c[(i & 3) * nb + static_cast<size_t>(bin)]; }
  std::vector<float> histogram() const {
    std::vector<float> h(nb);
    for (size_t j = 0; j < nb; ++j)
      h[j] = static_cast<float>(static_cast<uint64_t>(c[j]) + c[nb + j] + c[2 * nb + j] + c[3 * nb + j]);
    return h;
  }
};

// Counts every element as if it lay inside [b.lo, b.hi], and scans x (min, max, NaN) in the same
// pass, so the caller can check that assumption afterwards.
std::vector<float> count_inside(std::span<const float> x, const Binner& b, Scan& s) {
  Counts counts(b.bins());
  s = kernels::f32_histc_aminmax(x.data(), x.size(), b.range, counts.c.data());
  return counts.histogram();
}

// torch's loop: elements outside [lo, hi] (and NaN) are skipped.
PT_HOT_LOOP std::vector<float> count_checked(std::span<const float> x, const Binner& b) {
  Counts counts(b.bins());
  for (size_t i = 0; i < x.size(); ++i) {
    const float e = x[i];
    if (e >= b.lo && e <= b.hi) ++counts.at(i, b.range.bin(e));
  }
  return counts.histogram();
}

bool inside(const Scan& s, const Binner& b) { return !s.nan && s.min >= b.lo && s.max <= b.hi; }

// histc's edges: the range rule of torch.histc, then linspace's first and last value.
Binner histc_binner(std::span<const float> x, int64_t bins, double min, double max) {
  if (bins <= 0) throw RuntimeError("torch.histc: bins must be > 0, got " + std::to_string(bins));
  if (min == max && !x.empty()) {
    const Scan s = scan(x);
    min = s.min;
    max = s.max;
  }
  if (min == max) {
    min -= 1;
    max += 1;
  }
  if (!std::isfinite(min) || !std::isfinite(max))
    throw RuntimeError("torch.histc: range of [" + std::to_string(min) + ", " + std::to_string(max) +
                       "] is not finite");
  if (!(min < max)) throw RuntimeError("torch.histc: max must be larger than min");
  const Linspace edges(static_cast<float>(min), static_cast<float>(max), bins + 1);
  const float lo = edges.at(0), hi = edges.at(bins);
  return Binner{lo, hi, {lo, hi - lo, bins}};
}

// histc of data whose min / max / NaN scan is known.
std::vector<float> histc_known_range(std::span<const float> x, int64_t bins, double min, double max,
                                     const Scan& data) {
  const Binner b = histc_binner(x, bins, min, max);
  Scan again;
  return inside(data, b) ? count_inside(x, b, again) : count_checked(x, b);
}

PT_HOT_LOOP std::vector<float> add(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
  return out;
}

PT_HOT_LOOP void accumulate(float* hist, const std::vector<float>& update) {
  for (size_t i = 0; i < update.size(); ++i) hist[i] += update[i];
}

// torch.bucketize(v, boundaries, right=True): the binary search of the CPU kernel (first index whose
// boundary is > v), kept literally so unsorted float boundaries give torch's answer too.
int64_t upper_bound(const std::vector<float>& bd, float v) {
  int64_t start = 0, end = static_cast<int64_t>(bd.size());
  while (start < end) {
    const int64_t mid = start + ((end - start) >> 1);
    if (!(bd[mid] > v)) start = mid + 1;
    else end = mid;
  }
  return start;
}

// upper_bound over boundaries that are sorted (no NaN): the number of boundaries <= v, which every
// search finds alike, so it may walk from the previous answer (at) when the queries come in order.
int64_t upper_bound_from(const std::vector<float>& bd, float v, int64_t at) {
  if (v != v) return upper_bound(bd, v);
  const int64_t n = static_cast<int64_t>(bd.size());
  while (at < n && bd[at] <= v) ++at;
  while (at > 0 && bd[at - 1] > v) --at;
  return at;
}

bool sorted_without_nan(const std::vector<float>& v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (!(v[i] == v[i]) || (i > 0 && !(v[i - 1] <= v[i]))) return false;
  return true;
}

// _upscale_histogram: every old bin split into 16 sub-bins of count/16 at their midpoints,
// re-binned into the new range (bucketize − 1, clamped) by a float32 weighted bincount.
PT_HOT_LOOP std::vector<float> upscale(const float* orig, int64_t bins, float omin, float omax, float umin, float umax) {
  const int64_t fine = bins * kUpsampleRate;
  const float bin_size = (omax - omin) / static_cast<float>(fine);
  const float half_bin = 0.5f * bin_size;
  const Linspace mids(omin, omax, fine + 1);
  const std::vector<float> bounds = linspace(umin, umax, bins + 1);
  const bool walk = sorted_without_nan(bounds);
  std::vector<float> out(static_cast<size_t>(bins), 0.0f);
  int64_t at = 0;
  for (int64_t j = 0; j < fine; ++j) {
    const float v = mids.at(j) + half_bin;
    at = walk ? upper_bound_from(bounds, v, at) : upper_bound(bounds, v);
    const int64_t bucket = std::clamp<int64_t>(at - 1, 0, bins - 1);
    out[bucket] += orig[j / kUpsampleRate] / static_cast<float>(kUpsampleRate);
  }
  return out;
}

// _combine_histograms for a range that changed (update range ⊇ original range).
std::vector<float> combine(const float* orig, int64_t bins, float omin, float omax, const std::vector<float>& update,
                           float umin, float umax) {
  if (omin == omax) {
    // One old value: all old mass goes to the bin histc gives omin on the new range.
    const float mass = sum_f32({orig, static_cast<size_t>(bins)});
    const float one = omin;
    std::vector<float> moved = histc({&one, 1}, bins, umin, umax);
    for (float& v : moved) v *= mass;
    return add(moved, update);
  }
  return add(update, upscale(orig, bins, omin, omax, umin, umax));
}

ObserverConfig histogram_config(const ObserverArgs& args) {
  ObserverConfig c = UniformQuantizationObserverBase::make_config(args, QScheme::per_tensor_affine, "HistogramObserver");
  if (c.is_dynamic) throw NotImplementedError("HistogramObserver doesn't support dynamic quantization");
  return c;
}

int64_t checked_bins(const ObserverArgs& args) {
  const int64_t bins = args.bins.value_or(2048);
  if (bins < 1 || bins > kMaxBins)
    throw ValueError("HistogramObserver: bins must be in [1, " + std::to_string(kMaxBins) + "], got " +
                     std::to_string(bins));
  return bins;
}

}  // namespace

// ---- building blocks -------------------------------------------------------------------------------

std::vector<float> linspace(float start, float end, int64_t steps) {
  if (steps < 1) throw RuntimeError("linspace: number of steps must be positive, got " + std::to_string(steps));
  const Linspace l(start, end, steps);
  std::vector<float> out(static_cast<size_t>(steps));
  for (int64_t i = 0; i < steps; ++i) out[i] = l.at(i);
  return out;
}

float sum_f32(std::span<const float> x) {
  const int64_t n = static_cast<int64_t>(x.size());
  if (n < 8) return 0.0f + row_sum<1>(x.data(), n)[0];  // scalar_inner_sum
  const int64_t vectors = n / 8;                          // vectorized_inner_sum, 8-lane AVX2 vectors
  const Lanes<8> lanes = row_sum<8>(x.data(), vectors);
  float acc = 0.0f;
  for (int64_t k = vectors * 8; k < n; ++k) acc += x[k];
  for (float v : lanes) acc += v;
  return 0.0f + acc;
}

std::vector<float> histc(std::span<const float> x, int64_t bins, double min, double max) {
  return count_checked(x, histc_binner(x, bins, min, max));
}

// ---- HistogramObserver -----------------------------------------------------------------------------

HistogramObserver::HistogramObserver(const ObserverArgs& args)
    : UniformQuantizationObserverBase(histogram_config(args)), histogram_(Tensor::zeros({checked_bins(args)})) {}

std::vector<NamedBuffer> HistogramObserver::named_buffers() const {
  return {{"eps", eps_}, {"histogram", histogram_}, {"min_val", min_val_}, {"max_val", max_val_}};
}

double HistogramObserver::dst_nbins() const { return std::ldexp(1.0, static_cast<int>(dtype_size(config_.dtype) * 8)); }

bool HistogramObserver::is_initialized() const {
  return !(min_val_.item() == kInf || max_val_.item() == -kInf);
}

Tensor HistogramObserver::forward(const Tensor& x) {
  if (x.dtype() != DType::Float32)
    throw TypeError(std::string("HistogramObserver.forward: x must be float32, got ") + dtype_name(x.dtype()));
  if (x.numel() == 0) return x;
  std::span<const float> data = x.span<float>();
  const int64_t nbins = bins();
  float* hist = histogram_.data<float>();
  float& min_val = min_val_.data<float>()[0];
  float& max_val = max_val_.data<float>()[0];
  Scan s;
  if (is_initialized() && min_val < max_val) {
    // Calibration's steady state: a batch inside the running range leaves it unchanged, and its
    // update is histc over that range. Count with it while scanning; if the scan shows the batch
    // reaches outside, the counts are dropped and the general path below runs on the scan.
    const Binner running = histc_binner(data, nbins, min_val, max_val);
    const std::vector<float> update = count_inside(data, running, s);
    if (inside(s, running) && s.min >= min_val && s.max <= max_val) {
      accumulate(hist, update);
      return x;
    }
  } else {
    s = scan(data);
  }
  if (s.nan)
    throw RuntimeError("HistogramObserver.forward: x contains NaN (torch.histc: range of [nan, nan] is not finite)");
  std::vector<float> finite;  // torchao drops ±inf elements (with a warning) and goes on with the rest
  if (s.min == -kInf || s.max == kInf) {
    for (float v : data)
      if (!std::isinf(v)) finite.push_back(v);
    if (finite.empty()) return x;
    data = finite;
    s = scan(data);
  }
  if (!is_initialized()) {
    std::vector<float> h = histc_known_range(data, nbins, s.min, s.max, s);
    std::copy(h.begin(), h.end(), hist);
    min_val = s.min;
    max_val = s.max;
    return x;
  }
  const float new_min = std::min(min_val, s.min), new_max = std::max(max_val, s.max);
  const std::vector<float> update = histc_known_range(data, nbins, new_min, new_max, s);
  if (new_min == min_val && new_max == max_val) {
    accumulate(hist, update);
    return x;
  }
  const std::vector<float> merged = combine(hist, nbins, min_val, max_val, update, new_min, new_max);
  std::copy(merged.begin(), merged.end(), hist);
  min_val = new_min;
  max_val = new_max;
  return x;
}

QParams HistogramObserver::calculate_qparams() const {
  if (min_val_.item() == kInf && max_val_.item() == -kInf)
    return {Tensor::full({1}, 1.0f), Tensor::zeros({1}, DType::Int32)};
  const HistogramSearch s = non_linear_param_search();
  return pt::calculate_qparams(Tensor::scalar(s.min), Tensor::scalar(s.max), config_.quant_min, config_.quant_max,
                               config_.qscheme, config_.dtype, eps_.data<float>()[0], config_.has_customized_qrange);
}

// torchao's _compute_quantization_error, one float32 tensor op at a time. Source bin i covers
// [begin, end) measured from the start of destination bin 0; the error of its mass is the part in
// its first destination bin, the whole bins in between, and the part in its last bin.
double HistogramObserver::quant_error(int64_t next_start_bin, int64_t next_end_bin) const {
  const int64_t nbins = bins();
  const double bin_width = (static_cast<double>(max_val_.item()) - static_cast<double>(min_val_.item())) / nbins;
  const double dst_bin_width = bin_width * static_cast<double>(next_end_bin - next_start_bin + 1) / dst_nbins();
  if (dst_bin_width == 0.0) return 0.0;
  const float bw = static_cast<float>(bin_width), dw = static_cast<float>(dst_bin_width);
  const float half = static_cast<float>(dst_bin_width / 2), neg_half = static_cast<float>(-dst_bin_width / 2);
  const float top = static_cast<float>(dst_nbins() - 1);
  const float half_cube = half * half * half, neg_half_cube = neg_half * neg_half * neg_half;
  const DstBin dst_bin(dw, top);
  const float whole_bin = (half_cube - neg_half_cube) / 3.0f;  // _get_norm(-dw/2, dw/2) before density
  const float* hist = histogram_.data<float>();
  // An empty bin's terms are 0 · (finite) and sum to +0 whenever the cubes cannot overflow: every
  // offset is within twice the histogram's range, and (2·10^12)^3 is still a finite float. Such bins
  // are skipped; their +0 leaves torch's sum unchanged.
  const bool empty_bins_add_zero = bw > 0.0f && bin_width * static_cast<double>(nbins) < 1e12;
  std::vector<float> norm(static_cast<size_t>(nbins), 0.0f);
#ifdef __clang__
  // Vectorized, this loop would evaluate DstBin's rare fmod branch for every lane (wasm has no vector
  // fmod: four libcalls per vector), which made it ~20× slower than scalar.
#pragma clang loop vectorize(disable)
#endif
  for (int64_t i = 0; i < nbins; ++i) {
    if (hist[i] == 0.0f && empty_bins_add_zero) continue;
    const float begin = static_cast<float>(i - next_start_bin) * bw;
    const float end = begin + bw;
    const float dst_begin = dst_bin(begin);
    const float dst_begin_center = (dst_begin + 0.5f) * dw;
    const float dst_end = dst_bin(end);
    const float density = hist[i] / bw;
    const float delta_begin = begin - dst_begin_center;
    const float first = density * ((half_cube - delta_begin * delta_begin * delta_begin) / 3.0f);
    const float between = (dst_end - dst_begin - 1.0f) * (density * whole_bin);
    const float delta_end = end - (dst_end * dw + half);
    const float last = density * ((delta_end * delta_end * delta_end - neg_half_cube) / 3.0f);
    norm[i] = 0.0f + first + between + last;
  }
  return sum_f32(norm);
}

HistogramSearch HistogramObserver::non_linear_param_search() const {
  if (!is_initialized())
    throw RuntimeError("HistogramObserver: run forward on data before searching the histogram's range");
  const int64_t nbins = bins();
  const float min_val = min_val_.item(), max_val = max_val_.item();
  const float bin_width = (max_val - min_val) / static_cast<float>(nbins);
  std::span<const float> hist = histogram_.span<float>();
  const double total = sum_f32(hist);
  std::vector<float> csum(static_cast<size_t>(nbins));  // torch.cumsum: double accumulator, f32 stores
  double acc = 0.0;
  for (int64_t i = 0; i < nbins; ++i) csum[i] = static_cast<float>(acc += hist[i]);

  double alpha = 0.0, beta = 1.0, norm_min = std::numeric_limits<double>::infinity();
  int64_t start = 0, end = nbins - 1, evaluations = 0;
  // Quantile cursors. torchao rescans from start_bin / end_bin every step; the thresholds only grow
  // (left) or shrink (right) and start / end only move inwards, so every element a rescan would pass
  // over was already passed by the cursor, and keeping it gives the same l and r.
  int64_t lc = 0, rc = nbins - 1;
  while (alpha < beta) {
    const double next_alpha = alpha + 1e-5, next_beta = beta - 1e-5;
    const float left_threshold = static_cast<float>(next_alpha * total);
    const float right_threshold = static_cast<float>(next_beta * total);
    lc = std::max(lc, start);
    while (lc < end && csum[lc] < left_threshold) ++lc;
    rc = std::min(rc, end);
    while (rc > start && csum[rc] > right_threshold) --rc;
    const int64_t l = std::min(lc, end), r = std::max(rc, start);
    int64_t next_start = start, next_end = end;
    if (l - start > end - r) {
      next_start = l;
      alpha = next_alpha;
    } else {
      next_end = r;
      beta = next_beta;
    }
    if (next_start == start && next_end == end) continue;
    const double norm = quant_error(next_start, next_end);
    ++evaluations;
    if (norm > norm_min) break;
    norm_min = norm;
    start = next_start;
    end = next_end;
  }
  return {min_val + bin_width * static_cast<float>(start), min_val + bin_width * static_cast<float>(end + 1), start,
          end, evaluations};
}

ObserverClass histogram_observer_class() {
  return {"HistogramObserver", [](const ObserverArgs& a) -> std::unique_ptr<ObserverBase> {
            return std::make_unique<HistogramObserver>(a);
          },
          {"bins", "dtype", "qscheme", "reduce_range", "quant_min", "quant_max", "eps", "is_dynamic"}};
}

}  // namespace pt
