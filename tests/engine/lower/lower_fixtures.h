// lower_batches.h — the data the lowering tests run a zoo model on: 5 calibration batches of 4, then one held-out
// batch of 64 (image models on the synthetic image set, vector models on randn). test_lower.cpp and test_vpu.cpp.
#pragma once
#include <vector>

#include "graph/datasets.h"
#include "graph/models.h"
#include "ops/ops.h"

namespace pt::lower_test {

inline std::vector<Tensor> batches(const Model& m) {
  std::vector<Tensor> out;
  if (m.input_shape.size() == 3) {
    std::vector<Tensor> held;
    for (const Batch& b : calibration_batches(84, 4, m.input_shape)) (out.size() < 5 ? out : held).push_back(b.x);
    out.push_back(ops::cat(held, 0));
  } else {
    for (int i = 0; i < 5; ++i) out.push_back(example_inputs(m, 4)[0]);
    out.push_back(example_inputs(m, 64)[0]);
  }
  return out;
}

}  // namespace pt::lower_test
