// test_seed_m02_1.cpp — replays seed notebook M02-1 ("Observer zoo"; the seed pages: docs/status.md)
// with the engine: the same generator stream after manual_seed(0), the same observers, the
// notebook's own qdq and SQNR, and every printed number compared as the string Python printed
// (same format precision), plus the notebook's asserts.
//
// Stream order: A randn(20000); B randn(100000), relu(randn(100000)), StudentT(3).sample((100000,));
// C 20 × randn(1000) (×10 at i == 3); D randn(4,3,3,3); E randn(1000).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/distributions.h"
#include "core/generator.h"
#include "quant/histogram_observer.h"
#include "quant/observer.h"
#include "quant/quantize.h"

namespace {

constexpr int64_t QMIN = -128, QMAX = 127;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// "[lo, hi]" with two decimals, as the notebook's f"[{lo:.2f}, {hi:.2f}]".
std::string range_str(double lo, double hi) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.2f, %.2f]", lo, hi);
  return buf;
}

pt::ObserverArgs int8_args(pt::QScheme qscheme, int64_t qmin = QMIN, int64_t qmax = QMAX) {
  pt::ObserverArgs a;
  a.dtype = pt::DType::Int8;
  a.qscheme = qscheme;
  a.quant_min = qmin;
  a.quant_max = qmax;
  return a;
}

// The notebook's minmax(symmetric): an int8 MinMaxObserver's arguments.
pt::ObserverArgs minmax(bool symmetric = false) {
  return int8_args(symmetric ? pt::QScheme::per_tensor_symmetric : pt::QScheme::per_tensor_affine);
}

// The notebook's qdq with a per-element scale / zero point (float32 tensor arithmetic):
// q = round(x / s) + zp, then (clamp(q, qmin, qmax) - zp) * s.
float qdq1(float x, float s, float zp, float qmin, float qmax) {
  const float q = std::nearbyint(x / s) + zp;
  return (std::min(std::max(q, qmin), qmax) - zp) * s;
}

pt::Tensor qdq(const pt::Tensor& x, float s, int64_t zp, int64_t qmin = QMIN, int64_t qmax = QMAX) {
  pt::Tensor y = x.clone();
  for (float& v : y.span<float>())
    v = qdq1(v, s, static_cast<float>(zp), static_cast<float>(qmin), static_cast<float>(qmax));
  return y;
}

// Per-channel qdq: scale / zero point broadcast along `axis` of a [4,3,3,3] weight.
pt::Tensor qdq_per_channel(const pt::Tensor& w, const pt::QParams& qp, int64_t axis, int64_t qmin, int64_t qmax) {
  pt::Tensor y = w.clone();
  const pt::ChannelLayout layout = pt::channel_layout(w.shape(), axis, "qdq");
  const float* s = qp.scale.data<float>();
  const pt::Tensor zp = qp.zero_point.to(pt::DType::Int32);
  float* p = y.data<float>();
  for (int64_t i = 0; i < y.numel(); ++i) {
    const int64_t c = (i / layout.inner) % layout.channels;
    p[i] = qdq1(p[i], s[c], static_cast<float>(zp.data<int32_t>()[c]), static_cast<float>(qmin),
                static_cast<float>(qmax));
  }
  return y;
}

float scale_of(const pt::QParams& qp) { return qp.scale.data<float>()[0]; }
int64_t zp_of(const pt::QParams& qp) { return qp.zero_point.to(pt::DType::Int32).data<int32_t>()[0]; }

}  // namespace

TEST_CASE("seed M02-1: every printed number and assert of the observer zoo notebook") {
  pt::Generator gen(0);

  {  // A
    INFO("A. symmetric vs affine");
    const pt::Tensor x = pt::randn({20000}, gen);
    pt::MinMaxObserver aff(minmax()), sym(minmax(true));
    aff.forward(x);
    sym.forward(x);
    const pt::QParams qa = aff.calculate_qparams(), qs = sym.calculate_qparams();
    const float mn = aff.min_val().item(), mx = aff.max_val().item();
    const float s_sym_hand = std::max(-mn, mx) / static_cast<float>((QMAX - QMIN) / 2.0);
    CHECK(fmt("%.6f", scale_of(qa)) == "0.033117");
    CHECK(zp_of(qa) == 3);
    CHECK(fmt("%.6f", scale_of(qs)) == "0.034065");
    CHECK(zp_of(qs) == 0);
    CHECK(fmt("%.6f", s_sym_hand) == "0.034065");
    // assert int(z_sym) == 0 and torch.allclose(s_sym, s_sym_hand); assert s_sym > s_aff
    CHECK(std::fabs(scale_of(qs) - s_sym_hand) <= 1e-8f + 1e-5f * std::fabs(s_sym_hand));
    CHECK(scale_of(qs) > scale_of(qa));
  }

  std::map<std::pair<std::string, std::string>, float> result;     // SQNR, a float32 tensor in Python
  std::map<std::pair<std::string, std::string>, double> hi_bound;  // (QMAX - z) * s, a Python float
  const std::vector<std::string> data_names = {"gaussian", "relu(gaussian)", "heavy tail t(3)"};
  {  // B
    INFO("B. data distribution x observer");
    std::vector<pt::Tensor> data;
    data.push_back(pt::randn({100000}, gen));
    pt::Tensor r = pt::randn({100000}, gen);
    for (float& v : r.span<float>()) v = std::max(v, 0.0f);
    data.push_back(r);
    data.push_back(pt::student_t(3.0, {100000}, gen));

    const char* want[9][5] = {
        {"0.0346", "-5", "[-4.25, 4.57]", "40.01"},   {"0.0358", "0", "[-4.58, 4.54]", "39.69"},
        {"0.0332", "0", "[-4.25, 4.22]", "40.30"},    {"0.0183", "-128", "[0.00, 4.66]", "45.56"},
        {"0.0365", "0", "[-4.68, 4.64]", "39.54"},    {"0.0150", "-128", "[0.00, 3.83]", "44.39"},
        {"0.3740", "-8", "[-44.88, 50.49]", "23.83"}, {"0.3973", "0", "[-50.85, 50.46]", "23.29"},
        {"0.3189", "12", "[-44.64, 36.67]", "24.32"}};
    const std::vector<std::string> observer_names = {"MinMax affine", "MinMax symmetric", "Histogram affine"};
    int row = 0;
    for (size_t d = 0; d < data.size(); ++d) {
      for (const std::string& oname : observer_names) {
        INFO(data_names[d] << " / " << oname);
        std::unique_ptr<pt::ObserverBase> obs;
        if (oname == "MinMax affine") obs = std::make_unique<pt::MinMaxObserver>(minmax());
        else if (oname == "MinMax symmetric") obs = std::make_unique<pt::MinMaxObserver>(minmax(true));
        else obs = std::make_unique<pt::HistogramObserver>(int8_args(pt::QScheme::per_tensor_affine));
        obs->forward(data[d]);
        const pt::QParams qp = obs->calculate_qparams();
        const double s = scale_of(qp);  // float(v): Python float of the float32 scale
        const int64_t z = zp_of(qp);
        const float db = pt::sqnr(data[d], qdq(data[d], static_cast<float>(s), z));
        result[{data_names[d], oname}] = db;
        hi_bound[{data_names[d], oname}] = (QMAX - z) * s;
        CHECK(fmt("%.4f", s) == want[row][0]);
        CHECK(std::to_string(z) == want[row][1]);
        CHECK(range_str((QMIN - z) * s, (QMAX - z) * s) == want[row][2]);
        CHECK(fmt("%.2f", db) == want[row][3]);
        ++row;
      }
    }
    const float relu_gap = result[{"relu(gaussian)", "MinMax affine"}] - result[{"relu(gaussian)", "MinMax symmetric"}];
    CHECK(fmt("%.2f", relu_gap) == "6.02");
    CHECK((5 < relu_gap && relu_gap < 7));
    bool shrunk = true;
    std::vector<std::string> better;
    for (const std::string& d : data_names) {
      shrunk = shrunk && hi_bound[{d, "Histogram affine"}] < hi_bound[{d, "MinMax affine"}];
      if (result[{d, "Histogram affine"}] > result[{d, "MinMax affine"}]) better.push_back(d);
    }
    CHECK(shrunk);
    CHECK(better == std::vector<std::string>{"gaussian", "heavy tail t(3)"});
  }

  {  // C
    INFO("C. MinMax vs MovingAverage with a spike");
    pt::MinMaxObserver mm(minmax());
    pt::ObserverArgs ma_args = int8_args(pt::QScheme::per_tensor_affine);
    ma_args.averaging_constant = 0.1;
    pt::MovingAverageMinMaxObserver ma(ma_args);
    const float c = static_cast<float>(0.1);
    bool have_hand = false;
    float hand_min = 0.0f;
    std::vector<float> mm_hist;
    std::vector<std::string> rows;
    for (int i = 0; i < 20; ++i) {
      const float amp = i == 3 ? 10.0f : 1.0f;
      pt::Tensor batch = pt::randn({1000}, gen);
      for (float& v : batch.span<float>()) v *= amp;
      mm.forward(batch);
      ma.forward(batch);
      float b_min = batch.span<float>()[0];
      for (float v : batch.span<float>()) b_min = std::min(b_min, v);
      hand_min = have_hand ? hand_min + c * (b_min - hand_min) : b_min;  // formula (2)
      have_hand = true;
      mm_hist.push_back(mm.min_val().item());
      if (i == 0 || i == 2 || i == 3 || i == 4 || i == 10 || i == 19)
        rows.push_back(std::to_string(i) + " " + fmt("%.0f", amp) + "x " +
                       range_str(mm.min_val().item(), mm.max_val().item()) + " " +
                       range_str(ma.min_val().item(), ma.max_val().item()));
    }
    CHECK(rows == std::vector<std::string>{"0 1x [-3.00, 3.22] [-3.00, 3.22]", "2 1x [-3.25, 3.41] [-3.02, 3.21]",
                                           "3 10x [-29.90, 35.58] [-5.70, 6.45]", "4 1x [-29.90, 35.58] [-5.45, 6.10]",
                                           "10 1x [-29.90, 35.58] [-4.47, 4.73]", "19 1x [-29.90, 35.58] [-3.77, 3.79]"});
    // assert torch.allclose(ma.min_val, hand_min); assert mm_hist[3:] == [mm_hist[3]] * 17
    CHECK(std::fabs(ma.min_val().item() - hand_min) <= 1e-8f + 1e-5f * std::fabs(hand_min));
    CHECK(std::vector<float>(mm_hist.begin() + 3, mm_hist.end()) == std::vector<float>(17, mm_hist[3]));
  }

  {  // D
    INFO("D. per-channel");
    pt::Tensor conv_w = pt::randn({4, 3, 3, 3}, gen);
    for (int64_t i = 0; i < 27; ++i) conv_w.data<float>()[i] *= 5.0f;  // conv_w[0] *= 5.0
    std::vector<std::string> rows;
    float per_axis[2];
    for (int64_t axis : {0, 1}) {
      pt::ObserverArgs a = int8_args(pt::QScheme::per_channel_symmetric, -127, 127);
      a.ch_axis = axis;
      pt::PerChannelMinMaxObserver obs(a);
      obs.forward(conv_w);
      const pt::QParams qp = obs.calculate_qparams();
      per_axis[axis] = pt::sqnr(conv_w, qdq_per_channel(conv_w, qp, axis, -127, 127));
      rows.push_back(std::to_string(axis) + " (" + std::to_string(qp.scale.numel()) + ",) " + fmt("%.2f", per_axis[axis]));
    }
    CHECK(rows == std::vector<std::string>{"0 (4,) 46.16", "1 (3,) 42.11"});
    CHECK(per_axis[0] > per_axis[1]);  // assert per_axis[0] > per_axis[1]
  }

  {  // E
    INFO("E. MinMaxObserver vs PlaceholderObserver");
    const pt::Tensor y = pt::randn({1000}, gen);
    pt::MinMaxObserver mm_obs(minmax());
    pt::ObserverArgs pa;
    pa.dtype = pt::DType::Float32;
    pt::PlaceholderObserver ph(pa);
    auto qparams_or_error = [](const pt::ObserverBase& obs) -> std::string {
      try {
        const pt::QParams qp = obs.calculate_qparams();
        return "scale=" + fmt("%.4f", scale_of(qp)) + ", zp=" + std::to_string(zp_of(qp));
      } catch (const pt::Error& e) {
        return std::string("報錯：") + e.what();
      }
    };
    auto buffer_names = [](const pt::ObserverBase& obs) {
      std::string s;
      for (const pt::NamedBuffer& b : obs.named_buffers()) {
        if (!s.empty()) s += ", ";
        s += b.first;
      }
      return s.empty() ? std::string("（沒有）") : s;
    };
    std::vector<std::vector<std::string>> rows;
    for (pt::ObserverBase* obs : std::vector<pt::ObserverBase*>{&mm_obs, &ph}) {
      const pt::Tensor out = obs->forward(y);
      bool equal = out.shape() == y.shape();
      for (int64_t i = 0; equal && i < y.numel(); ++i) equal = out.data<float>()[i] == y.data<float>()[i];
      rows.push_back({obs->type_name(), equal ? "True" : "False", buffer_names(*obs), qparams_or_error(*obs)});
    }
    CHECK(rows[0] == std::vector<std::string>{"MinMaxObserver", "True", "eps, min_val, max_val", "scale=0.0245, zp=6"});
    CHECK(rows[1] == std::vector<std::string>{"PlaceholderObserver", "True", "（沒有）",
                                              "報錯：calculate_qparams should not be called for PlaceholderObserver"});
    CHECK((rows[0][1] == "True" && rows[1][1] == "True"));                     // assert all(r[1] for r in rows)
    CHECK((rows[1][2] == "（沒有）" && rows[1][3].rfind("報錯", 0) == 0));  // Placeholder records nothing
  }
}
