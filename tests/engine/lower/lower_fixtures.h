// lower_fixtures.h — what test_lower.cpp and test_vpu.cpp share: the data they run a zoo model on (5 calibration
// batches of 4, then one held-out batch of 64: image models on the synthetic image set, vector models on randn), and
// the edit that gives a node's output quantize other qparams than its input (lowering must refuse it).
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

#include "graph/datasets.h"
#include "graph/graph.h"
#include "graph/models.h"
#include "graph/quantized_decomposed.h"
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

// The quantize after `name` (its first user) gets twice its scale.
inline void double_output_scale(GraphModule& converted, const std::string& name) {
  Node* node = converted.graph.find(name);
  REQUIRE(node);
  Node* q = node->users().at(0);
  QDQArgs a = *qdq_args(*q);
  a.scale = std::get<double>(a.scale.v) * 2;
  converted.graph.set_args(q, qdq_arg_list(a));
}

}  // namespace pt::lower_test
