// test_int8_conv_exact.cpp — int8.conv2d (engine/lower/int8_ops.cpp) against a direct integer convolution, bit for
// bit: every output is Σ (x − zp)·w over its window (the padding contributing nothing), plus the channel's int32
// bias, through Requantization::apply (kernels.h, the scalar step every i32_requantize variant reproduces). Integer
// sums are exact, so however the op lays out its GEMM (im2col panels, channel pairs, padded-width columns), its
// codes must equal these — with the weight packed in the layout lowering picks (conv_weight_layout) and in the
// other one (im2col reading channel pairs, or stride 1 over taps). Drawn: batch, groups (depthwise too), channels per group odd and even, kernel 1…5, stride
// 1…3, padding 0…2, widths around the 8-column panels, int8 / uint8 inputs, every RequantKind, int16 and float32 outputs.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>

#include "graph/graph.h"
#include "graph/interpreter.h"
#include "graph/targets.h"
#include "lower/int8_ops.h"

using namespace pt;
namespace kn = pt::kernels;

namespace {

struct Rng {  // splitmix64
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t in(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1)); }
  template <class T> const T& pick(std::initializer_list<T> v) { return v.begin()[next() % v.size()]; }
};

struct Case {
  int64_t N, C, H, W, O, groups, KH, KW, sh, sw, ph, pw;
  Int8Params p;
  std::string str() const {  // snprintf: GCC 12 warns falsely (-Wrestrict) on a chain of string +
    char buf[200];
    std::snprintf(buf, sizeof buf, "N%lld C%lld %lldx%lld O%lld g%lld k%lldx%lld s%lldx%lld p%lldx%lld requant %d out_bits %d in_signed %d",
                  static_cast<long long>(N), static_cast<long long>(C), static_cast<long long>(H), static_cast<long long>(W),
                  static_cast<long long>(O), static_cast<long long>(groups), static_cast<long long>(KH),
                  static_cast<long long>(KW), static_cast<long long>(sh), static_cast<long long>(sw),
                  static_cast<long long>(ph), static_cast<long long>(pw), p.requant, p.out_bits, p.in_signed);
    return buf;
  }
};

Case draw(Rng& r) {
  Case c{};
  c.groups = r.pick<int64_t>({1, 1, 1, 2, 3});
  const int64_t Cg = r.pick<int64_t>({1, 2, 3, 4, 5, 6, 8, 9, 16});
  const bool depthwise = r.next() % 6 == 0;
  c.C = depthwise ? r.in(1, 12) : Cg * c.groups;
  if (depthwise) c.groups = c.C;
  c.O = c.groups * r.in(1, 9);
  c.N = r.in(1, 2);
  c.KH = r.pick<int64_t>({1, 2, 3, 3, 3, 5});
  c.KW = r.next() % 4 ? c.KH : r.pick<int64_t>({1, 2, 3, 5});
  c.sh = r.pick<int64_t>({1, 1, 1, 2, 3});
  c.sw = r.next() % 4 ? c.sh : r.pick<int64_t>({1, 2});
  c.ph = r.in(0, 2), c.pw = r.next() % 4 ? c.ph : r.in(0, 2);
  do {
    c.H = r.in(1, 20), c.W = r.pick<int64_t>({1, 3, 7, 8, 9, 15, 16, 17, 24, 31, 33});
  } while (c.H + 2 * c.ph < c.KH || c.W + 2 * c.pw < c.KW);
  Int8Params& p = c.p;
  p.stride_h = static_cast<int32_t>(c.sh), p.stride_w = static_cast<int32_t>(c.sw);
  p.pad_h = static_cast<int32_t>(c.ph), p.pad_w = static_cast<int32_t>(c.pw);
  p.kernel_h = static_cast<int32_t>(c.KH), p.kernel_w = static_cast<int32_t>(c.KW), p.groups = static_cast<int32_t>(c.groups);
  p.in_signed = static_cast<int32_t>(r.next() % 2);
  p.in_zero_point = static_cast<int32_t>(p.in_signed ? r.in(-128, 127) : r.in(0, 255));
  p.requant = static_cast<int32_t>(r.in(0, 4));
  const auto kind = static_cast<kn::RequantKind>(p.requant);
  p.out_bits = kind == kn::RequantKind::f32_output ? 32 : r.next() % 5 ? 8 : 16;
  p.out_signed = p.out_bits == 8 ? static_cast<int32_t>(r.next() % 2) : 1;
  if (p.out_bits == 16) p.out_qmin = -32768, p.out_qmax = 32767, p.out_zero_point = static_cast<int32_t>(r.in(-1000, 1000));
  else if (p.out_signed) p.out_qmin = -128, p.out_qmax = 127, p.out_zero_point = static_cast<int32_t>(r.in(-20, 20));
  else p.out_qmin = 0, p.out_qmax = 255, p.out_zero_point = static_cast<int32_t>(r.in(100, 150));
  if (r.next() % 3 == 0) p.out_qmin = p.out_zero_point;  // a fused relu
  p.relu = kind == kn::RequantKind::f32_output ? static_cast<int32_t>(r.next() % 2) : 0;
  return c;
}

// The multiplier of channel o: any value for fp32 / fixed point / the float stage, a power of two for the shifts.
float multiplier(Rng& r, kn::RequantKind kind) {
  if (kind == kn::RequantKind::shift || kind == kn::RequantKind::shift_even) return std::ldexp(1.0f, -static_cast<int>(r.in(6, 14)));
  return static_cast<float>(r.in(1, 1 << 20)) * 0x1p-32f;
}

// Runs case c (values drawn from r) in both weight layouts; returns the number of layouts checked (2).
int check_case(const Case& c, Rng& r) {
  const OpFn* conv = find_op(target::int8_conv2d);
  REQUIRE(conv);
  Graph g;
  const Node* node = g.call_function(target::int8_conv2d, {});
  int checked = 0;
  const Int8Params& p = c.p;
  const auto kind = static_cast<kn::RequantKind>(p.requant);
  const int64_t Cg = c.C / c.groups, Og = c.O / c.groups;
  const int64_t OH = (c.H + 2 * c.ph - c.KH) / c.sh + 1, OW = (c.W + 2 * c.pw - c.KW) / c.sw + 1;
  Tensor x = Tensor::empty({c.N, c.C, c.H, c.W}, p.in_dtype());
  for (int64_t i = 0; i < x.numel(); ++i) x.bytes()[i] = static_cast<std::byte>(r.next());
  Tensor w = Tensor::empty({c.O, Cg, c.KH, c.KW}, DType::Int8);
  for (int64_t i = 0; i < w.numel(); ++i) w.data<int8_t>()[i] = static_cast<int8_t>(r.in(-128, 127));
  Tensor scale = Tensor::empty({c.O});
  Tensor bias = Tensor::empty({c.O}, kind == kn::RequantKind::f32_output ? DType::Float32 : DType::Int32);
  for (int64_t o = 0; o < c.O; ++o) {
    scale.data<float>()[o] = multiplier(r, kind);
    if (kind == kn::RequantKind::f32_output) bias.data<float>()[o] = static_cast<float>(r.in(-1000, 1000)) * 0.25f;
    else bias.data<int32_t>()[o] = static_cast<int32_t>(r.in(-100000, 100000));
  }
  const WeightLayout lowered = conv_weight_layout(p, Cg);
  for (const WeightLayout layout : {lowered, lowered == WeightLayout::taps ? WeightLayout::channel_pairs : WeightLayout::taps}) {
    INFO("weight layout " << static_cast<int>(layout) << (layout == lowered ? " (lowering's)" : ""));
    Int8Params pl = p;
    pl.weight_layout = static_cast<int32_t>(layout);
    const std::vector<Value> values{Value(std::vector<Tensor>{x}), Value(pl.to_tensor()), Value(pack_weight(w, layout)),
                                    Value(bias), Value(scale)};
    const Tensor y = std::get<Tensor>((*conv)(OpArgs{values, *node}).v);
    REQUIRE(y.shape() == Shape{c.N, c.O, OH, OW});
    REQUIRE(y.dtype() == p.out_dtype());
    const int64_t eb = p.out_bits / 8;
    const auto code = [&](int64_t i) { return p.in_signed ? int32_t{x.data<int8_t>()[i]} : int32_t{x.data<uint8_t>()[i]}; };
    int64_t differ = 0, first = -1;
    for (int64_t n = 0; n < c.N; ++n)
      for (int64_t o = 0; o < c.O; ++o) {
        const OutputStage st = output_stage(p, scale, bias, o);
        const int64_t gr = o / Og;
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            uint32_t acc = 0;
            for (int64_t cg = 0; cg < Cg; ++cg)
              for (int64_t i = 0; i < c.KH; ++i)
                for (int64_t j = 0; j < c.KW; ++j) {
                  const int64_t ih = oh * c.sh - c.ph + i, iw = ow * c.sw - c.pw + j;
                  if (ih < 0 || ih >= c.H || iw < 0 || iw >= c.W) continue;
                  const int32_t xv = code(((n * c.C + gr * Cg + cg) * c.H + ih) * c.W + iw) - p.in_zero_point;
                  acc += static_cast<uint32_t>(xv * w.data<int8_t>()[((o * Cg + cg) * c.KH + i) * c.KW + j]);
                }
            const int32_t want = st.r.apply(static_cast<int32_t>(acc + static_cast<uint32_t>(st.bias)));
            const int64_t at = ((n * c.O + o) * OH + oh) * OW + ow;
            int32_t got = 0;
            std::memcpy(&got, y.bytes() + at * eb, static_cast<size_t>(eb));
            if (eb == 1) got = p.out_signed ? int32_t{static_cast<int8_t>(got)} : int32_t{static_cast<uint8_t>(got)};
            if (eb == 2) got = static_cast<int16_t>(got);
            if (got != want && differ++ == 0) first = at;
          }
      }
    INFO("first differing output " << first);
    CHECK(differ == 0);
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("int8.conv2d equals a direct integer convolution bit for bit", "[lower][int8]") {
  Rng r{0x5eedc0de2026ull};
  int checked = 0;
  for (int t = 0; t < 400; ++t) {
    const Case c = draw(r);
    INFO("case " << t << ": " << c.str());
    checked += check_case(c, r);
  }
  CHECK(checked == 800);
}

// Integer Winograd's shapes (conv_takes_winograd): 3×3 at stride 1 over 16 … 40 channels a group (odd ones: a last
// pair half zero), 256 … 2000 outputs a plane, odd and even output sizes (a last tile half outside), widths of 8 … 50
// (panels of 8 tiles partly used, several a tile row) over several blocks, zero points at the ends of the code's
// range (the largest |code − zero point|), every requantization and output. Then the shapes and zero points the
// GEMM paths keep.
TEST_CASE("int8.conv2d through integer Winograd equals a direct integer convolution bit for bit", "[lower][int8]") {
  Rng r{0x3a3a3a2026ull};
  int checked = 0;
  for (int t = 0; t < 80; ++t) {
    Case c = draw(r);
    c.N = 1, c.groups = r.pick<int64_t>({1, 1, 1, 2});
    c.C = c.groups * r.pick<int64_t>({16, 17, 24, 25, 32, 40});
    c.O = c.groups * r.in(1, 9);
    c.KH = c.KW = 3, c.sh = c.sw = 1;
    c.ph = r.in(0, 2), c.pw = r.next() % 4 ? c.ph : r.in(0, 2);
    do {
      c.H = r.in(6, 40), c.W = r.in(6, 50);
      const int64_t outputs = (c.H + 2 * c.ph - 2) * (c.W + 2 * c.pw - 2);
      if (outputs >= 256 && outputs <= 2000 && c.C / c.groups * outputs >= 6144) break;
    } while (true);
    Int8Params& p = c.p;
    p.kernel_h = p.kernel_w = 3, p.stride_h = p.stride_w = 1, p.groups = static_cast<int32_t>(c.groups);
    p.pad_h = static_cast<int32_t>(c.ph), p.pad_w = static_cast<int32_t>(c.pw);
    if (r.next() % 3 == 0) p.in_zero_point = p.in_signed ? r.pick<int32_t>({-128, 127}) : r.pick<int32_t>({0, 255});
    INFO("case " << t << ": " << c.str());
    const int64_t OH = c.H + 2 * c.ph - 2, OW = c.W + 2 * c.pw - 2;
    REQUIRE(conv_takes_winograd(p, c.C / c.groups, OH, OW));
    checked += check_case(c, r);
  }
  CHECK(checked == 160);
  Int8Params p;
  p.kernel_h = p.kernel_w = 3;
  CHECK(conv_takes_winograd(p, 16, 32, 32));
  CHECK_FALSE(conv_takes_winograd(p, 15, 32, 32));  // too few channels
  CHECK_FALSE(conv_takes_winograd(p, 64, 8, 8));    // too few outputs
  CHECK_FALSE(conv_takes_winograd(p, 16, 16, 16));  // too little work
  p.in_zero_point = -128;                               // codes minus it up to 255
  CHECK(conv_takes_winograd(p, 1800, 32, 32));
  CHECK_FALSE(conv_takes_winograd(p, 1900, 32, 32));  // Cg·9·128·255 ≥ 2^29: 4·Y could leave int32
  p.in_zero_point = 9000;                               // 4·|code − zero point| past int16
  CHECK_FALSE(conv_takes_winograd(p, 32, 32, 32));
  p.in_zero_point = 0, p.stride_w = 2;
  CHECK_FALSE(conv_takes_winograd(p, 32, 32, 32));
}

TEST_CASE("WeightPacking: each layout puts every tap in its own place, pack_weight puts the weight there", "[lower][int8]") {
  Rng r{0x9ac4ull};
  for (const int64_t Cg : {1, 2, 3, 8, 9, 16}) {
    for (const int64_t T : {1, 2, 9, 25}) {
      for (const WeightLayout layout : {WeightLayout::taps, WeightLayout::channel_pairs}) {
        INFO("Cg " << Cg << " taps " << T << " layout " << static_cast<int>(layout));
        const WeightPacking pk{layout, Cg, T};
        const int64_t K = Cg * T;
        // taps: K rounded up to even; channel pairs: a pair per two channels and tap
        CHECK(pk.row() == (layout == WeightLayout::taps ? K + K % 2 : (Cg + 1) / 2 * 2 * T));
        std::vector<int64_t> at(static_cast<size_t>(pk.row()), -1);
        for (int64_t k = 0; k < K; ++k) {
          const int64_t m = pk.column(k);
          REQUIRE(m >= 0);
          REQUIRE(m < pk.row());
          CHECK(at[m] == -1);  // no two taps share a place
          at[m] = k;
          CHECK(pk.tap_at(m) == k);
          // channel pairs: channels 2q, 2q + 1 of one tap side by side
          if (layout == WeightLayout::channel_pairs) CHECK(m == ((k / T / 2) * T + k % T) * 2 + k / T % 2);
        }
        for (int64_t m = 0; m < pk.row(); ++m)
          if (at[m] == -1) CHECK(pk.tap_at(m) == -1);
        const int64_t KH = T == 2 ? 1 : T == 9 ? 3 : T == 25 ? 5 : 1, KW = T / KH;
        Tensor w = Tensor::empty({3, Cg, KH, KW}, DType::Int8);
        for (int64_t i = 0; i < w.numel(); ++i) w.data<int8_t>()[i] = static_cast<int8_t>(r.in(-128, 127));
        const Tensor packed = pack_weight(w, layout);
        REQUIRE(packed.shape() == Shape{3, pk.row()});
        for (int64_t o = 0; o < 3; ++o)
          for (int64_t m = 0; m < pk.row(); ++m)
            CHECK(packed.data<int16_t>()[o * pk.row() + m] == (at[m] < 0 ? 0 : w.data<int8_t>()[o * K + at[m]]));
      }
    }
  }
  CHECK_THROWS_AS(pack_weight(Tensor::zeros({4, 6}, DType::Int8), WeightLayout::channel_pairs), ValueError);
  Int8Params p;
  p.weight_layout = 2;
  CHECK_THROWS_AS(Int8Params::from(p.to_tensor()), ValueError);
}

TEST_CASE("int8.conv2d: a weight packed in one layout and params naming the other is a typed error", "[lower][int8]") {
  const OpFn* conv = find_op(target::int8_conv2d);
  REQUIRE(conv);
  Graph g;
  const Node* node = g.call_function(target::int8_conv2d, {});
  Int8Params p;
  p.kernel_h = p.kernel_w = 3, p.pad_h = p.pad_w = 1;
  const Tensor x = Tensor::zeros({1, 9, 5, 5}, DType::Int8), w = Tensor::zeros({2, 9, 3, 3}, DType::Int8);  // Cg 9: rows of 82 and 90
  const Tensor bias = Tensor::zeros({2}, DType::Int32), scale = Tensor::full({2}, 0.01f);
  for (const WeightLayout layout : {WeightLayout::taps, WeightLayout::channel_pairs}) {
    p.weight_layout = static_cast<int32_t>(layout == WeightLayout::taps ? WeightLayout::channel_pairs : WeightLayout::taps);
    const std::vector<Value> values{Value(std::vector<Tensor>{x}), Value(p.to_tensor()), Value(pack_weight(w, layout)),
                                    Value(bias), Value(scale)};
    CHECK_THROWS_AS((*conv)(OpArgs{values, *node}), RuntimeError);
  }
}
