// train_loop.h — one optimisation step as a PyTorch training loop writes it, and a loop over batches
// that a page runs in slices (a few steps per call, so it stays responsive and can chart the loss).
//
//   float l = pt::train_step(gm, opt, pt::cross_entropy, x, labels);
//     // = optimizer.zero_grad(); loss = F.cross_entropy(model(x), labels); loss.backward(); optimizer.step()
//   pt::TrainLoop loop(gm, opt, pt::cross_entropy, batches);   // batches: {x, labels} (graph/datasets.h Batch)
//   pt::TrainLoop shuffled(gm, opt, pt::cross_entropy, pt::DataLoader(train, {.batch_size = 32, .shuffle = true}));
//   std::vector<float> losses = loop.run(5);                   // the next five steps
//   loop.position(); loop.epoch();                             // next batch index, full passes done
//
// The loop walks an epoch's batches in order; after the last it starts the next epoch (epoch + 1): the
// same batches again, or with a DataLoader its next epoch (a new order when it shuffles, train/data.h).
// The GraphModule must have one output. Errors are the step's (typed, from the forward, the loss, backward
// or the optimizer); a failed step leaves the loop at the same position.
#pragma once
#include <functional>
#include <vector>

#include "graph/datasets.h"
#include "train/data.h"
#include "train/loss.h"
#include "train/optim.h"

namespace pt {

using LossFn = std::function<Loss(const Tensor& output, const Tensor& target)>;

float train_step(GraphModule& gm, Optimizer& opt, const LossFn& loss, const Tensor& x, const Tensor& target);

class TrainLoop {
 public:
  TrainLoop(GraphModule& gm, Optimizer& opt, LossFn loss, std::vector<Batch> batches);
  TrainLoop(GraphModule& gm, Optimizer& opt, LossFn loss, DataLoader loader);
  std::vector<float> run(int64_t steps);  // the losses of the steps run
  int64_t position() const { return position_; }
  int64_t epoch() const { return epoch_; }
  int64_t batches_per_epoch() const { return static_cast<int64_t>(batches_.size()); }

 private:
  GraphModule& gm_;
  Optimizer& opt_;
  LossFn loss_;
  std::function<std::vector<Batch>()> next_epoch_;
  std::vector<Batch> batches_;  // this epoch's
  int64_t position_ = 0, epoch_ = 0;
};

}  // namespace pt
