// fake_quantize.cpp — FakeQuantize, FusedMovingAvgObsFakeQuantize and fbgemm's
// ChooseQuantizationParams (see fake_quantize.h; docs/algorithms.md).
#include "quant/fake_quantize.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pt {

namespace {

constexpr float kSmallScaleThreshold = 6.1e-5f;  // fp16's smallest normal, fbgemm's scale floor

bool flag_on(const Tensor& flag) { return flag.item() != 0.0f; }

void set_flag(Tensor& flag, bool on) {
  if (flag.dtype() == DType::UInt8)
    flag.data<uint8_t>()[0] = on ? 1 : 0;
  else
    flag.data<int32_t>()[0] = on ? 1 : 0;
}

Tensor make_flag(DType dtype) {
  Tensor t = Tensor::zeros({1}, dtype);
  set_flag(t, true);
  return t;
}

// Copies src into dst's storage when the shapes agree (torch's copy_), else replaces dst (resize_).
void assign_buffer(Tensor& dst, const Tensor& src) {
  if (dst.shape() == src.shape() && dst.dtype() == src.dtype())
    std::copy(src.bytes(), src.bytes() + src.nbytes(), dst.bytes());
  else
    dst = src.clone();
}

FakeQuantOutput pass_through(const Tensor& x) {
  Tensor mask = Tensor::zeros(x.shape(), DType::UInt8);
  std::fill_n(mask.data<uint8_t>(), mask.numel(), uint8_t{1});
  return {x, mask};
}

std::string num_str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

// ---- FakeQuantizeBase -------------------------------------------------------------------------------

void FakeQuantizeBase::enable_fake_quant(bool enabled) { set_flag(fake_quant_enabled_, enabled); }
void FakeQuantizeBase::enable_observer(bool enabled) { set_flag(observer_enabled_, enabled); }
bool FakeQuantizeBase::fake_quant_enabled() const { return flag_on(fake_quant_enabled_); }
bool FakeQuantizeBase::observer_enabled() const { return flag_on(observer_enabled_); }

// ---- FakeQuantize -----------------------------------------------------------------------------------

FakeQuantize::FakeQuantize(const ObserverArgs& args) : FakeQuantize(args, std::nullopt, DType::UInt8) {}

FakeQuantize::FakeQuantize(const ObserverArgs& args, std::optional<QRange> default_range, DType flag_dtype)
    : FakeQuantizeBase(ObserverConfig{}) {
  ObserverArgs obs = args;
  obs.observer.reset();
  if (default_range) {
    obs.quant_min = args.quant_min.value_or(default_range->quant_min);
    obs.quant_max = args.quant_max.value_or(default_range->quant_max);
  }
  if (obs.quant_min && obs.quant_max) {
    if (*obs.quant_min > *obs.quant_max)
      throw ValueError("quant_min must be less than or equal to quant_max, got quant_min=" +
                       std::to_string(*obs.quant_min) + ", quant_max=" + std::to_string(*obs.quant_max));
    const DType dtype = obs.dtype.value_or(DType::UInt8);
    const QRange b = dtype_bounds(dtype);
    if (*obs.quant_min < b.quant_min)
      throw ValueError("quant_min out of bound: " + std::to_string(*obs.quant_min) + " < " +
                       std::to_string(b.quant_min) + " for dtype " + dtype_name(dtype));
    if (*obs.quant_max > b.quant_max)
      throw ValueError("quant_max out of bound: " + std::to_string(*obs.quant_max) + " > " +
                       std::to_string(b.quant_max) + " for dtype " + dtype_name(dtype));
  }
  obs.is_dynamic = args.is_dynamic.value_or(false);
  const std::string name = args.observer.value_or("MovingAverageMinMaxObserver");
  std::unique_ptr<ObserverBase> apm = make_observer(name, obs);
  if (apm->is_fake_quantize())
    throw ValueError(std::string(type_name()) + ": observer must be an observer class, got " + name);
  if (apm->qscheme() == QScheme::per_channel_affine_float_qparams)
    throw NotImplementedError("FakeQuantize with per_channel_affine_float_qparams (float zero points) is not supported");
  config_ = apm->config();
  activation_post_process_ = std::move(apm);
  fake_quant_enabled_ = make_flag(flag_dtype);
  observer_enabled_ = make_flag(flag_dtype);
  scale_ = Tensor::full({1}, 1.0f);
  zero_point_ = Tensor::zeros({1}, DType::Int32);
}

FakeQuantOutput FakeQuantize::fake_quantize(const Tensor& x) const {
  if (is_per_channel())
    return fake_quantize_per_channel_affine_cachemask(x, scale_, zero_point_, config_.ch_axis, config_.quant_min,
                                                      config_.quant_max);
  return fake_quantize_per_tensor_affine_cachemask(x, scale_.data<float>()[0], zero_point_.data<int32_t>()[0],
                                                   config_.quant_min, config_.quant_max);
}

FakeQuantOutput FakeQuantize::forward_cachemask(const Tensor& x) {
  if (observer_enabled()) {
    activation_post_process_->forward(x);
    const QParams qp = calculate_qparams();
    assign_buffer(scale_, qp.scale);
    assign_buffer(zero_point_, qp.zero_point);
  }
  return fake_quant_enabled() ? fake_quantize(x) : pass_through(x);
}

std::vector<NamedBuffer> FakeQuantize::named_buffers() const {
  std::vector<NamedBuffer> b = {{"fake_quant_enabled", fake_quant_enabled_},
                                {"observer_enabled", observer_enabled_},
                                {"scale", scale_},
                                {"zero_point", zero_point_}};
  for (auto& [name, t] : activation_post_process_->named_buffers()) b.emplace_back("activation_post_process." + name, t);
  return b;
}

// ---- FusedMovingAvgObsFakeQuantize ------------------------------------------------------------------

FusedMovingAvgObsFakeQuantize::FusedMovingAvgObsFakeQuantize(const ObserverArgs& args)
    : FakeQuantize(args, QRange{0, 255}, DType::Int32) {
  const std::string name = activation_post_process_->type_name();
  if (name != "MovingAverageMinMaxObserver" && name != "MovingAveragePerChannelMinMaxObserver")
    throw ValueError("Fused observer+fake_quant module only works with MovingAverageMinMaxObserver, got " + name);
}

FakeQuantOutput FusedMovingAvgObsFakeQuantize::forward_cachemask(const Tensor& x) {
  if (x.dtype() != DType::Float32)
    throw TypeError(std::string("fused_moving_avg_obs_fake_quant: expected a float32 input, got ") + dtype_name(x.dtype()));
  auto& obs = static_cast<UniformQuantizationObserverBase&>(*activation_post_process_);
  const bool per_channel = is_per_channel();
  Tensor run_min = obs.min_val().clone();
  Tensor run_max = obs.max_val().clone();
  Tensor scale = scale_.clone();
  Tensor zero_point = zero_point_.clone();
  if (per_channel) {
    if (x.dim() < 1) throw IndexError("fused_moving_avg_obs_fake_quant: a per-channel input needs at least 1 dim");
    const int64_t channels = x.size(0);
    if (run_min.numel() == 0) {  // first use: running stats and qparams sized to the channels
      run_min = Tensor::full({channels}, std::numeric_limits<float>::infinity());
      run_max = Tensor::full({channels}, -std::numeric_limits<float>::infinity());
    }
    if (scale.numel() != run_min.numel()) {
      scale = Tensor::full({run_min.numel()}, 1.0f);
      zero_point = Tensor::zeros({run_min.numel()}, DType::Int32);
    }
  }
  float* rmin = run_min.data<float>();
  float* rmax = run_max.data<float>();
  if (observer_enabled()) {
    if (per_channel && config_.ch_axis != 0)
      throw RuntimeError("Per-channel FakeQuant in fused_moving_avg_obs_fake_quant is only supported on axis == 0");
    if (x.numel() == 0) throw RuntimeError("fused_moving_avg_obs_fake_quant: cannot compute aminmax of an empty input");
    Tensor cur_min, cur_max;
    if (per_channel) {
      ChannelMinMax cur = aminmax_per_channel(x, 0);
      cur_min = cur.min;
      cur_max = cur.max;
    } else {
      const MinMax cur = aminmax(x.span<float>());
      cur_min = Tensor::scalar(cur.min);
      cur_max = Tensor::scalar(cur.max);
    }
    if (cur_min.numel() != run_min.numel())
      throw RuntimeError("fused_moving_avg_obs_fake_quant: the input has " + std::to_string(cur_min.numel()) +
                         " channels but the running min/max have " + std::to_string(run_min.numel()));
    const float c = static_cast<float>(config_.averaging_constant);
    for (int64_t i = 0; i < run_min.numel(); ++i) {
      const float mn = cur_min.data<float>()[i], mx = cur_max.data<float>()[i];
      rmin[i] = std::isinf(rmin[i]) ? mn : rmin[i] + c * (mn - rmin[i]);
      rmax[i] = std::isinf(rmax[i]) ? mx : rmax[i] + c * (mx - rmax[i]);
    }
  }
  FakeQuantOutput out;
  if (fake_quant_enabled()) {
    for (int64_t i = 0; i < run_min.numel(); ++i) {
      const TensorQuantizationParams p =
          choose_quantization_params(rmin[i], rmax[i], static_cast<int32_t>(config_.quant_min),
                                     static_cast<int32_t>(config_.quant_max), is_symmetric_quant());
      scale.data<float>()[i] = p.scale;
      zero_point.data<int32_t>()[i] = p.zero_point;
    }
    out = per_channel ? fake_quantize_per_channel_affine_cachemask(x, scale, zero_point, config_.ch_axis,
                                                                   config_.quant_min, config_.quant_max)
                      : fake_quantize_per_tensor_affine_cachemask(x, scale.data<float>()[0],
                                                                  zero_point.data<int32_t>()[0], config_.quant_min,
                                                                  config_.quant_max);
  } else {
    out = pass_through(x.clone());
  }
  // Every check passed: commit the new state.
  obs.set_min_max(run_min, run_max);
  assign_buffer(scale_, scale);
  assign_buffer(zero_point_, zero_point);
  return out;
}

// ---- ChooseQuantizationParams -----------------------------------------------------------------------

TensorQuantizationParams choose_quantization_params(float min, float max, int32_t qmin, int32_t qmax,
                                                    bool preserve_sparsity) {
  if (!(min <= max))
    throw RuntimeError("In ChooseQuantizationParams, min should be less than or equal to max, got min " +
                       num_str(min) + ", max " + num_str(max));
  if (min < 0 && max > 0 && preserve_sparsity) {
    const int32_t sym_qmin = -((qmax - qmin) / 2 + 1);
    const int32_t sym_qmax = (qmax - qmin) / 2;
    const double max_scale = std::max(std::fabs(min / static_cast<float>(sym_qmin)),
                                      std::fabs(max / static_cast<float>(sym_qmax)));
    min = static_cast<float>(max_scale * sym_qmin);
    max = static_cast<float>(max_scale * sym_qmax);
  }
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  if (!(qmin < qmax))
    throw RuntimeError("In ChooseQuantizationParams, qmin should be less than qmax, got qmin " +
                       std::to_string(qmin) + ", qmax " + std::to_string(qmax));
  double scale = (static_cast<double>(max) - min) / (qmax - qmin);
  if (static_cast<float>(scale) == 0.0f || std::isinf(1.0f / static_cast<float>(scale))) scale = 0.1;
  if (scale < kSmallScaleThreshold) {
    const float org_scale = static_cast<float>(scale);
    scale = kSmallScaleThreshold;
    if (min == 0.0f) {
      max = kSmallScaleThreshold * static_cast<float>(qmax - qmin);
    } else if (max == 0.0f) {
      min = -kSmallScaleThreshold * static_cast<float>(qmax - qmin);
    } else {
      const float amplifier = kSmallScaleThreshold / org_scale;
      min *= amplifier;
      max *= amplifier;
    }
  }
  const double zp_from_min = qmin - min / scale;
  const double zp_from_max = qmax - max / scale;
  const double zp_from_min_error = std::abs(qmin) - std::abs(min / scale);
  const double zp_from_max_error = std::abs(qmax) - std::abs(max / scale);
  double initial_zp = zp_from_min_error < zp_from_max_error ? zp_from_min : zp_from_max;
  if (min < 0 && max > 0 && preserve_sparsity) initial_zp = static_cast<double>(qmin + qmax) / 2;
  int32_t zp;
  if (initial_zp < qmin)
    zp = qmin;
  else if (initial_zp > qmax)
    zp = qmax;
  else
    zp = static_cast<int32_t>(std::nearbyint(initial_zp));
  return {static_cast<float>(scale), zp};
}

}  // namespace pt
