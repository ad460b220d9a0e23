// test_golden_observers.cpp — every observer case of tests/golden/quant/cases.json, bit for bit.
//
// Each case builds the observer by class name + kwargs through make_observer (as prepare_pt2e
// will), feeds the stored batches, and compares min_val / max_val / scale as float32 bit patterns
// and zero points exactly against torch 1.13 (MinMax, MovingAverage, PerChannel,
// MovingAveragePerChannel over int8 / uint8, affine / symmetric / float_qparams, custom ranges,
// reduce_range, eps 2^-12, all-zero, single-value and multi-batch inputs).
#include "golden.h"

#include "quant/observer.h"

using namespace pt;
using namespace golden;

TEST_CASE("observers match torch 1.13 bit for bit", "[observer][golden]") {
  const Json& cases = quant_golden()["observers"];
  REQUIRE(cases.size() > 300);
  size_t checked = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    INFO("case " << i << ": " << c["name"].str << " " << describe(c["kwargs"]) << " on " << describe(c["batches"]));
    std::unique_ptr<ObserverBase> obs = make_observer(c["name"].str, observer_args(c["kwargs"]));
    REQUIRE(std::string(obs->type_name()) == c["name"].str);
    auto* uniform = dynamic_cast<UniformQuantizationObserverBase*>(obs.get());
    REQUIRE(uniform != nullptr);
    for (const Json& b : c["batches"].arr) {
      Tensor x = golden_data(b.str);
      Tensor y = obs->forward(x);
      CHECK(y.same_storage(x));  // forward returns its input
    }
    CHECK(obs->quant_min() == c["quant_min"].i64());
    CHECK(obs->quant_max() == c["quant_max"].i64());
    CHECK(tensor_bits(uniform->min_val()) == json_u32(c["min_val_bits"]));
    CHECK(tensor_bits(uniform->max_val()) == json_u32(c["max_val_bits"]));
    const QParams qp = obs->calculate_qparams();
    CHECK(tensor_bits(qp.scale) == json_u32(c["scale_bits"]));
    if (c.has("zero_point_bits"))
      CHECK(tensor_bits(qp.zero_point) == json_u32(c["zero_point_bits"]));
    else
      CHECK(int_values(qp.zero_point) == json_i64(c["zero_point"]));
    ++checked;
  }
  CHECK(checked == cases.size());
}
