// fake_quantize.h — fake-quantize modules for QAT: an observer plus quantize→dequantize in float
// (docs/algorithms.md, FakeQuantize). Names follow torchao's fake_quantize.py.
//
//   pt::ObserverArgs a;
//   a.dtype = pt::DType::Int8; a.quant_min = -128; a.quant_max = 127;
//   pt::FakeQuantize fq(a);                          // wraps MovingAverageMinMaxObserver by default
//   pt::Tensor y = fq.forward(x);                    // observe, update scale/zero_point, fake-quantize
//   pt::FakeQuantOutput r = fq.forward_cachemask(x); // the same plus the STE mask for backward
//   fq.disable_observer(); fq.enable_fake_quant(false);
//   pt::QParams qp = fq.calculate_qparams();         // the observer's formula (what convert bakes in)
//
// FusedMovingAvgObsFakeQuantize behaves like torch.fused_moving_avg_obs_fake_quant: the running
// min/max are the wrapped moving-average observer's buffers, but the scale used in forward comes
// from fbgemm's ChooseQuantizationParams (choose_quantization_params below), not from calculate_qparams,
// so training-time and convert-time qparams differ slightly (docs/algorithms.md). Its flag buffers are int32
// here (int64 in torch: the engine has no int64 dtype).
// An empty input is returned as a copy and changes nothing (ATen fused_moving_avg_obs_fake_quant).
// FixedQParamsFakeQuantize wraps a FixedQParamsObserver and fake-quantizes with its fixed qparams
// (prepare_qat_pt2e builds it for a FixedQParamsQuantizationSpec). A FakeQuantize whose observer uses
// per_channel_affine_float_qparams keeps a float32 zero_point.
// Every class is also built by name through make_observer("FakeQuantize", args); args.observer
// names the wrapped observer class and every other field is forwarded to it, except FakeQuantize's
// own quant_min / quant_max, which reach the observer only when both are given (torchao
// fake_quantize.py FakeQuantize.__init__).
#pragma once
#include <memory>

#include "quant/observer.h"
#include "quant/quantize.h"

namespace pt {

class FakeQuantizeBase : public ObserverBase {
 public:
  using ObserverBase::ObserverBase;
  bool is_fake_quantize() const override { return true; }
  // Output and STE mask (all ones and a copy of x when fake quant is disabled).
  virtual FakeQuantOutput forward_cachemask(const Tensor& x) = 0;
  Tensor forward(const Tensor& x) override { return forward_cachemask(x).output; }

  void enable_fake_quant(bool enabled = true);
  void disable_fake_quant() { enable_fake_quant(false); }
  void enable_observer(bool enabled = true);
  void disable_observer() { enable_observer(false); }
  bool fake_quant_enabled() const;
  bool observer_enabled() const;

 protected:
  Tensor fake_quant_enabled_;  // [1], 1 = on
  Tensor observer_enabled_;
};

class FakeQuantize : public FakeQuantizeBase {
 public:
  explicit FakeQuantize(const ObserverArgs& args = {});
  const char* type_name() const override { return "FakeQuantize"; }
  FakeQuantOutput forward_cachemask(const Tensor& x) override;
  QParams calculate_qparams() const override { return activation_post_process_->calculate_qparams(); }
  // fake_quant_enabled, observer_enabled, scale, zero_point, activation_post_process.<its buffers>
  std::vector<NamedBuffer> named_buffers() const override;

  ObserverBase& activation_post_process() { return *activation_post_process_; }
  const ObserverBase& activation_post_process() const { return *activation_post_process_; }
  const Tensor& scale() const { return scale_; }            // float32 [1] or [C]
  const Tensor& zero_point() const { return zero_point_; }  // int32 [1] or [C] (float32 for float qparams)
  bool is_per_channel() const { return pt::is_per_channel(config_.qscheme); }

 protected:
  // Wraps `observer` (built from the kwargs meant for it); ValueError unless its qscheme is per tensor or
  // per channel.
  FakeQuantize(std::unique_ptr<ObserverBase> observer, DType flag_dtype);
  // The wrapped observer, built from FakeQuantize's kwargs: args.observer (default
  // MovingAverageMinMaxObserver) with every other keyword; quant_min / quant_max (default_range when left
  // out: FusedMovingAvgObsFakeQuantize's 0 / 255) only when both are given, then checked against the dtype.
  static std::unique_ptr<ObserverBase> wrapped_observer(const ObserverArgs& args, std::optional<QRange> default_range,
                                                        const char* cls);
  FakeQuantOutput fake_quantize(const Tensor& x) const;  // with the current scale / zero_point

  std::unique_ptr<ObserverBase> activation_post_process_;
  Tensor scale_;
  Tensor zero_point_;
};

class FusedMovingAvgObsFakeQuantize : public FakeQuantize {
 public:
  // observer must be MovingAverageMinMaxObserver (default) or MovingAveragePerChannelMinMaxObserver.
  explicit FusedMovingAvgObsFakeQuantize(const ObserverArgs& args = {});
  const char* type_name() const override { return "FusedMovingAvgObsFakeQuantize"; }
  FakeQuantOutput forward_cachemask(const Tensor& x) override;
  bool is_symmetric_quant() const { return is_symmetric(config_.qscheme); }
};

// torchao FixedQParamsFakeQuantize(observer=FixedQParamsObserver.with_args(...)): calculate_qparams and
// the scale / zero_point buffers are the observer's own; the wrapped observer's quant_min / quant_max are
// used as given (a None one makes forward a TypeError, as torch.fake_quantize_per_tensor_affine's).
class FixedQParamsFakeQuantize : public FakeQuantize {
 public:
  explicit FixedQParamsFakeQuantize(const ObserverArgs& args);
  const char* type_name() const override { return "FixedQParamsFakeQuantize"; }
  QParams calculate_qparams() const override { return {scale_, zero_point_}; }
};

// fbgemm / ATen ChooseQuantizationParams for one (min, max): double intermediates,
// 6.1e-5 scale floor, eps ignored; preserve_sparsity = symmetric. RuntimeError if min > max.
// The arithmetic is FBGEMM's (src/QuantUtils.cc), which torch.fused_moving_avg_obs_fake_quant calls on
// x86 wheels (built with USE_FBGEMM; ATen's quant_utils::ChooseQuantizationParams is the fallback
// elsewhere): the scale is rounded to float32 before the zero point is computed from it, and the zero
// point comes from the end with the smaller |q| + |m / scale|. The RuntimeErrors (min > max, qmin >= qmax)
// are ATen's checks, which FBGEMM's path does not make (docs/algorithms.md).
struct TensorQuantizationParams {
  float scale;
  int32_t zero_point;
};
TensorQuantizationParams choose_quantization_params(float min, float max, int32_t qmin, int32_t qmax,
                                                    bool preserve_sparsity);

}  // namespace pt
