// kernel_table.h — the kernel tester's table: one row per kernel of engine/kernels, how to draw one call's
// arguments for a size from the tester's random stream (kernel_tester.h), and kernels_under_test(), the rows.
// Included once per program: by the tester's checks (test_kernels.cpp) and by the kernels fuzz target
// (tests/fuzz/targets/kernels.cpp), which draws calls from seeds and sizes libFuzzer chooses.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kernel_tester.h"
#include "kernels/kernels.h"

namespace {

using namespace pt::kernels;

kt::Call<AMinMaxFn> draw_aminmax(kt::Rng& r, size_t n) {
  auto x = std::make_shared<std::vector<float>>(kt::draw_floats(r, n, kt::FloatMix::draw(r)));
  return {"n=" + std::to_string(n), [x](AMinMaxFn* fn) {
            kt::Outputs out;
            kt::add_aminmax(out, fn(x->data(), x->size()));
            return out;
          }};
}

// histc's range as callers make it (lo and width from the data's finite min and max), a range that
// leaves part of the data outside, and extremes: an overflowing width (+inf), a width whose reciprocal
// is subnormal, a width of 0 to 3 ulps, a subnormal width (reciprocal +inf). A share of the values then
// sits on bin edges and their neighbours, where the bin index rounds either way.
HistcRange draw_range(kt::Rng& r, const std::vector<float>& x, int64_t bins) {
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (float v : x) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!(lo < hi)) lo = -1.0f, hi = 1.0f;
  switch (r.below(8)) {
    case 0: case 1: case 2: break;                                   // the data's range
    case 3: {                                                        // part of it
      const float a = x.empty() ? 0.0f : x[r.below(x.size())];
      lo = std::isfinite(a) ? a : 0.0f;
      hi = lo + std::abs(hi - lo) * (0.1f + r.unit());
      break;
    }
    case 4: lo = -3.0e38f, hi = 3.0e38f; break;                       // width +inf
    case 5: lo = -1.5e38f, hi = 1.5e38f; break;                       // 1 / width subnormal
    case 6: lo = r.unit(), hi = kt::from_bits(kt::bits(lo) + static_cast<uint32_t>(r.below(4))); break;  // 0-3 ulps
    default: lo = 0.0f, hi = kt::from_bits(1 + static_cast<uint32_t>(r.below(1000))); break;  // subnormal
  }
  return {lo, hi - lo, bins};
}

void put_on_edges(kt::Rng& r, std::vector<float>& x, const HistcRange& range) {
  const float step = range.width / static_cast<float>(range.bins);
  for (float& v : x) {
    if (!r.chance(0.2)) continue;
    const float edge = range.lo + static_cast<float>(r.below(static_cast<uint64_t>(range.bins) + 1)) * step;
    v = kt::from_bits(kt::bits(edge) + static_cast<uint32_t>(r.below(3)) - 1);
  }
}

kt::Call<HistcAMinMaxFn> draw_histc_aminmax(kt::Rng& r, size_t n) {
  static const std::vector<int64_t> bin_counts = {1, 2, 3, 4, 5, 7, 8, 31, 256, 2048, 65536, 65537};
  const int64_t bins = r.chance(0.25) ? 1 + static_cast<int64_t>(r.below(5000)) : r.pick(bin_counts);
  auto x = std::make_shared<std::vector<float>>(kt::draw_floats(r, n, kt::FloatMix::draw(r)));
  const HistcRange range = draw_range(r, *x, bins);
  if (r.chance(0.5)) put_on_edges(r, *x, range);
  std::vector<uint32_t> start(4 * static_cast<size_t>(bins));
  for (uint32_t& c : start) c = static_cast<uint32_t>(r.below(3));  // counts are added to
  char shape[160];
  std::snprintf(shape, sizeof shape, "n=%zu bins=%lld lo=%a width=%a", n, static_cast<long long>(bins),
                static_cast<double>(range.lo), static_cast<double>(range.width));
  return {shape, [x, range, start](HistcAMinMaxFn* fn) {
            kt::Field counts{"counts", start};
            kt::Outputs out;
            kt::add_aminmax(out, fn(x->data(), x->size(), range, counts.words.data()));
            out.push_back(std::move(counts));
            return out;
          }};
}

// ---- integer kernels ----------------------------------------------------------------------------------

// Values as lowering makes them (an int8 / uint8 minus its zero point, an int8 weight) and, in a quarter of
// the calls, any int16 (the one dot_i16x8 overflow, −32768·−32768·2, included).
int16_t draw_i16(kt::Rng& r, int mode) {
  if (mode == 0) return static_cast<int16_t>(static_cast<int32_t>(r.below(511)) - 255);
  if (mode == 1) return static_cast<int16_t>(static_cast<int32_t>(r.below(256)) - 128);
  return r.chance(0.1) ? int16_t{-32768} : static_cast<int16_t>(r.next());
}

// n picks the depth (k pairs, wrapped into 0 … 299 above 300); rows 0 … 9, panels 0 … 3.
kt::Call<I16GemmFn> draw_i16_gemm(kt::Rng& r, size_t n) {
  const size_t m = r.below(10), panels = r.below(4), k_pairs = n <= 300 ? n : n % 300;
  const size_t a_stride = 2 * k_pairs + 2 * r.below(3), c_stride = 8 * panels + r.below(5);
  const int mode = static_cast<int>(r.below(4)) % 3;
  auto a = std::make_shared<std::vector<int16_t>>(m * a_stride);
  auto b = std::make_shared<std::vector<int16_t>>(panels * k_pairs * 16);
  for (int16_t& v : *a) v = draw_i16(r, mode);
  for (int16_t& v : *b) v = draw_i16(r, mode == 0 ? 1 : mode);
  char shape[120];
  std::snprintf(shape, sizeof shape, "m=%zu panels=%zu k_pairs=%zu a_stride=%zu c_stride=%zu values=%d", m, panels,
                k_pairs, a_stride, c_stride, mode);
  return {shape, [=](I16GemmFn* fn) {
            kt::Field c{"c", std::vector<uint32_t>(m * c_stride, 0xdeadbeefu)};
            fn(I16Gemm{m, panels, k_pairs, a->data(), a_stride, b->data(), reinterpret_cast<int32_t*>(c.words.data()),
                       c_stride});
            return kt::Outputs{c};
          }};
}

// i16_gemm's shapes with B read at offsets: a buffer of random values, each pair's and panel's offset drawn
// anywhere in it (odd ones, overlapping ones; the panels of a conv's rows and runs are such offsets). A fifth
// of the calls have 20 … 49 rows, so the SIMD variant's blocks of interleaved tiles (2048 / k_pairs tiles
// a block) come more than once at the larger depths.
kt::Call<I16GemmOffsetsFn> draw_i16_gemm_offsets(kt::Rng& r, size_t n) {
  const size_t m = r.chance(0.2) ? 20 + r.below(30) : r.below(10), panels = r.below(5), k_pairs = n <= 300 ? n : n % 300;
  const size_t a_stride = 2 * k_pairs + 2 * r.below(3), c_stride = 8 * panels + r.below(5);
  const int mode = static_cast<int>(r.below(4)) % 3;
  const size_t pair_room = 1 + r.below(4 * k_pairs + 40), panel_room = 1 + r.below(200);
  auto a = std::make_shared<std::vector<int16_t>>(m * a_stride);
  auto b = std::make_shared<std::vector<int16_t>>(pair_room + panel_room + 16);
  auto pair_offsets = std::make_shared<std::vector<size_t>>(k_pairs);
  auto panel_offsets = std::make_shared<std::vector<size_t>>(panels);
  for (int16_t& v : *a) v = draw_i16(r, mode);
  for (int16_t& v : *b) v = draw_i16(r, mode == 0 ? 1 : mode);
  for (size_t& o : *pair_offsets) o = r.below(pair_room);
  for (size_t& o : *panel_offsets) o = r.below(panel_room);
  char shape[160];
  std::snprintf(shape, sizeof shape, "m=%zu panels=%zu k_pairs=%zu a_stride=%zu c_stride=%zu b=%zu values=%d", m, panels,
                k_pairs, a_stride, c_stride, b->size(), mode);
  return {shape, [=](I16GemmOffsetsFn* fn) {
            kt::Field c{"c", std::vector<uint32_t>(m * c_stride, 0xdeadbeefu)};
            fn(I16GemmOffsets{m, panels, k_pairs, a->data(), a_stride, b->data(), pair_offsets->data(),
                              panel_offsets->data(), reinterpret_cast<int32_t*>(c.words.data()), c_stride});
            return kt::Outputs{c};
          }};
}

// Winograd's input transform on planes of drawn values (as the conv makes them, codes minus a zero point, or any
// int16, where the int16 sums wrap), 1 … 8 pairs (n wrapped into 0 … 39: 0 pairs too), 0 … 4 panels at offsets
// anywhere in the plane (odd and overlapping ones), row and plane strides with gaps; the output's gaps between
// positions and panels are compared too, so a write outside its slots shows.
kt::Call<WinogradInputFn> draw_i16_winograd_input(kt::Rng& r, size_t n) {
  const size_t pairs = n % 40 < 8 ? n % 40 : 1 + r.below(8), panels = r.below(5);
  const size_t row_stride = 32 + r.below(40), plane_stride = 4 * row_stride + r.below(80), room = 1 + r.below(60);
  const size_t xi_stride = panels * pairs * 16 + r.below(9);
  const int mode = static_cast<int>(r.below(3));
  auto in = std::make_shared<std::vector<int16_t>>(pairs * plane_stride + room + 3 * row_stride + 40);
  auto offsets = std::make_shared<std::vector<size_t>>(panels);
  for (int16_t& v : *in) v = draw_i16(r, mode);
  for (size_t& o : *offsets) o = r.below(room);
  char shape[160];
  std::snprintf(shape, sizeof shape, "pairs=%zu panels=%zu row_stride=%zu plane_stride=%zu xi_stride=%zu values=%d", pairs,
                panels, row_stride, plane_stride, xi_stride, mode);
  return {shape, [=](WinogradInputFn* fn) {
            std::vector<int16_t> out(16 * xi_stride + 1, int16_t{0x5a5a});
            fn(WinogradInput{in->data(), pairs, plane_stride, row_stride, panels, offsets->data(), out.data(), xi_stride});
            kt::Field f{"out", {}};
            for (int16_t v : out) f.words.push_back(static_cast<uint16_t>(v));
            return kt::Outputs{f};
          }};
}

// Winograd's output transform on any int32 (the sums wrap; the shift then keeps whatever the wrapped sum says),
// or on 4 times drawn values (the conv's case: the shift exact), n tiles (wrapped into 0 … 99) in 0 … 5 rows,
// strides with gaps, the output's gaps compared too.
kt::Call<WinogradOutputFn> draw_i32_winograd_output(kt::Rng& r, size_t n) {
  const size_t tiles = n <= 100 ? n : n % 100, rows = r.below(6);
  const size_t m_stride = tiles + r.below(5), xi_stride = rows * m_stride + r.below(5);
  const size_t y_row = 2 * tiles + r.below(5), y_stride = 2 * y_row + r.below(5);
  const bool times4 = r.chance(0.5);
  auto m = std::make_shared<std::vector<int32_t>>(16 * xi_stride);
  for (int32_t& v : *m) v = times4 ? 4 * (static_cast<int32_t>(r.next() % 2000001) - 1000000) : static_cast<int32_t>(r.next());
  char shape[160];
  std::snprintf(shape, sizeof shape, "rows=%zu tiles=%zu m_stride=%zu xi_stride=%zu y_row=%zu y_stride=%zu values=%s", rows,
                tiles, m_stride, xi_stride, y_row, y_stride, times4 ? "small" : "any");
  return {shape, [=](WinogradOutputFn* fn) {
            kt::Field y{"y", std::vector<uint32_t>(rows * y_stride + 1, 0xdeadbeefu)};
            fn(WinogradOutput{m->data(), rows, tiles, xi_stride, m_stride, reinterpret_cast<int32_t*>(y.words.data()), y_stride,
                              y_row});
            return kt::Outputs{y};
          }};
}

// n columns from a random start p0 (so the SIMD variant's head, body and tail all run), random values.
kt::Call<PackPairsFn> draw_i16_pack_pairs(kt::Rng& r, size_t n) {
  const size_t p0 = r.below(20), k_pairs = 1 + r.below(4), panel_stride = 16 * k_pairs;
  const size_t panels = (p0 + n + 7) / 8 + 1;
  auto rows = std::make_shared<std::vector<int16_t>>(2 * n);
  for (int16_t& v : *rows) v = static_cast<int16_t>(r.next());
  char shape[80];
  std::snprintf(shape, sizeof shape, "n=%zu p0=%zu panel_stride=%zu", n, p0, panel_stride);
  return {shape, [=](PackPairsFn* fn) {
            std::vector<int16_t> out(panels * panel_stride, int16_t{0x5a5a});
            fn(rows->data(), rows->data() + n, n, p0, out.data() + 16 * (k_pairs - 1), panel_stride);
            kt::Field f{"out", {}};
            for (int16_t v : out) f.words.push_back(static_cast<uint16_t>(v));
            return kt::Outputs{f};
          }};
}

int32_t draw_acc(kt::Rng& r) {
  switch (r.below(6)) {
    case 0: return static_cast<int32_t>(r.next());  // anywhere, extremes included
    case 1: return r.chance(0.5) ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max();
    case 2: return static_cast<int32_t>(r.below(1u << 25)) - (1 << 24);
    default: return static_cast<int32_t>(r.below(1u << 17)) - (1 << 16);
  }
}

// The output range lowering uses: int8, uint8, reduce_range uint8, a fused relu (qmin = zero point).
void draw_range(kt::Rng& r, int32_t& zero_point, int32_t& qmin, int32_t& qmax) {
  static const std::vector<std::pair<int32_t, int32_t>> ranges = {{-128, 127}, {0, 255}, {0, 127}, {-127, 127}};
  std::tie(qmin, qmax) = r.pick(ranges);
  zero_point = qmin + static_cast<int32_t>(r.below(static_cast<uint64_t>(qmax - qmin + 1)));
  if (r.chance(0.25)) qmin = zero_point;
}

Requantization draw_requantization(kt::Rng& r) {
  Requantization q;
  q.kind = static_cast<RequantKind>(r.below(4));
  q.scale = std::ldexp(1.0f + r.unit(), static_cast<int>(r.below(29)) - 20);  // 2^-20 … 2^9
  q.multiplier = r.chance(0.05) ? std::numeric_limits<int32_t>::min()
                                : static_cast<int32_t>((1u << 30) + r.below(1u << 30));
  q.shift = q.kind == RequantKind::fixed_point ? static_cast<int32_t>(r.below(62)) - 31
            : q.kind == RequantKind::shift_even ? static_cast<int32_t>(r.below(63)) - 31
                                                : static_cast<int32_t>(r.below(32));
  draw_range(r, q.zero_point, q.qmin, q.qmax);
  if (q.kind == RequantKind::shift_even && r.chance(0.5)) {  // the VPU's int16 Q3.12 output
    q.out_bytes = 2;
    q.zero_point = 0, q.qmin = r.chance(0.25) ? 0 : -32768, q.qmax = 32767;
  }
  if (r.chance(0.25)) {  // the X86 path's float output: scale s_in·s_w, a float bias of either sign (±0 too), a relu or none
    q.kind = RequantKind::f32_output;
    q.out_bytes = 4;
    const float b = r.chance(0.2) ? (r.chance(0.5) ? 0.0f : -0.0f) : std::ldexp(r.unit() - 0.5f, static_cast<int>(r.below(24)) - 8);
    q.bias_f32 = b;
    q.min_f32 = r.chance(0.5) ? 0.0f : -std::numeric_limits<float>::infinity();
  }
  return q;
}

kt::Call<RequantizeFn> draw_i32_requantize(kt::Rng& r, size_t n) {
  auto acc = std::make_shared<std::vector<int32_t>>(n);
  for (int32_t& v : *acc) v = draw_acc(r);
  const int32_t bias = r.chance(0.5) ? 0 : draw_acc(r);
  const Requantization q = draw_requantization(r);
  if (q.kind == RequantKind::shift_even && q.shift > 0)  // ties: dropped bits exactly half, odd and even floors
    for (int32_t& v : *acc)
      if (r.chance(0.3))
        v = static_cast<int32_t>((static_cast<uint32_t>(v) & ~((uint32_t{1} << q.shift) - 1)) | (uint32_t{1} << (q.shift - 1)));
  const size_t stride = r.chance(0.75) ? 1 : 2 + r.below(3);
  char shape[280];
  std::snprintf(shape, sizeof shape,
                "n=%zu kind=%d scale=%a multiplier=%d shift=%d zp=%d range=[%d, %d] bytes=%d bias=%d stride=%zu bias_f32=%a min_f32=%a",
                n, static_cast<int>(q.kind), static_cast<double>(q.scale), q.multiplier, q.shift, q.zero_point, q.qmin,
                q.qmax, q.out_bytes, bias, stride, static_cast<double>(q.bias_f32), static_cast<double>(q.min_f32));
  return {shape, [=](RequantizeFn* fn) {
            std::vector<uint8_t> out(n * stride * static_cast<size_t>(q.out_bytes), 0xa5);
            fn(acc->data(), n, bias, q, out.data(), stride);
            return kt::Outputs{{"out", std::vector<uint32_t>(out.begin(), out.end())}};
          }};
}

kt::Call<Q8AddFn> draw_q8_add(kt::Rng& r, size_t n) {
  auto a = std::make_shared<std::vector<uint8_t>>(n), b = std::make_shared<std::vector<uint8_t>>(n);
  for (uint8_t& v : *a) v = static_cast<uint8_t>(r.next());
  for (uint8_t& v : *b) v = static_cast<uint8_t>(r.next());
  AddParams p;
  p.is_signed = r.chance(0.5);
  p.shift = 12 + static_cast<int32_t>(r.below(19));  // XNNPACK's [12, 30]
  p.a_multiplier = static_cast<int32_t>(r.below(1u << 22)) - (1 << 21);
  p.b_multiplier = static_cast<int32_t>(r.below(1u << 22)) - (1 << 21);
  p.bias = r.chance(0.1) ? static_cast<int32_t>(r.next()) : static_cast<int32_t>(r.below(1u << 28)) - (1 << 27);
  draw_range(r, p.zero_point, p.qmin, p.qmax);
  char shape[160];
  std::snprintf(shape, sizeof shape, "n=%zu signed=%d bias=%d multipliers=%d,%d shift=%d zp=%d range=[%d, %d]", n,
                p.is_signed, p.bias, p.a_multiplier, p.b_multiplier, p.shift, p.zero_point, p.qmin, p.qmax);
  return {shape, [=](Q8AddFn* fn) {
            std::vector<uint8_t> out(n, 0xa5);
            fn(a->data(), b->data(), n, p, out.data());
            return kt::Outputs{{"out", std::vector<uint32_t>(out.begin(), out.end())}};
          }};
}

// Codes over the whole byte range, with runs of the extremes and of equal pairs (max's ties).
std::shared_ptr<std::vector<uint8_t>> draw_codes(kt::Rng& r, size_t n) {
  auto x = std::make_shared<std::vector<uint8_t>>(n);
  const uint8_t extremes[] = {0x00, 0x7f, 0x80, 0xff};
  for (uint8_t& v : *x) v = r.chance(0.1) ? extremes[r.below(4)] : static_cast<uint8_t>(r.next());
  return x;
}

kt::Call<Q8MaxFn> draw_q8_max(kt::Rng& r, size_t n) {
  auto a = draw_codes(r, n), b = draw_codes(r, n);
  for (size_t i = 0; i < n; ++i)
    if (r.chance(0.1)) (*b)[i] = (*a)[i];
  const bool is_signed = r.chance(0.5), in_place = r.chance(0.25);
  char shape[64];
  std::snprintf(shape, sizeof shape, "n=%zu signed=%d out=%s", n, is_signed, in_place ? "a" : "separate");
  return {shape, [=](Q8MaxFn* fn) {
            std::vector<uint8_t> out(n, 0xa5), a_copy(*a);
            fn(a_copy.data(), b->data(), n, is_signed, in_place ? a_copy.data() : out.data());
            const std::vector<uint8_t>& res = in_place ? a_copy : out;
            return kt::Outputs{{"out", std::vector<uint32_t>(res.begin(), res.end())}};
          }};
}

kt::Call<Q8SumFn> draw_q8_sum(kt::Rng& r, size_t n) {
  auto x = draw_codes(r, n);
  const bool is_signed = r.chance(0.5);
  char shape[48];
  std::snprintf(shape, sizeof shape, "n=%zu signed=%d", n, is_signed);
  return {shape, [=](Q8SumFn* fn) {
            return kt::Outputs{{"sum", std::vector<uint32_t>{static_cast<uint32_t>(fn(x->data(), n, is_signed))}}};
          }};
}

// Planes of codes over the whole range (n columns, 1 to 4 rows, a row stride of n + 0 to 2), either signedness, a
// zero point anywhere in the code's range (and past it, where the int16 cast wraps), the second plane absent in a
// quarter of the calls; borders of 0 to 3 pairs and an output row stride with 0 to 3 int16 of gap (the gaps are
// compared too, so a write outside the rows shows).
kt::Call<Q8WidenPairsFn> draw_q8_widen_pairs(kt::Rng& r, size_t n) {
  const size_t rows = 1 + r.below(4), in_stride = n + r.below(3), pad = r.below(4);
  const size_t out_stride = 2 * (n + 2 * pad) + r.below(4);
  auto a = draw_codes(r, rows * in_stride), b = draw_codes(r, rows * in_stride);
  const bool is_signed = r.chance(0.5), no_b = r.chance(0.25);
  const int32_t zp = r.chance(0.9) ? (is_signed ? -128 : 0) + static_cast<int32_t>(r.below(256))
                                   : static_cast<int32_t>(r.next());
  char shape[160];
  std::snprintf(shape, sizeof shape, "n=%zu rows=%zu in_stride=%zu pad=%zu out_stride=%zu signed=%d zero_point=%d b=%s", n, rows,
                in_stride, pad, out_stride, is_signed, zp, no_b ? "null" : "plane");
  return {shape, [=](Q8WidenPairsFn* fn) {
            std::vector<int16_t> out(rows * out_stride + 3, int16_t{0x5a5a});
            fn(WidenPairs{a->data(), no_b ? nullptr : b->data(), rows, n, in_stride, pad, is_signed, zp, out.data(), out_stride});
            kt::Field f{"out", {}};
            for (int16_t v : out) f.words.push_back(static_cast<uint16_t>(v));
            return kt::Outputs{f};
          }};
}

// ---- float kernels for training and the float graph -----------------------------------------------------

// Any NaN as one quiet NaN: f32_gemm leaves NaN payloads out of its contract.
std::vector<uint32_t> words_nan_as_one(const std::vector<float>& x) {
  std::vector<uint32_t> w(x.size());
  for (size_t i = 0; i < x.size(); ++i) w[i] = x[i] != x[i] ? 0x7fc00000u : kt::bits(x[i]);
  return w;
}

// n columns (above 4099: n outputs in all), 0 to 12 rows, K from the shapes conv2d and linear make, past
// the wasmsimd variant's packed panels of 256 rows (it packs from 5 rows and 512 columns: sizes 1000, 4099
// and 100003 reach them), and small random ones; A as stored or transposed, every row stride with 0 to 2
// floats of gap (the gaps of C are compared too, so a write outside the matrix shows), and now and then
// B's row stride 0 (one row for every k).
kt::Call<GemmFn> draw_gemm(kt::Rng& r, size_t n) {
  static const std::vector<size_t> depths = {0, 1, 2, 3, 4, 5, 8, 9, 16, 27, 31, 32, 144, 256, 257, 288, 577};
  const size_t M = r.below(13);
  const size_t N = n <= 4099 ? n : n / std::max<size_t>(M, 1);
  const size_t K = r.chance(0.5) ? r.pick(depths) : r.below(64);
  const bool transposed = r.chance(0.5), accumulate = r.chance(0.5);
  const size_t a_row = transposed ? 1 : K + r.below(3), a_col = transposed ? M + r.below(3) : 1;
  const size_t ldb = r.chance(0.05) ? 0 : N + r.below(3), ldc = N + r.below(3);
  auto a = std::make_shared<std::vector<float>>(kt::draw_floats(r, transposed ? K * a_col : M * a_row, kt::FloatMix::draw(r)));
  auto b = std::make_shared<std::vector<float>>(kt::draw_floats(r, K * std::max(ldb, N), kt::FloatMix::draw(r)));
  const std::vector<float> c = kt::draw_floats(r, M * ldc, kt::FloatMix::draw(r));
  char shape[160];
  std::snprintf(shape, sizeof shape, "M=%zu N=%zu K=%zu a_row=%zu a_col=%zu ldb=%zu ldc=%zu accumulate=%d", M, N, K, a_row, a_col, ldb,
                ldc, int(accumulate));
  return {shape, [=](GemmFn* fn) {
            std::vector<float> out = c;
            fn({M, N, K, a->data(), a_row, a_col, b->data(), ldb, out.data(), ldc, accumulate});
            return kt::Outputs{{"C", words_nan_as_one(out)}};
          }};
}

// max_pool2d's shapes: 1 to 3 planes, windows of 1 to 4 taps a side with stride 1 to 3, dilation 1 or 2,
// padding up to half the window, floor or ceil output sizes (ceil lets a last window hang over the edge);
// the plane about sqrt(n) a side, so that n = 100003 gives a row of some 300 outputs.
kt::Call<MaxPool2dFn> draw_max_pool2d(kt::Rng& r, size_t n) {
  auto tap = [&r] { return 1 + static_cast<int64_t>(r.below(4)); };
  const int64_t kh = tap(), kw = tap(), sh = 1 + static_cast<int64_t>(r.below(3)), sw = r.chance(0.5) ? 1 + static_cast<int64_t>(r.below(3)) : 2;
  const int64_t dh = r.chance(0.8) ? 1 : 2, dw = r.chance(0.8) ? 1 : 2;
  const int64_t ph = static_cast<int64_t>(r.below(static_cast<uint64_t>(kh / 2 + 1))), pw = static_cast<int64_t>(r.below(static_cast<uint64_t>(kw / 2 + 1)));
  const bool ceil_mode = r.chance(0.3);
  const int64_t side = 1 + static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  const int64_t H = std::max<int64_t>((kh - 1) * dh + 1, 1 + static_cast<int64_t>(r.below(static_cast<uint64_t>(std::min<int64_t>(side, 24))))),
                W = std::max<int64_t>((kw - 1) * dw + 1, side + static_cast<int64_t>(r.below(5)));
  auto out_size = [ceil_mode](int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {  // as ops::max_pool2d
    const int64_t num = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
    int64_t o = num / s + 1;
    if (ceil_mode && (o - 1) * s >= in + p) --o;
    return o;
  };
  const int64_t OH = out_size(H, kh, sh, ph, dh), OW = out_size(W, kw, sw, pw, dw);
  const size_t planes = 1 + r.below(3);
  auto x = std::make_shared<std::vector<float>>(kt::draw_floats(r, planes * static_cast<size_t>(H * W), kt::FloatMix::draw(r)));
  char shape[200];
  std::snprintf(shape, sizeof shape, "planes=%zu H=%lld W=%lld k=%lldx%lld stride=%lldx%lld pad=%lldx%lld dil=%lldx%lld ceil=%d",
                planes, (long long)H, (long long)W, (long long)kh, (long long)kw, (long long)sh, (long long)sw, (long long)ph,
                (long long)pw, (long long)dh, (long long)dw, int(ceil_mode));
  return {shape, [=](MaxPool2dFn* fn) {
            const size_t outs = planes * static_cast<size_t>(OH * OW);
            std::vector<float> y(outs, 1234.5f);
            std::vector<int32_t> at(outs, -7);
            fn({x->data(), planes, H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw, y.data(), at.data()});
            kt::Outputs out{{"y", {}}, {"indices", std::vector<uint32_t>(at.begin(), at.end())}};
            for (float v : y) out[0].words.push_back(kt::bits(v));
            return out;
          }};
}

// fake quantization's ranges (int8, uint8, 4-bit, int16, int32 and one past 2^24, where the SIMD variant
// hands the call to the reference), a zero point inside the range, a scale from 2^-20 to 2^4 (its
// reciprocal as callers compute it) and values drawn around scale · range, specials included.
kt::Call<FakeQuantFn> draw_fake_quant(kt::Rng& r, size_t n) {
  static const std::vector<std::pair<int64_t, int64_t>> ranges = {
      {-128, 127}, {0, 255}, {-127, 127}, {0, 15}, {-32768, 32767}, {-(int64_t{1} << 31), (int64_t{1} << 31) - 1},
      {0, (int64_t{1} << 24) + 1}};
  const auto [lo, hi] = r.pick(ranges);
  const int64_t zp = lo + static_cast<int64_t>(r.below(static_cast<uint64_t>(hi - lo) + 1));
  const float scale = std::ldexp(1.0f + r.unit(), static_cast<int>(r.below(25)) - 20);
  kt::FloatMix mix = kt::FloatMix::draw(r);
  mix.scale = scale * static_cast<float>(std::min<int64_t>(hi - lo, 1 << 20)) * (r.chance(0.5) ? 0.5f : 1.5f);
  auto x = std::make_shared<std::vector<float>>(kt::draw_floats(r, n, mix));
  const FakeQuant p{scale, 1.0f / scale, zp, lo, hi};
  char shape[160];
  std::snprintf(shape, sizeof shape, "n=%zu scale=%a zp=%lld range=[%lld, %lld]", n, static_cast<double>(scale),
                static_cast<long long>(zp), static_cast<long long>(lo), static_cast<long long>(hi));
  return {shape, [=](FakeQuantFn* fn) {
            std::vector<float> out(n, 1234.5f);
            std::vector<uint8_t> mask(n, 0xa5);
            fn(x->data(), n, p, out.data(), mask.data());
            kt::Outputs o{{"out", {}}, {"mask", std::vector<uint32_t>(mask.begin(), mask.end())}};
            for (float v : out) o[0].words.push_back(kt::bits(v));
            return o;
          }};
}

// f64_chain_sums: 1 to 8 channels (an odd last one too) n elements long, planes a few floats apart, plain sums or
// squared deviations from means near the data (now and then special), onto running sums that are zero, drawn, or
// special; the sums compared as double bits (any NaN as one).
kt::Call<ChainSumsFn> draw_chain_sums(kt::Rng& r, size_t n) {
  const kt::FloatMix mix = kt::FloatMix::draw(r);
  const size_t m = 1 + r.below(ChainSums::kMaxChains), stride = n + r.below(5);
  auto x = std::make_shared<std::vector<float>>(kt::draw_floats(r, m * stride + 1, mix));
  const bool dev = r.chance(0.5);
  auto mean = std::make_shared<std::vector<float>>(m);
  for (float& v : *mean) v = r.chance(0.05) ? kt::special_float(r) : (r.unit() - 0.5f) * mix.scale;
  std::vector<double> acc0(m);
  for (double& a : acc0) a = r.chance(0.5) ? 0.0 : r.chance(0.1) ? static_cast<double>(kt::special_float(r)) : (r.unit() - 0.5) * 1e3;
  char shape[96];
  std::snprintf(shape, sizeof shape, "n=%zu m=%zu stride=%zu %s", n, m, stride, dev ? "deviations" : "sums");
  return {shape, [=](ChainSumsFn* fn) {
            std::vector<double> acc = acc0;
            fn({x->data(), stride, n, m, dev ? mean->data() : nullptr, acc.data()});
            kt::Outputs o{{"acc", {}}};
            for (double v : acc) {
              const uint64_t b = std::isnan(v) ? 0x7ff8000000000000ull : __builtin_bit_cast(uint64_t, v);
              o[0].words.push_back(static_cast<uint32_t>(b));
              o[0].words.push_back(static_cast<uint32_t>(b >> 32));
            }
            return o;
          }};
}

// batch_norm's transform: a multiplier and an offset at the scales the values have (or special). In a third
// of the calls some elements are placed at ties: x · a = an odd multiple of half an ulp of c (exactly, with a a
// power of two 2^k; or, with a = 2^k · (1 − 2^-23) and x = (1 + 2^-23) · half_ulp / 2^k, just below one, which
// r = x · a + c rounded to double turns into a tie that float rounding then breaks the other way), or x · a = −c;
// c now and then below float's normal range (there half an ulp is 2^-150 and k = −126). Each case makes the SIMD
// variant fail when its test for it is taken out.
kt::Call<AffineFmaFn> draw_affine_fma(kt::Rng& r, size_t n) {
  kt::FloatMix mix = kt::FloatMix::draw(r);
  auto x = std::make_shared<std::vector<float>>(kt::draw_floats(r, n, mix));
  auto scalar = [&](float scale) { return r.chance(0.05) ? kt::special_float(r) : (r.unit() + r.unit() - 1.0f) * scale; };
  const bool ties = r.chance(0.33), tiny = ties && r.chance(0.3), near = ties && r.chance(0.5);
  const int k = tiny ? -126 : static_cast<int>(r.below(21)) - 10;
  float a = ties ? std::ldexp(near ? kt::from_bits(0x3f7ffffeu) : 1.0f, k) : scalar(std::ldexp(1.0f, static_cast<int>(r.below(21)) - 10));
  float c = tiny ? kt::from_bits(static_cast<uint32_t>(r.below(0x800000)) | (r.chance(0.5) ? 0x80000000u : 0u))
                 : scalar(mix.scale);
  if (ties && std::isfinite(c)) {
    // half an ulp of c, in double (below float's normal range it is 2^-150, not a float)
    const double half_ulp = std::fabs(c) < 0x1p-126f ? 0x1p-150 : (std::nextafter(std::fabs(c), INFINITY) - std::fabs(c)) / 2.0;
    for (size_t i = 0; i < n; ++i)
      if (r.chance(0.2)) {
        const double odd = static_cast<double>(2 * r.below(4) + 1) * (r.chance(0.5) ? 1.0 : -1.0);
        (*x)[i] = r.chance(0.2) ? -c / a : static_cast<float>(odd * (near ? 1.0 + 0x1p-23 : 1.0) * std::ldexp(half_ulp, -k));
      }
  }
  char shape[120];
  std::snprintf(shape, sizeof shape, "n=%zu a=%a c=%a", n, static_cast<double>(a), static_cast<double>(c));
  return {shape, [=](AffineFmaFn* fn) {
            std::vector<float> y(n, 1234.5f);
            fn(x->data(), n, a, c, y.data());
            kt::Outputs o{{"y", {}}};
            for (float v : y) o[0].words.push_back(kt::bits(v));
            return o;
          }};
}

// The float Winograd transforms: 0 to 5 planes (up to 9 for the gradient's, so that four go side by side and some
// are left over), tile rows and columns from n (so that every remainder of four tiles a row turns up, and rows
// longer than any conv2d's), strides with gaps, floats of every kind; the outputs' gaps are compared too.
struct WinogradSizes {
  size_t planes, th, tw;
  static WinogradSizes draw(kt::Rng& r, size_t n, size_t max_planes) {
    const size_t tiles = n <= 200 ? n : n % 200;
    const size_t tw = tiles % 23 + (r.chance(0.3) ? 0 : r.below(3)), th = 1 + r.below(tiles / std::max<size_t>(tw, 1) % 6 + 1);
    return {static_cast<size_t>(r.below(max_planes + 1)), th, tw};
  }
};

kt::Call<F32WinogradInputFn> draw_f32_winograd_input(kt::Rng& r, size_t n) {
  const WinogradSizes z = WinogradSizes::draw(r, n, 5);
  const size_t planes = z.planes, th = z.th, tw = z.tw;
  const size_t row_stride = 2 * tw + 4 + r.below(5), plane_stride = (2 * th + 2) * row_stride + r.below(9);
  const size_t out_plane = th * tw + r.below(5), xi_stride = planes * out_plane + r.below(5);
  auto in = std::make_shared<std::vector<float>>(kt::draw_floats(r, planes * plane_stride + 1, kt::FloatMix::draw(r)));
  char shape[160];
  std::snprintf(shape, sizeof shape, "planes=%zu th=%zu tw=%zu row_stride=%zu plane_stride=%zu out_plane=%zu xi_stride=%zu", planes,
                th, tw, row_stride, plane_stride, out_plane, xi_stride);
  return {shape, [=](F32WinogradInputFn* fn) {
            std::vector<float> out(16 * xi_stride + 1, 1234.5f);
            fn({in->data(), planes, plane_stride, row_stride, th, tw, out.data(), xi_stride, out_plane});
            return kt::Outputs{{"out", words_nan_as_one(out)}};
          }};
}

kt::Call<F32WinogradOutputFn> draw_f32_winograd_output(kt::Rng& r, size_t n) {
  const WinogradSizes z = WinogradSizes::draw(r, n, 5);
  const size_t planes = z.planes, th = z.th, tw = z.tw;
  const size_t H = std::max<size_t>(2 * th - r.below(2), 1), W = tw ? std::max<size_t>(2 * tw - r.below(2), 1) : 0;
  const size_t m_plane = th * tw + r.below(5), xi_stride = planes * m_plane + r.below(5), y_plane = H * W + r.below(5);
  auto m = std::make_shared<std::vector<float>>(kt::draw_floats(r, 16 * xi_stride + 1, kt::FloatMix::draw(r)));
  char shape[160];
  std::snprintf(shape, sizeof shape, "planes=%zu th=%zu tw=%zu H=%zu W=%zu m_plane=%zu xi_stride=%zu y_plane=%zu", planes, th, tw,
                H, W, m_plane, xi_stride, y_plane);
  return {shape, [=](F32WinogradOutputFn* fn) {
            std::vector<float> y(planes * y_plane + 1, 1234.5f);
            fn({m->data(), planes, th, tw, xi_stride, m_plane, y.data(), y_plane, H, W});
            return kt::Outputs{{"y", words_nan_as_one(y)}};
          }};
}

kt::Call<F32WinogradGradFn> draw_f32_winograd_grad(kt::Rng& r, size_t n) {
  const WinogradSizes z = WinogradSizes::draw(r, n, 9);
  const size_t planes = z.planes, th = z.th, tw = z.tw;
  const size_t row_stride = 2 * tw + r.below(5), plane_stride = 2 * th * row_stride + r.below(9);
  const size_t tile_stride = planes + r.below(5), xi_stride = th * tw * tile_stride + r.below(5);
  auto in = std::make_shared<std::vector<float>>(kt::draw_floats(r, planes * plane_stride + 1, kt::FloatMix::draw(r)));
  char shape[160];
  std::snprintf(shape, sizeof shape, "planes=%zu th=%zu tw=%zu row_stride=%zu plane_stride=%zu tile_stride=%zu xi_stride=%zu", planes,
                th, tw, row_stride, plane_stride, tile_stride, xi_stride);
  return {shape, [=](F32WinogradGradFn* fn) {
            std::vector<float> out(16 * xi_stride + 1, 1234.5f);
            fn({in->data(), planes, plane_stride, row_stride, th, tw, out.data(), xi_stride, tile_stride});
            return kt::Outputs{{"out", words_nan_as_one(out)}};
          }};
}

// The table: one row per kernel of the room.
std::vector<kt::KernelUnderTest> kernels_under_test() {
  return {
      kt::under_test(f32_aminmax, draw_aminmax),
      kt::under_test(f32_histc_aminmax, draw_histc_aminmax),
      kt::under_test(i16_gemm, draw_i16_gemm),
      kt::under_test(i16_gemm_offsets, draw_i16_gemm_offsets),
      kt::under_test(i16_winograd_input, draw_i16_winograd_input),
      kt::under_test(i32_winograd_output, draw_i32_winograd_output),
      kt::under_test(i16_pack_pairs, draw_i16_pack_pairs),
      kt::under_test(i32_requantize, draw_i32_requantize),
      kt::under_test(q8_add, draw_q8_add),
      kt::under_test(q8_max, draw_q8_max),
      kt::under_test(q8_sum, draw_q8_sum),
      kt::under_test(q8_widen_pairs, draw_q8_widen_pairs),
      // float kernels for training and the float graph
      kt::under_test(f32_gemm, draw_gemm),
      kt::under_test(f32_max_pool2d, draw_max_pool2d),
      kt::under_test(f32_fake_quant, draw_fake_quant),
      kt::under_test(f32_affine_fma, draw_affine_fma),
      kt::under_test(f64_chain_sums, draw_chain_sums),
      kt::under_test(f32_winograd_input, draw_f32_winograd_input),
      kt::under_test(f32_winograd_output, draw_f32_winograd_output),
      kt::under_test(f32_winograd_grad, draw_f32_winograd_grad),
  };
}

}  // namespace
