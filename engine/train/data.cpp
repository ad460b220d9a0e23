// data.cpp — DataLoader and accuracy (see data.h).
#include "train/data.h"

#include "graph/interpreter.h"

namespace pt {

namespace {

// Correct top-1 predictions of output [N, C] against target [N].
int64_t count_correct(const Tensor& output, const Tensor& target) {
  if (output.dim() != 2 || output.dtype() != DType::Float32)
    throw ValueError("accuracy: output must be float32 [N, C] logits, got " + shape_str(output.shape()) + " " +
                     dtype_name(output.dtype()));
  if (target.dtype() != DType::Int32)
    throw TypeError(std::string("accuracy: target must be int32 class indices, got ") + dtype_name(target.dtype()));
  const int64_t n = output.size(0), c = output.size(1);
  if (target.numel() != n)
    throw ValueError("accuracy: target has " + std::to_string(target.numel()) + " labels for a batch of " + std::to_string(n));
  const float* o = output.data<float>();
  const int32_t* t = target.data<int32_t>();
  int64_t correct = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t best = 0;
    for (int64_t j = 1; j < c; ++j)
      if (o[i * c + j] > o[i * c + best]) best = j;
    correct += best == t[i];
  }
  return correct;
}

}  // namespace

DataLoader::DataLoader(TensorDataset dataset, const DataLoaderOptions& options)
    : dataset_(std::move(dataset)), options_(options), gen_(options.seed) {
  if (options_.batch_size < 1) throw ValueError("DataLoader: batch_size must be >= 1, got " + std::to_string(options_.batch_size));
  if (dataset_.size() < 1) throw ValueError("DataLoader: the data set is empty");
  if (dataset_.x.dim() < 1 || dataset_.x.size(0) != dataset_.size())
    throw ValueError("DataLoader: x has " + shape_str(dataset_.x.shape()) + " for " + std::to_string(dataset_.size()) + " labels");
}

int64_t DataLoader::num_batches() const {
  const int64_t n = dataset_.size(), b = options_.batch_size;
  return options_.drop_last ? n / b : (n + b - 1) / b;
}

std::vector<Batch> DataLoader::epoch() {
  const int64_t n = dataset_.size();
  gen_.random64();  // _BaseDataLoaderIter's base seed
  std::vector<int32_t> order(static_cast<size_t>(n));
  if (options_.shuffle) {
    const Tensor p = randperm(n, gen_);
    order.assign(p.data<int32_t>(), p.data<int32_t>() + n);
    randperm(n, gen_);  // RandomSampler's trailing randperm(n)[:0]
  } else {
    for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = static_cast<int32_t>(i);
  }
  std::vector<Batch> out;
  for (int64_t k = 0; k < num_batches(); ++k) {
    const int64_t start = k * options_.batch_size, end = std::min(n, start + options_.batch_size);
    out.push_back(collate(dataset_, {order.begin() + start, order.begin() + end}));
  }
  ++epochs_;
  return out;
}

double accuracy(const Tensor& output, const Tensor& target) {
  const int64_t n = output.dim() == 2 ? output.size(0) : 0;
  const int64_t correct = count_correct(output, target);
  return n ? 100.0 * static_cast<double>(correct) / static_cast<double>(n) : 0.0;
}

double evaluate_accuracy(GraphModule& gm, const std::vector<Batch>& batches) {
  int64_t correct = 0, total = 0;
  for (const Batch& b : batches) {
    const std::vector<Tensor> out = run_graph(gm, {b.x});
    if (out.size() != 1) throw ValueError("evaluate_accuracy: the model has " + std::to_string(out.size()) + " outputs, expected 1");
    correct += count_correct(out[0], b.labels);
    total += b.labels.numel();
  }
  if (total == 0) throw ValueError("evaluate_accuracy: no samples");
  return 100.0 * static_cast<double>(correct) / static_cast<double>(total);
}

}  // namespace pt
