// data_handles.h — the handle over a DataLoader (it owns a generator's state), shared by bind_data.cpp
// (made and iterated there) and bind_train.cpp (a TrainLoop over it).
#pragma once
#include "handle.h"
#include "train/data.h"

namespace ptjs {

using DataLoaderHandle = Handle<pt::DataLoader>;

}  // namespace ptjs
