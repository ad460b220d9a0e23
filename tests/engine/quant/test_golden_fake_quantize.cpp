// test_golden_fake_quantize.cpp — FakeQuantize and FusedMovingAvgObsFakeQuantize replay torch 1.13
// schedules (forward, enable/disable observer, enable/disable fake quant) from cases.json: every
// forward's output and STE mask byte for byte, scale / zero_point buffers and the wrapped
// observer's min_val / max_val as bits, and the final calculate_qparams (the convert-time formula).
#include "golden.h"

#include "quant/fake_quantize.h"

using namespace pt;
using namespace golden;

TEST_CASE("FakeQuantize and FusedMovingAvgObsFakeQuantize match torch 1.13 step by step", "[fake_quant][golden]") {
  const Json& cases = quant_golden()["fake_quant"];
  REQUIRE(cases.size() == 9);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Json& c = cases[i];
    std::unique_ptr<ObserverBase> m = make_observer(c["name"].str, observer_args(c["kwargs"]));
    REQUIRE(m->is_fake_quantize());
    auto& fq = dynamic_cast<FakeQuantize&>(*m);
    const auto& apm = dynamic_cast<const UniformQuantizationObserverBase&>(fq.activation_post_process());
    for (size_t j = 0; j < c["steps"].size(); ++j) {
      const Json& s = c["steps"][j];
      INFO("case " << i << " " << c["name"].str << " " << describe(c["kwargs"]) << ", step " << j << " "
                   << s["op"].str << (s.has("input") ? " " + s["input"].str : std::string()));
      const std::string& op = s["op"].str;
      if (op == "disable_observer") fq.disable_observer();
      else if (op == "enable_observer") fq.enable_observer();
      else if (op == "disable_fake_quant") fq.disable_fake_quant();
      else if (op == "enable_fake_quant") fq.enable_fake_quant();
      else {
        REQUIRE(op == "forward");
        const FakeQuantOutput r = fq.forward_cachemask(golden_data(s["input"].str));
        CHECK(byte_mismatches(r.output, s["output"].str) == 0);
        CHECK(byte_mismatches(r.mask, s["mask"].str) == 0);
        CHECK(tensor_bits(fq.scale()) == json_u32(s["scale_bits"]));
        CHECK(int_values(fq.zero_point()) == json_i64(s["zero_point"]));
        CHECK(tensor_bits(apm.min_val()) == json_u32(s["min_val_bits"]));
        CHECK(tensor_bits(apm.max_val()) == json_u32(s["max_val_bits"]));
      }
    }
    const QParams qp = fq.calculate_qparams();
    CHECK(tensor_bits(qp.scale) == json_u32(c["calc_scale_bits"]));
    CHECK(int_values(qp.zero_point) == json_i64(c["calc_zero_point"]));
  }
}
