// optim.cpp — Optimizer, SGD, Adam (see optim.h).
#include "train/optim.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pt {

namespace {

// A number as Python prints it in torch's messages: nan, inf, -1, 0.1, 1e-05.
std::string py_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// torch's `if not 0.0 <= value: raise ValueError(...)`: NaN fails it too.
void require_non_negative(double v, const char* what) {
  if (!(v >= 0.0)) throw ValueError(std::string("Invalid ") + what + ": " + py_number(v));
}

}  // namespace

// ---- Optimizer -----------------------------------------------------------------------------------------

Optimizer::Optimizer(std::vector<Parameter> params) : params_(std::move(params)) {
  if (params_.empty()) throw ValueError("optimizer got an empty parameter list");
  for (const Parameter& p : params_)
    if (!p.module) throw ValueError("optimizer: parameter '" + p.name + "' has no module");
}

std::vector<Optimizer::Slot> Optimizer::slots() const {
  std::vector<Slot> out;
  for (const Parameter& p : params_) {
    if (!p.module->has_tensor(p.name))
      throw RuntimeError(std::string(type_name()) + ".step: parameter '" + p.name + "' is no longer in its module");
    out.push_back({p.module->get_tensor(p.name), grad(*p.module, p.name)});
  }
  return out;
}

void Optimizer::zero_grad(bool set_to_none) {
  for (const Parameter& p : params_) {
    auto it = p.module->grads.find(p.name);
    if (it == p.module->grads.end()) continue;
    if (set_to_none) p.module->grads.erase(it);
    else std::fill_n(it->second.data<float>(), it->second.numel(), 0.f);
  }
}

// ---- SGD -------------------------------------------------------------------------------------------------

namespace {
void check(const SGDOptions& o) {
  require_non_negative(o.lr, "learning rate");
  require_non_negative(o.momentum, "momentum value");
  require_non_negative(o.weight_decay, "weight_decay value");
  if (std::isnan(o.dampening)) throw ValueError("Invalid dampening value: nan");
  if (o.nesterov && (o.momentum <= 0 || o.dampening != 0))
    throw ValueError("Nesterov momentum requires a momentum and zero dampening");
}

void check(const AdamOptions& o) {
  require_non_negative(o.lr, "learning rate");
  require_non_negative(o.eps, "epsilon value");
  if (!(o.beta1 >= 0.0 && o.beta1 < 1.0)) throw ValueError("Invalid beta parameter at index 0: " + py_number(o.beta1));
  if (!(o.beta2 >= 0.0 && o.beta2 < 1.0)) throw ValueError("Invalid beta parameter at index 1: " + py_number(o.beta2));
  require_non_negative(o.weight_decay, "weight_decay value");
}
}  // namespace

SGD::SGD(std::vector<Parameter> params, const SGDOptions& o)
    : Optimizer(std::move(params)), options_(o), momentum_buffer_(params_.size()) {
  check(o);
}

void SGD::set_options(const SGDOptions& o) {
  check(o);
  options_ = o;
}

void SGD::step() {
  const std::vector<Slot> ps = slots();
  const float wd = static_cast<float>(options_.weight_decay), mom = static_cast<float>(options_.momentum);
  const float keep = static_cast<float>(1.0 - options_.dampening), neg_lr = static_cast<float>(-options_.lr);
  for (size_t i = 0; i < ps.size(); ++i) {
    if (!ps[i].grad) continue;
    Tensor p = ps[i].value;
    const int64_t n = p.numel();
    float* w = p.data<float>();
    const float* grad = ps[i].grad->data<float>();
    std::vector<float> g(grad, grad + n);
    if (options_.maximize)
      for (float& v : g) v = -v;
    if (options_.weight_decay != 0)
      for (int64_t k = 0; k < n; ++k) g[k] = g[k] + wd * w[k];
    if (options_.momentum != 0) {
      std::optional<Tensor>& buf = momentum_buffer_[i];
      if (!buf) {
        buf = Tensor::from(g, p.shape());  // torch.clone(grad).detach()
      } else {
        float* b = buf->data<float>();
        for (int64_t k = 0; k < n; ++k) b[k] = b[k] * mom + keep * g[k];
      }
      const float* b = buf->data<float>();
      if (options_.nesterov)
        for (int64_t k = 0; k < n; ++k) g[k] = g[k] + mom * b[k];
      else
        std::copy(b, b + n, g.begin());
    }
    for (int64_t k = 0; k < n; ++k) w[k] = w[k] + neg_lr * g[k];
  }
}

// ---- Adam ------------------------------------------------------------------------------------------------

Adam::Adam(std::vector<Parameter> params, const AdamOptions& o)
    : Optimizer(std::move(params)), options_(o), state_(params_.size()) {
  check(o);
}

void Adam::set_options(const AdamOptions& o) {
  check(o);
  options_ = o;
}

void Adam::step() {
  const std::vector<Slot> ps = slots();
  const AdamOptions& o = options_;
  const float wd = static_cast<float>(o.weight_decay), b1 = static_cast<float>(o.beta1), b2 = static_cast<float>(o.beta2);
  const float one_b1 = static_cast<float>(1.0 - o.beta1), one_b2 = static_cast<float>(1.0 - o.beta2);
  for (size_t i = 0; i < ps.size(); ++i) {
    if (!ps[i].grad) continue;
    Tensor p = ps[i].value;
    const int64_t n = p.numel();
    if (!state_[i]) {
      state_[i] = State{0, Tensor::zeros(p.shape()), Tensor::zeros(p.shape()),
                        o.amsgrad ? Tensor::zeros(p.shape()) : Tensor()};
    }
    State& s = *state_[i];
    s.step += 1;
    float* w = p.data<float>();
    float* m = s.exp_avg.data<float>();
    float* v = s.exp_avg_sq.data<float>();
    const float* grad = ps[i].grad->data<float>();
    // Python floats (double) for the bias corrections, as _single_tensor_adam computes them.
    const double bc1 = 1.0 - std::pow(o.beta1, static_cast<double>(s.step));
    const double bc2 = 1.0 - std::pow(o.beta2, static_cast<double>(s.step));
    const float bc2_sqrt = static_cast<float>(std::sqrt(bc2)), eps = static_cast<float>(o.eps);
    const float neg_step = static_cast<float>(-(o.lr / bc1));
    float* vmax = o.amsgrad ? s.max_exp_avg_sq.data<float>() : nullptr;
    for (int64_t k = 0; k < n; ++k) {
      float g = o.maximize ? -grad[k] : grad[k];
      if (o.weight_decay != 0) g = g + wd * w[k];
      m[k] = m[k] * b1 + one_b1 * g;             // exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
      v[k] = v[k] * b2 + one_b2 * g * g;         // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
      float second = v[k];
      if (vmax) second = vmax[k] = std::max(vmax[k], v[k]);
      const float denom = std::sqrt(second) / bc2_sqrt + eps;
      w[k] = w[k] + neg_step * m[k] / denom;     // param.addcdiv_(exp_avg, denom, value=-step_size)
    }
  }
}

}  // namespace pt
