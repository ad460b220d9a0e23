// test_quantizer_registry.cpp — backend quantizers and config functions built from plain data
// (pt2e/quantizer_registry.h): every shipped quantizer is registered with torchao's setter names, a
// description replays its calls in order and annotates as the same quantizer set up by hand, config
// functions take keyword options with the Python defaults, and bad calls are Python's TypeErrors.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/generator.h"
#include "graph/models.h"
#include "graph/report.h"
#include "pt2e/quantizer_registry.h"
#include "pt2e/quantizers/x86_inductor_quantizer.h"
#include "pt2e/quantizers/xnnpack_quantizer.h"

using namespace pt;

namespace {

std::vector<std::string> setter_names(const QuantizerClass& c) {
  std::vector<std::string> n;
  for (const auto& s : c.setters) n.push_back(s.name);
  return n;
}

// The annotation table of the residual block after q annotated it.
std::vector<std::vector<std::string>> annotation_rows(Quantizer& q) {
  manual_seed(0);
  Model m = get_model("residual");
  GraphModule gm = export_module(m, example_inputs(m, 4));
  q.transform_for_annotation(gm);
  q.annotate(gm);
  return annotation_table(gm).rows;
}

}  // namespace

TEST_CASE("the shipped quantizers and config functions are registered under torchao's names", "[registry]") {
  CHECK(setter_names(quantizer_class("XNNPACKQuantizer")) ==
        std::vector<std::string>{"set_global", "set_operator_type", "set_module_type", "set_module_name"});
  CHECK(setter_names(quantizer_class("executorch.XNNPACKQuantizer")) == setter_names(quantizer_class("XNNPACKQuantizer")));
  CHECK(quantizer_class("executorch.XNNPACKQuantizer").name == "XNNPACKQuantizer");
  CHECK(setter_names(quantizer_class("X86InductorQuantizer")) ==
        std::vector<std::string>{"set_global", "set_module_name_qconfig", "set_module_type_qconfig",
                                 "set_function_type_qconfig"});
  const auto& set_module_name = quantizer_class("XNNPACKQuantizer").setters[3];
  REQUIRE(set_module_name.params.size() == 2);
  CHECK(set_module_name.params[0].name == "module_name");
  CHECK(set_module_name.params[0].kind == SetterParamKind::key);
  CHECK(set_module_name.params[1].kind == SetterParamKind::config);

  std::vector<std::string> ids;
  for (const auto& f : config_functions()) ids.push_back(f.id());
  for (const char* id : {"get_symmetric_quantization_config", "executorch.get_symmetric_quantization_config",
                         "get_default_x86_inductor_quantization_config"})
    CHECK(std::count(ids.begin(), ids.end(), id) == 1);
}

TEST_CASE("config functions: Python's defaults, keyword options, TypeErrors", "[registry]") {
  CHECK(call_config_function("get_symmetric_quantization_config", {}) == get_symmetric_quantization_config());
  SymmetricQuantizationOptions o;
  o.is_per_channel = true;
  o.act_qmin = -100;
  CHECK(call_config_function("get_symmetric_quantization_config", {{"act_qmin", int64_t{-100}}, {"is_per_channel", true}}) ==
        get_symmetric_quantization_config(o));
  CHECK(call_config_function("executorch.get_symmetric_quantization_config", {{"is_qat", true}}) ==
        get_symmetric_quantization_config({.is_qat = true}));
  CHECK(call_config_function("get_default_x86_inductor_quantization_config", {{"reduce_range", true}}) ==
        get_default_x86_inductor_quantization_config(false, false, true));

  CHECK_THROWS_WITH(call_config_function("get_symmetric_quantization_config", {{"is_per_chanel", true}}),
                    "get_symmetric_quantization_config() got an unexpected keyword argument 'is_per_chanel'");
  CHECK_THROWS_WITH(call_config_function("get_symmetric_quantization_config", {{"act_qmin", true}}),
                    Catch::Contains("argument 'act_qmin' must be int, got bool"));
  CHECK_THROWS_AS(call_config_function("get_nothing", {}), TypeError);
}

TEST_CASE("a description replays its calls on a new quantizer, which annotates as one set up by hand", "[registry]") {
  const QuantizationConfig cfg = get_symmetric_quantization_config({.is_per_channel = true});
  XNNPACKQuantizer by_hand;
  by_hand.set_global(cfg);
  by_hand.set_module_type("Conv2d", cfg);
  auto built = make_quantizer({"XNNPACKQuantizer", {{"set_global", {cfg}}, {"set_module_type", {std::string("Conv2d"), cfg}}}});
  auto* xnn = dynamic_cast<XNNPACKQuantizer*>(built.get());
  REQUIRE(xnn != nullptr);
  CHECK(xnn->global_config == cfg);
  CHECK(xnn->module_type_config.size() == 1);
  CHECK(annotation_rows(*built) == annotation_rows(by_hand));

  // A None config: applied where the setter takes an optional (ET), skipped where it takes a config
  // (the torchao copy's set_global), refused where the quantizer refuses it (set_module_name).
  auto none = make_quantizer({"XNNPACKQuantizer", {{"set_global", {std::nullopt}}}});
  CHECK_FALSE(dynamic_cast<XNNPACKQuantizer&>(*none).global_config.has_value());
  CHECK_THROWS_AS(make_quantizer({"XNNPACKQuantizer", {{"set_module_name", {std::string("fc1"), std::nullopt}}}}),
                  ValueError);

  // Calls run in the order they were made: X86's check against mixing QAT and PTQ skips the later one.
  const QuantizationConfig ptq = get_default_x86_inductor_quantization_config();
  const QuantizationConfig qat = get_default_x86_inductor_quantization_config(true);
  auto x86 = make_quantizer({"X86InductorQuantizer",
                             {{"set_function_type_qconfig", {std::string("torch.nn.functional.linear"), qat}},
                              {"set_global", {ptq}}}});
  CHECK_FALSE(dynamic_cast<X86InductorQuantizer&>(*x86).global_config().has_value());
}

TEST_CASE("bad descriptions are Python's TypeErrors", "[registry][errors]") {
  const QuantizationConfig cfg = get_symmetric_quantization_config();
  CHECK_THROWS_WITH(make_quantizer({"NopeQuantizer", {}}), Catch::Contains("unknown quantizer type 'NopeQuantizer'"));
  CHECK_THROWS_WITH(make_quantizer({"XNNPACKQuantizer", {{"set_module_name_qconfig", {std::string("x"), cfg}}}}),
                    "'XNNPACKQuantizer' object has no attribute 'set_module_name_qconfig'");
  CHECK_THROWS_WITH(make_quantizer({"XNNPACKQuantizer", {{"set_module_name", {cfg}}}}),
                    "XNNPACKQuantizer.set_module_name() takes 2 arguments (module_name, quantization_config), got 1");
  CHECK_THROWS_WITH(make_quantizer({"XNNPACKQuantizer", {{"set_global", {std::string("conv")}}}}),
                    "XNNPACKQuantizer.set_global(): argument 'quantization_config' must be a QuantizationConfig or None");
  CHECK_THROWS_AS(register_quantizer({"", "", nullptr, {}}), ValueError);
}
