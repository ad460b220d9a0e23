// test_batch_norm_training.cpp — ops::batch_norm_training and the graph's train / eval switch against
// torch 1.13 (tests/golden/gen_qat.py: F.batch_norm(training=True), Stem in train mode).
//
// batch_norm_training follows torch's CPU kernel (double sums in memory order, float transform; see
// ops.h), so outputs and running stats are compared bit for bit. The Stem forward goes through our
// conv2d, which sums in double and rounds once while torch's conv sums in float in its own order:
// that part is compared with a relative tolerance.
#include <catch2/catch.hpp>

#include <cstdio>

#include "core/generator.h"
#include "graph/interpreter.h"
#include "graph/models.h"
#include "graph/passes.h"
#include "ops/golden.h"
#include "ops/ops.h"

using namespace pt;
using golden::bit_equal;
using golden::max_rel_diff;

namespace {
// tests/golden/qat/<name> (golden.h resolves names under tests/golden/models).
golden::Golden qat_golden(const std::string& name) { return golden::Golden(name, "qat"); }

double json_number(const std::string& name, const std::string& key) {
  const std::string text = golden::read_file(std::string(PT_SOURCE_DIR) + "/tests/golden/qat/" + name + ".json");
  return golden::JsonReader(text).parse().at(key).number;
}
}  // namespace

TEST_CASE("batch_norm training matches torch bit for bit, running stats updated in place", "[ops][bn_train]") {
  const auto g = qat_golden("bn_train_a");
  Tensor rm = g.tensor("rm").clone(), rv = g.tensor("rv").clone();
  const double momentum = json_number("bn_train_a", "momentum"), eps = json_number("bn_train_a", "eps");
  Tensor y1 = ops::batch_norm_training(g.tensor("x"), g.tensor("w"), g.tensor("b"), rm, rv, momentum, eps);
  CHECK(bit_equal(y1, g.tensor("y1")));
  CHECK(bit_equal(rm, g.tensor("rm1")));  // the caller's tensors changed
  CHECK(bit_equal(rv, g.tensor("rv1")));
  Tensor y2 = ops::batch_norm_training(g.tensor("x2"), g.tensor("w"), g.tensor("b"), rm, rv, momentum, eps);
  CHECK(bit_equal(y2, g.tensor("y2")));
  CHECK(bit_equal(rm, g.tensor("rm2")));
  CHECK(bit_equal(rv, g.tensor("rv2")));
  INFO("y1 max rel diff " << max_rel_diff(y1, g.tensor("y1")));
}

TEST_CASE("batch_norm training: 2-D input without affine, momentum 0.3, eps 1e-3", "[ops][bn_train]") {
  const auto g = qat_golden("bn_train_b");
  Tensor rm = g.tensor("rm").clone(), rv = g.tensor("rv").clone();
  Tensor y = ops::batch_norm_training(g.tensor("x"), std::nullopt, std::nullopt, rm, rv,
                                      json_number("bn_train_b", "momentum"), json_number("bn_train_b", "eps"));
  CHECK(bit_equal(y, g.tensor("y1")));
  CHECK(bit_equal(rm, g.tensor("rm1")));
  CHECK(bit_equal(rv, g.tensor("rv1")));
}

TEST_CASE("batch_norm training: long per-channel sums (16x16x16x16)", "[ops][bn_train]") {
  const auto g = qat_golden("bn_train_c");
  Tensor rm = g.tensor("rm").clone(), rv = g.tensor("rv").clone();
  Tensor y = ops::batch_norm_training(g.tensor("x"), g.tensor("w"), g.tensor("b"), rm, rv, 0.1, 1e-5);
  CHECK(bit_equal(y, g.tensor("y1")));
  CHECK(bit_equal(rm, g.tensor("rm1")));
  CHECK(bit_equal(rv, g.tensor("rv1")));
  // Without running stats nothing is updated and the output is the same.
  CHECK(bit_equal(ops::batch_norm_training(g.tensor("x"), g.tensor("w"), g.tensor("b"), std::nullopt, std::nullopt),
                  g.tensor("y1")));
}

TEST_CASE("batch_norm training: bad input is a typed error", "[ops][bn_train]") {
  CHECK_THROWS_AS(ops::batch_norm_training(Tensor::zeros({1, 3}), std::nullopt, std::nullopt, std::nullopt,
                                           std::nullopt),
                  ValueError);  // one value per channel
  CHECK_THROWS_AS(ops::batch_norm_training(Tensor::zeros({2, 3, 2, 2}), std::nullopt, std::nullopt,
                                           Tensor::zeros({4}), std::nullopt),
                  RuntimeError);
  CHECK_THROWS_AS(ops::batch_norm_training(Tensor::zeros({2, 3}, DType::Int8), std::nullopt, std::nullopt,
                                           std::nullopt, std::nullopt),
                  TypeError);
  CHECK_THROWS_AS(ops::batch_norm_training(Tensor::zeros({3}), std::nullopt, std::nullopt, std::nullopt,
                                           std::nullopt),
                  RuntimeError);
}

TEST_CASE("move_exported_model_to_train: the Stem graph runs batch norm as torch's model.train()", "[ops][bn_train]") {
  const auto g = qat_golden("stem");
  Model m = get_model("stem");
  std::vector<NamedTensor> state;
  for (auto& [k, v] : g.with_prefix("state.")) state.push_back({k, v, k.find("running") != std::string::npos});
  m.load_state_dict(state);
  const Tensor x = g.tensor("x");
  GraphModule gm = export_module(m, {x});
  const Tensor rm0 = gm.get_tensor("bn.running_mean").clone();

  // Exported in eval mode: training literal False; eval forward leaves the buffers alone.
  Node* bn = gm.graph.find("batch_norm");
  REQUIRE(bn);
  CHECK(bn->args()[5].str() == "False");
  CHECK(move_exported_model_to_eval(gm) == 0);  // idempotent
  gm.forward({x});
  CHECK(bit_equal(gm.get_tensor("bn.running_mean"), rm0));

  CHECK(move_exported_model_to_train(gm) == 1);
  CHECK(move_exported_model_to_train(gm) == 0);
  CHECK(bn->args()[5].str() == "True");
  Tensor bn_out;
  const Tensor out = run_graph(gm, {x}, [&](const Node& n, const Value& v) {
    if (&n == bn) bn_out = std::get<Tensor>(v.v);
  })[0];
  const double d_out = max_rel_diff(out, g.tensor("train_out"));
  const double d_rm = max_rel_diff(gm.get_tensor("bn.running_mean"), g.tensor("train_rm"));
  const double d_rv = max_rel_diff(gm.get_tensor("bn.running_var"), g.tensor("train_rv"));
  std::printf("stem train forward vs torch: out %.3g, running_mean %.3g, running_var %.3g (max rel diff)\n", d_out,
              d_rm, d_rv);
  CHECK(d_out < 2e-6);
  CHECK(max_rel_diff(bn_out, g.tensor("train_bn")) < 2e-6);
  CHECK(d_rm < 1e-5);
  CHECK(d_rv < 1e-5);
  CHECK_FALSE(bit_equal(gm.get_tensor("bn.running_mean"), rm0));

  CHECK(move_exported_model_to_eval(gm) == 1);
  CHECK(bn->args()[5].str() == "False");
  const Tensor rm1 = gm.get_tensor("bn.running_mean").clone();
  gm.forward({x});
  CHECK(bit_equal(gm.get_tensor("bn.running_mean"), rm1));

  // A clone does not share buffers with the original.
  GraphModule copy = gm.clone();
  move_exported_model_to_train(copy);
  copy.forward({x});
  CHECK(bit_equal(gm.get_tensor("bn.running_mean"), rm1));
  CHECK_FALSE(bit_equal(copy.get_tensor("bn.running_mean"), rm1));
}

TEST_CASE("interpreter: training batch_norm with momentum=None is NotImplementedError; non-bool flag TypeError",
          "[ops][bn_train]") {
  GraphModule gm;
  gm.set_tensor("rm", Tensor::zeros({2}), true);
  gm.set_tensor("rv", Tensor::full({2}, 1.f), true);
  Node* rm = gm.graph.get_attr("rm");
  Node* rv = gm.graph.get_attr("rv");
  Node* x = gm.graph.placeholder("x");
  Node* bn = gm.graph.call_function("aten.batch_norm.default", {x, nullptr, nullptr, rm, rv, true, nullptr, 1e-5, true});
  gm.graph.output({bn});
  CHECK_THROWS_AS(gm.forward({Tensor::zeros({4, 2})}), NotImplementedError);
  gm.graph.set_args(bn, {x, nullptr, nullptr, rm, rv, int64_t{1}, 0.1, 1e-5, true});
  CHECK_THROWS_AS(move_exported_model_to_eval(gm), TypeError);
}
