// grad_case.h — helpers for the gradient tests: golden data of tests/golden/grad (gen_grad.py) and the
// acceptance tolerance, max |ours - torch| <= 1e-4 * max |torch| per tensor.
#pragma once
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "ops/golden.h"

namespace gradtest {

inline golden::Golden load(const std::string& name) { return golden::Golden(name, "grad"); }

constexpr double kTolerance = 1e-4;

// Checks one tensor against torch's and prints its relative error (the report's numbers).
inline void check_close(const std::string& what, const pt::Tensor& ours, const pt::Tensor& torch) {
  const double rel = golden::max_rel_diff(ours, torch);
  std::printf("  %-34s max rel err %.3g\n", what.c_str(), rel);
  INFO(what << ": max |ours - torch| / max |torch| = " << rel << " (shape " << pt::shape_str(ours.shape()) << " vs "
            << pt::shape_str(torch.shape()) << ")");
  CHECK(rel <= kTolerance);
}

inline void check_bits(const std::string& what, const pt::Tensor& ours, const pt::Tensor& torch) {
  std::printf("  %-34s %s\n", what.c_str(), golden::bit_equal(ours, torch) ? "bit-exact" : "DIFFERS");
  INFO(what << " must equal torch's bit for bit");
  CHECK(golden::bit_equal(ours, torch));
}

// Golden int labels (stored as float32) as the engine's int32 labels.
inline pt::Tensor labels(const golden::Golden& g, const std::string& name) { return g.tensor(name).to(pt::DType::Int32); }

}  // namespace gradtest
