// specs.cpp — fuzz target: spec and quantizer configurations (engine/pt2e/quantizer.h, quantizer_registry.h):
// QuantizationSpecs of any fields checked (validate_spec), the registered config functions called with any
// keywords (known or not, of the right kind or not), and every registered quantizer (or an unknown id) built
// from any sequence of setter calls — any method name, any number of arguments, keys and configs in any
// place, None configs — then, when it builds, annotating and preparing a zoo graph.
#include "graph_input.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizer_registry.h"
#include "quant_input.h"

using namespace pt;

namespace {

std::optional<QuantizationConfig> any_config(fuzz::Input& in) {
  if (in.byte() % 4 == 0) return std::nullopt;
  if (in.flag()) {  // a registered config function, with keywords
    std::vector<std::string> ids;
    for (const ConfigFunction& f : config_functions()) ids.push_back(f.id());
    const std::string id = in.name(ids);
    std::vector<std::pair<std::string, KeywordValue>> kw;
    std::vector<std::string> names = {"is_per_channel", "is_qat", "is_dynamic", "weight_qmin", "weight_qmax", "act_qmin", "act_qmax", "reduce_range"};
    for (const ConfigFunction& f : config_functions())
      for (const ConfigKeyword& k : f.keywords) names.push_back(k.name);
    for (int i = 0, n = static_cast<int>(in.range(0, 4)); i < n; ++i) {
      if (in.flag()) kw.emplace_back(in.name(names), in.flag());
      else kw.emplace_back(in.name(names), in.edgy_int());
    }
    return call_config_function(id, kw);
  }
  QuantizationConfig c;
  auto spec = [&]() -> std::optional<QuantizationSpec> { return in.flag() ? std::optional(fuzz::quantization_spec(in)) : std::nullopt; };
  c.input_activation = spec();
  c.output_activation = spec();
  c.weight = spec();
  c.bias = spec();
  c.is_qat = in.flag();
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  std::vector<std::string> ids, methods, keys = {"conv1", "fc", "layer1.0", "", "aten.conv2d.default", "torch.nn.Conv2d", "aten.linear.default", "relu"};
  for (const QuantizerClass& c : quantizer_classes()) {
    ids.push_back(c.id());
    for (const QuantizerSetter& s : c.setters) methods.push_back(s.name);
  }
  return fuzz::expect_typed([&] {
    fuzz::expect_typed([&] { validate_spec(fuzz::quantization_spec(in)); });
    QuantizerDescription d{in.name(ids), {}};
    for (int i = 0, n = static_cast<int>(in.range(0, 4)); i < n; ++i) {
      QuantizerCall& call = d.calls.emplace_back();
      call.method = in.name(methods);
      for (int j = 0, m = static_cast<int>(in.range(0, 3)); j < m; ++j) {
        if (in.byte() % 3 == 0) call.args.emplace_back(in.name(keys));
        else call.args.emplace_back(any_config(in));
      }
    }
    std::shared_ptr<Quantizer> q = make_quantizer(d);
    auto [m, gm] = fuzz::zoo_graph(in);
    GraphModule prepared = in.flag() ? prepare_pt2e(gm, *q) : prepare_qat_pt2e(gm, *q);
    prepared.forward(example_inputs(m, 1));
  });
}
