// data.h — feeding a model: torch.utils.data.DataLoader over a TensorDataset (graph/datasets.h), and the
// accuracy of a classifier's logits, as PyTorch's training tutorials write them.
//
//   pt::TensorDataset train = pt::synthetic_images("train", 2048);
//   pt::DataLoader loader(train, {.batch_size = 32, .shuffle = true, .seed = 0});
//   for (const pt::Batch& b : loader.epoch()) ...              // for x, y in loader (a new order each epoch)
//   double acc = pt::evaluate_accuracy(gm, pt::DataLoader(test, {.batch_size = 256}).epoch());   // top-1, %
//
// DataLoader(dataset, batch_size, shuffle, drop_last, generator=torch.Generator().manual_seed(seed)) as
// torch 1.13 iterates it (tests/golden/gen_data.py checks the order over three epochs): each epoch (each
// iter(loader)) first draws the iterator's base seed from the generator (an int64 random_: one random64),
// then, when shuffling, RandomSampler's torch.randperm(n, generator) gives the order; RandomSampler then
// draws a second randperm(n) whose slice [:0] it yields, so each epoch consumes two permutations (a torch
// 1.13 quirk kept for the bits). Batches take consecutive indices of the order, batch_size each, the last
// one smaller unless drop_last; samples are stacked by collate (graph/datasets.h). Without shuffle the
// order is 0..n-1.
// accuracy(output [N, C], target [N] int32) is the tutorials' top-1 accuracy in percent (100 · correct / N;
// a prediction is the first index of the row's maximum, as argmax). evaluate_accuracy runs the model
// (graph/interpreter.h run_graph: no tape, nothing recorded; put a model with batch norms in eval mode
// first, move_exported_model_to_eval, as the QAT tutorial's evaluate() does) over the batches and returns
// the percent correct over all their samples. A model that is a prepared QAT graph still observes in its
// fake quants, as in torch (the tutorial evaluates a convert_pt2e copy).
// Errors: ValueError for batch_size < 1, an empty data set, output that is not [N, C], or a target whose
// size is not N; TypeError for a target that is not int32.
#pragma once
#include <cstdint>
#include <vector>

#include "core/generator.h"
#include "graph/datasets.h"
#include "graph/graph.h"

namespace pt {

struct DataLoaderOptions {
  int64_t batch_size = 1;
  bool shuffle = false;
  bool drop_last = false;
  uint64_t seed = 0;  // the loader's generator: torch.Generator().manual_seed(seed)
};

class DataLoader {
 public:
  DataLoader(TensorDataset dataset, const DataLoaderOptions& options);
  std::vector<Batch> epoch();           // iter(loader): the next epoch's batches
  int64_t num_batches() const;          // len(loader)
  int64_t epochs_drawn() const { return epochs_; }
  const TensorDataset& dataset() const { return dataset_; }
  const DataLoaderOptions& options() const { return options_; }

 private:
  TensorDataset dataset_;
  DataLoaderOptions options_;
  Generator gen_;
  int64_t epochs_ = 0;
};

double accuracy(const Tensor& output, const Tensor& target);
double evaluate_accuracy(GraphModule& gm, const std::vector<Batch>& batches);

}  // namespace pt
