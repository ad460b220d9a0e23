// fake_quantize.cpp — FakeQuantize, FusedMovingAvgObsFakeQuantize and fbgemm's
// ChooseQuantizationParams (see fake_quantize.h; docs/algorithms.md).
#include "quant/fake_quantize.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pt {

namespace {

constexpr float kSmallScaleThreshold = 6.1e-5f;  // fp16's smallest normal, FBGEMM's scale floor

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

FakeQuantize::FakeQuantize(const ObserverArgs& args)
    : FakeQuantize(wrapped_observer(args, std::nullopt, "FakeQuantize"), DType::UInt8) {}

std::unique_ptr<ObserverBase> FakeQuantize::wrapped_observer(const ObserverArgs& args,
                                                             std::optional<QRange> default_range, const char* cls) {
  ObserverArgs obs = args;
  obs.observer.reset();
  // quant_min / quant_max are FakeQuantize's own keywords: None unless given (or the class default).
  std::optional<int64_t> qmin = args.quant_min, qmax = args.quant_max;
  if (default_range && !args.is_none("quant_min")) qmin = qmin.value_or(default_range->quant_min);
  if (default_range && !args.is_none("quant_max")) qmax = qmax.value_or(default_range->quant_max);
  obs.quant_min.reset();
  obs.quant_max.reset();
  std::erase_if(obs.none, [](const std::string& k) { return k == "quant_min" || k == "quant_max"; });
  if (qmin && qmax) {
    if (*qmin > *qmax)
      throw ValueError("quant_min must be less than or equal to quant_max, got quant_min=" + std::to_string(*qmin) +
                       ", quant_max=" + std::to_string(*qmax));
    const DType dtype = obs.dtype.value_or(DType::UInt8);
    const QRange b = dtype_bounds(dtype);
    if (*qmin < b.quant_min)
      throw ValueError("quant_min out of bound: " + std::to_string(*qmin) + " < " + std::to_string(b.quant_min) +
                       " for dtype " + dtype_name(dtype));
    if (*qmax > b.quant_max)
      throw ValueError("quant_max out of bound: " + std::to_string(*qmax) + " > " + std::to_string(b.quant_max) +
                       " for dtype " + dtype_name(dtype));
    obs.quant_min = qmin;
    obs.quant_max = qmax;
  }
  obs.is_dynamic = args.is_dynamic.value_or(false);
  const std::string name = args.observer.value_or("MovingAverageMinMaxObserver");
  std::unique_ptr<ObserverBase> apm = make_observer(name, obs);
  if (apm->is_fake_quantize())
    throw ValueError(std::string(cls) + ": observer must be an observer class, got " + name);
  return apm;
}

FakeQuantize::FakeQuantize(std::unique_ptr<ObserverBase> apm, DType flag_dtype) : FakeQuantizeBase(apm->config()) {
  if (config_.is_none("qscheme") || !(pt::is_per_channel(config_.qscheme) || is_per_tensor(config_.qscheme)))
    throw ValueError(std::string("Only per channel and per tensor quantization are supported in fake quantize got "
                                 "qscheme: ") + (config_.is_none("qscheme") ? "None" : qscheme_name(config_.qscheme)));
  activation_post_process_ = std::move(apm);
  fake_quant_enabled_ = make_flag(flag_dtype);
  observer_enabled_ = make_flag(flag_dtype);
  scale_ = Tensor::full({1}, 1.0f);
  // per_channel_affine_float_qparams: the zero point is a float (torchao _is_float_qparams).
  zero_point_ = Tensor::zeros({1}, config_.qscheme == QScheme::per_channel_affine_float_qparams ? DType::Float32
                                                                                                  : DType::Int32);
}

FakeQuantOutput FakeQuantize::fake_quantize(const Tensor& x) const {
  const std::optional<QRange> r = config_.quant_range();
  if (!r)
    throw TypeError(std::string(type_name()) + ".forward: the observer's quant_min / quant_max is None "
                    "(torch.fake_quantize_per_tensor_affine takes ints)");
  if (is_per_channel())
    return fake_quantize_per_channel_affine_cachemask(x, scale_, zero_point_, config_.ch_axis, r->quant_min,
                                                      r->quant_max);
  return fake_quantize_per_tensor_affine_cachemask(x, scale_.data<float>()[0], zero_point_.data<int32_t>()[0],
                                                   r->quant_min, r->quant_max);
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

// ---- FixedQParamsFakeQuantize -------------------------------------------------------------------------

namespace {
// FakeQuantize(observer=FixedQParamsObserver.with_args(...)): the observer's own keywords reach it as given
// (FakeQuantize adds is_dynamic=False, which overrides the observer's).
std::unique_ptr<ObserverBase> fixed_qparams_observer(const ObserverArgs& args) {
  ObserverArgs obs = args;
  obs.observer.reset();
  obs.is_dynamic = false;
  std::erase(obs.none, std::string("is_dynamic"));
  const std::string name = args.observer.value_or("FixedQParamsObserver");
  std::unique_ptr<ObserverBase> apm = make_observer(name, obs);
  if (name != "FixedQParamsObserver")
    throw ValueError("FixedQParamsFakeQuantize's observer must be a FixedQParamsObserver, got " + name);
  return apm;
}
}  // namespace

FixedQParamsFakeQuantize::FixedQParamsFakeQuantize(const ObserverArgs& args)
    : FakeQuantize(fixed_qparams_observer(args), DType::UInt8) {
  if (!is_per_tensor(config_.qscheme))
    throw ValueError(std::string("Only per tensor quantization is supported FixedQParamsFakeQuantize module, got "
                                 "qscheme:") + qscheme_name(config_.qscheme));
  const QParams fixed = activation_post_process_->calculate_qparams();  // the observer's buffers themselves
  scale_ = fixed.scale;
  zero_point_ = fixed.zero_point;
}

// ---- FusedMovingAvgObsFakeQuantize ------------------------------------------------------------------

FusedMovingAvgObsFakeQuantize::FusedMovingAvgObsFakeQuantize(const ObserverArgs& args)
    : FakeQuantize(wrapped_observer(args, QRange{0, 255}, "FusedMovingAvgObsFakeQuantize"), DType::Int32) {
  const std::string name = activation_post_process_->type_name();
  if (name != "MovingAverageMinMaxObserver" && name != "MovingAveragePerChannelMinMaxObserver")
    throw ValueError("Fused observer+fake_quant module only works with MovingAverageMinMaxObserver, got " + name);
}

FakeQuantOutput FusedMovingAvgObsFakeQuantize::forward_cachemask(const Tensor& x) {
  if (x.dtype() != DType::Float32)
    throw TypeError(std::string("fused_moving_avg_obs_fake_quant: expected a float32 input, got ") + dtype_name(x.dtype()));
  if (x.numel() == 0) return pass_through(x.clone());  // ATen: an empty input comes back as a copy, nothing observed
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

// ---- ChooseQuantizationParams (FBGEMM src/QuantUtils.cc) ------------------------------------------------

TensorQuantizationParams choose_quantization_params(float min, float max, int32_t qmin, int32_t qmax,
                                                    bool preserve_sparsity) {
  // ATen checks these before its fallback; FBGEMM's x86 path has no check (docs/algorithms.md).
  if (!(min <= max))
    throw RuntimeError("In ChooseQuantizationParams, min should be less than or equal to max, got min " +
                       num_str(min) + ", max " + num_str(max));
  if (!(qmin < qmax))
    throw RuntimeError("In ChooseQuantizationParams, qmin should be less than qmax, got qmin " +
                       std::to_string(qmin) + ", qmax " + std::to_string(qmax));
  if (min < 0 && max > 0 && preserve_sparsity) {
    const int64_t half = (int64_t{qmax} - qmin) / 2;  // in int64_t: qmax - qmin overflows int32_t for extreme ranges
    const auto sym_qmin = static_cast<int32_t>(-(half + 1));
    const auto sym_qmax = static_cast<int32_t>(half);
    const double max_scale = std::max(std::fabs(min / static_cast<float>(sym_qmin)),
                                      std::fabs(max / static_cast<float>(sym_qmax)));
    min = static_cast<float>(max_scale * sym_qmin);
    max = static_cast<float>(max_scale * sym_qmax);
  }
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  // The range divided in double, the scale kept as the float32 the kernel will use.
  float scale = static_cast<float>((static_cast<double>(max) - min) / (static_cast<double>(qmax) - qmin));
  if (scale == 0.0f || std::isinf(1.0f / scale)) scale = 0.1f;
  if (scale < kSmallScaleThreshold) {
    const float org_scale = scale;
    scale = kSmallScaleThreshold;
    if (min == 0.0f) {
      max = kSmallScaleThreshold * static_cast<float>(static_cast<double>(qmax) - qmin);
    } else if (max == 0.0f) {
      min = -kSmallScaleThreshold * static_cast<float>(static_cast<double>(qmax) - qmin);
    } else {
      const float amplifier = kSmallScaleThreshold / org_scale;
      min *= amplifier;
      max *= amplifier;
    }
  }
  // The zero point from the end whose terms are smaller: |q| + |m / scale| (the rounding error grows with it).
  const double s = scale;
  const double zp_from_min = qmin - min / s;
  const double zp_from_max = qmax - max / s;
  const double zp_from_min_error = std::abs(static_cast<double>(qmin)) + std::abs(min / s);
  const double zp_from_max_error = std::abs(static_cast<double>(qmax)) + std::abs(max / s);
  double initial_zp = zp_from_min_error < zp_from_max_error ? zp_from_min : zp_from_max;
  if (min < 0 && max > 0 && preserve_sparsity) initial_zp = (static_cast<double>(qmin) + qmax) / 2;
  int32_t zp;
  if (initial_zp < qmin)
    zp = qmin;
  else if (initial_zp > qmax)
    zp = qmax;
  else if (std::isnan(initial_zp))  // torch's int32 nearbyint of a NaN on x86 (undefined in C++)
    zp = std::numeric_limits<int32_t>::min();
  else
    zp = static_cast<int32_t>(std::nearbyint(initial_zp));
  return {scale, zp};
}

}  // namespace pt
