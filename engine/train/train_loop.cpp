// train_loop.cpp — train_step and TrainLoop (see train_loop.h).
#include "train/train_loop.h"

#include <memory>

#include "train/autograd.h"

namespace pt {

float train_step(GraphModule& gm, Optimizer& opt, const LossFn& loss, const Tensor& x, const Tensor& target) {
  opt.zero_grad();
  Tape tape(gm, {x});
  if (tape.outputs().size() != 1)
    throw ValueError("train_step: the model has " + std::to_string(tape.outputs().size()) + " outputs, expected 1");
  const Loss l = loss(tape.outputs()[0], target);
  tape.backward({l.grad});
  opt.step();
  return l.value.item();
}

TrainLoop::TrainLoop(GraphModule& gm, Optimizer& opt, LossFn loss, std::vector<Batch> batches)
    : gm_(gm), opt_(opt), loss_(std::move(loss)), batches_(std::move(batches)) {
  if (!loss_) throw ValueError("TrainLoop: loss must not be empty");
  if (batches_.empty()) throw ValueError("TrainLoop: expected at least one batch");
  next_epoch_ = [fixed = batches_] { return fixed; };
}

TrainLoop::TrainLoop(GraphModule& gm, Optimizer& opt, LossFn loss, DataLoader loader)
    : TrainLoop(gm, opt, std::move(loss), loader.epoch()) {
  next_epoch_ = [loader = std::make_shared<DataLoader>(std::move(loader))] { return loader->epoch(); };
}

std::vector<float> TrainLoop::run(int64_t steps) {
  if (steps < 0) throw ValueError("TrainLoop.run: steps must be >= 0, got " + std::to_string(steps));
  std::vector<float> losses;
  for (int64_t s = 0; s < steps; ++s) {
    const Batch& b = batches_[static_cast<size_t>(position_)];
    losses.push_back(train_step(gm_, opt_, loss_, b.x, b.labels));
    if (++position_ == static_cast<int64_t>(batches_.size())) {
      batches_ = next_epoch_();
      position_ = 0;
      ++epoch_;
    }
  }
  return losses;
}

}  // namespace pt
