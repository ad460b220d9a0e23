// optim.h — torch.optim.SGD and torch.optim.Adam: torch's update formulas in torch's order (the
// single-tensor, foreach=False path of torch/optim/sgd.py _single_tensor_sgd and adam.py
// _single_tensor_adam, torch 1.13; torch 2.x computes the same updates, except that Adam's first moment
// is exp_avg.lerp_(grad, 1 - beta1) there, equal up to float rounding).
//
//   pt::SGD opt(pt::parameters(gm), {.lr = 0.05, .momentum = 0.9});
//   opt.zero_grad(); tape.backward({loss.grad}); opt.step();
//
// Each step, per parameter p with a gradient (a parameter whose .grad is None is skipped), in float32:
// SGD:   g = maximize ? -grad : grad;  g = g + weight_decay·p;
//        momentum ≠ 0: buf = g (first step) else buf = momentum·buf + (1 - dampening)·g;
//                      g = nesterov ? g + momentum·buf : buf
//        p = p - lr·g
// Adam:  step += 1;  g = maximize ? -grad : grad;  g = g + weight_decay·p;
//        m = beta1·m + (1 - beta1)·g;  v = beta2·v + (1 - beta2)·g·g;  [amsgrad: v_max = max(v_max, v)]
//        denom = sqrt(v or v_max) / sqrt(1 - beta2^step) + eps;  p = p - (lr / (1 - beta1^step))·m / denom
// Hyper-parameters are checked as torch checks them, ValueError with torch's message ("Invalid learning
// rate: -0.1", "Invalid momentum value: ...", "Invalid weight_decay value: ...", "Nesterov momentum
// requires a momentum and zero dampening", "Invalid epsilon value: ...", "Invalid beta parameter at
// index 0: ...", "optimizer got an empty parameter list"); a NaN value is invalid too (torch's
// `lr < 0.0` lets a NaN learning rate through SGD and fills the model with NaN).
// step() checks every parameter still exists in its module before changing any (RuntimeError).
#pragma once
#include <optional>
#include <vector>

#include "train/parameters.h"

namespace pt {

class Optimizer {
 public:
  explicit Optimizer(std::vector<Parameter> params);  // ValueError for an empty list
  virtual ~Optimizer() = default;
  virtual const char* type_name() const = 0;  // "SGD"
  virtual void step() = 0;
  // Clears the parameters' .grad (set_to_none, torch 2.x's default) or fills them with zeros.
  void zero_grad(bool set_to_none = true);
  const std::vector<Parameter>& params() const { return params_; }

 protected:
  // The parameters' values (shared storage) and gradients (nullptr: None), after checking they exist.
  struct Slot {
    Tensor value;
    const Tensor* grad;
  };
  std::vector<Slot> slots() const;
  std::vector<Parameter> params_;
};

struct SGDOptions {
  double lr = 1e-3, momentum = 0, dampening = 0, weight_decay = 0;
  bool nesterov = false, maximize = false;
};

class SGD : public Optimizer {
 public:
  SGD(std::vector<Parameter> params, const SGDOptions& options);
  const char* type_name() const override { return "SGD"; }
  void step() override;
  const SGDOptions& options() const { return options_; }
  // torch's param_groups[0][k] = v between steps: new hyper-parameters, checked as the constructor checks them
  // (ValueError, and the old ones kept); the momentum buffers stay.
  void set_options(const SGDOptions& options);

 private:
  SGDOptions options_;
  std::vector<std::optional<Tensor>> momentum_buffer_;
};

struct AdamOptions {
  double lr = 1e-3, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, weight_decay = 0;
  bool amsgrad = false, maximize = false;
};

class Adam : public Optimizer {
 public:
  Adam(std::vector<Parameter> params, const AdamOptions& options);
  const char* type_name() const override { return "Adam"; }
  void step() override;
  const AdamOptions& options() const { return options_; }
  // As SGD::set_options; the moments and step counts stay.
  void set_options(const AdamOptions& options);

 private:
  struct State {
    int64_t step = 0;
    Tensor exp_avg, exp_avg_sq, max_exp_avg_sq;
  };
  AdamOptions options_;
  std::vector<std::optional<State>> state_;
};

}  // namespace pt
