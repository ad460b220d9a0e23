// bind_data.cpp — Embind for the data: torch.randperm (core/generator.h), the synthetic image set
// (graph/datasets.h), DataLoader and accuracy (train/data.h). The public API over these is web/api/data.js.
#include <emscripten/bind.h>

#include <memory>

#include "common.h"
#include "data_handles.h"
#include "core/generator.h"
#include "graph/datasets.h"
#include "graph_handles.h"
#include "train/data.h"

using emscripten::val;
using ptjs::DataLoaderHandle;
using pt::Tensor;

namespace {

val batches_to_js(const std::vector<pt::Batch>& batches) {
  return ptjs::list_to_js(batches, [](const pt::Batch& b) {
    val e = val::object();
    e.set("x", b.x);
    e.set("labels", b.labels);
    return e;
  });
}

std::vector<pt::Batch> batches_from_js(const val& arr) {
  return ptjs::list_from_js(arr, [](const val& b) { return pt::Batch{b["x"].as<Tensor>(), b["labels"].as<Tensor>()}; });
}

Tensor randperm(double n) { return ptjs::guarded([&] { return pt::randperm(static_cast<int64_t>(n)); }); }

// options: {num_classes, noise, seed, sample_shape} (checked by data.js); {x, labels}
val synthetic_images(const std::string& split, double n, const val& o) {
  return ptjs::guarded([&] {
    pt::SyntheticImages opts;
    if (!o["num_classes"].isUndefined()) opts.num_classes = static_cast<int64_t>(o["num_classes"].as<double>());
    if (!o["noise"].isUndefined()) opts.noise = o["noise"].as<double>();
    if (!o["seed"].isUndefined()) opts.seed = static_cast<uint64_t>(o["seed"].as<double>());
    if (!o["sample_shape"].isUndefined()) opts.sample_shape = ptjs::shape_from_js(o["sample_shape"]);
    const pt::TensorDataset d = pt::synthetic_images(split, static_cast<int64_t>(n), opts);
    val out = val::object();
    out.set("x", d.x);
    out.set("labels", d.labels);
    return out;
  });
}

// options: {batch_size, shuffle, drop_last, seed} (checked by data.js)
DataLoaderHandle make_data_loader(const Tensor& x, const Tensor& labels, const val& o) {
  return ptjs::guarded([&] {
    pt::DataLoaderOptions opts;
    opts.batch_size = static_cast<int64_t>(o["batch_size"].as<double>());
    opts.shuffle = o["shuffle"].as<bool>();
    opts.drop_last = o["drop_last"].as<bool>();
    opts.seed = static_cast<uint64_t>(o["seed"].as<double>());
    return DataLoaderHandle{std::make_shared<pt::DataLoader>(pt::TensorDataset{x, labels}, opts)};
  });
}
val loader_epoch(const DataLoaderHandle& h) { return ptjs::guarded([&] { return batches_to_js(h.get().epoch()); }); }
double loader_num_batches(const DataLoaderHandle& h) { return ptjs::guarded([&] { return double(h.get().num_batches()); }); }

double accuracy(const Tensor& output, const Tensor& target) { return ptjs::guarded([&] { return pt::accuracy(output, target); }); }
double evaluate_accuracy(const ptjs::GraphModuleHandle& gm, const val& batches) {
  return ptjs::guarded([&] { return pt::evaluate_accuracy(gm.get(), batches_from_js(batches)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pt_data) {
  using namespace emscripten;
  class_<DataLoaderHandle>("DataLoader").function("epoch", &loader_epoch).function("num_batches", &loader_num_batches);
  function("randperm", &randperm);
  function("synthetic_images", &synthetic_images);
  function("make_data_loader", &make_data_loader);
  function("accuracy", &accuracy);
  function("evaluate_accuracy", &evaluate_accuracy);
}
