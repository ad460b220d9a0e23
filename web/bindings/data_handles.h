// data_handles.h — the Embind handle over a DataLoader (it owns a generator's state), shared by
// bind_data.cpp (made and iterated there) and bind_train.cpp (a TrainLoop over it).
#pragma once
#include <memory>

#include "core/error.h"
#include "train/data.h"

namespace ptjs {

struct DataLoaderHandle {
  std::shared_ptr<pt::DataLoader> loader;
  pt::DataLoader& get() const {
    if (!loader) throw pt::RuntimeError("DataLoader was not constructed");
    return *loader;
  }
};

}  // namespace ptjs
