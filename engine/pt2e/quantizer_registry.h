// quantizer_registry.h — backend quantizers and their config functions, registered once by name, so a
// front end (the JS bindings, web/bindings/bind_pt2e.cpp; the JS classes, web/api/pt2e.js) can build
// any of them from plain data without knowing one of them.
//
// A backend quantizer registers itself at the end of its own .cpp, from a static initializer (the
// engine's libraries are linked whole, see CMakeLists.txt, so nothing else needs to name it):
//
//   namespace {
//   [[maybe_unused]] const bool registered = [] {
//     using Q = X86InductorQuantizer;
//     register_quantizer(quantizer_class_of<Q>(
//         "X86InductorQuantizer", "",
//         {setter("set_global", {"quantization_config"}, &Q::set_global),
//          setter("set_module_name_qconfig", {"module_name", "quantization_config"}, &Q::set_module_name_qconfig)}));
//     using O = X86ConfigOptions;   // a struct of bool / int64_t members with the Python defaults
//     register_config_function(config_function<O>("get_default_x86_inductor_quantization_config", "",
//         {option("is_qat", &O::is_qat), option("reduce_range", &O::reduce_range)},
//         [](const O& o) { return get_default_x86_inductor_quantization_config(o.is_qat, false, o.reduce_range); }));
//     return true;
//   }();
//   }  // namespace
//
// and is then pt.X86InductorQuantizer in JS (ns "executorch" would give pt.executorch.<name>), with one
// method per setter that records the call; prepare_pt2e hands the recorded calls back here:
//
//   pt::QuantizerDescription d{"XNNPACKQuantizer", {{"set_global", {config}}}};
//   std::shared_ptr<pt::Quantizer> q = pt::make_quantizer(d);   // a new XNNPACKQuantizer, set_global(config) applied
//   pt::QuantizationConfig c = pt::call_config_function("get_symmetric_quantization_config", {{"is_per_channel", true}});
//
// Calls are replayed in the order they were made, as Python runs them (X86InductorQuantizer's checks
// on mixed QAT / dynamic configs depend on it). Errors: an unknown quantizer, setter or config function,
// a call with the wrong number or kind of arguments, an unknown keyword or a keyword of the wrong kind
// are TypeErrors named as Python names them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/error.h"
#include "pt2e/quantizer.h"

namespace pt {

// ---- quantizers ----------------------------------------------------------------------------------

// One argument of a setter call: a string key (a module name, a module type, an operator) or a config
// (nullopt = Python None).
using SetterArg = std::variant<std::string, std::optional<QuantizationConfig>>;
enum class SetterParamKind { key, config };
struct SetterParam {
  std::string name;  // "module_name", "quantization_config"
  SetterParamKind kind;
};

// One setter method, e.g. set_module_name(module_name, quantization_config).
struct QuantizerSetter {
  std::string name;
  std::vector<SetterParam> params;
  // Applies a call whose arguments make_quantizer has checked against params.
  std::function<void(Quantizer& q, const std::vector<SetterArg>& args)> apply;
};

struct QuantizerClass {
  std::string name;  // torchao's class name: "XNNPACKQuantizer"
  std::string ns;    // where JS shows it: "" = pt.<name>, "executorch" = pt.executorch.<name>
  std::function<std::shared_ptr<Quantizer>()> make;
  std::vector<QuantizerSetter> setters;
  std::string id() const { return ns.empty() ? name : ns + "." + name; }  // "executorch.XNNPACKQuantizer"
};

// A quantizer as plain data: its class id and the setter calls made on it, in order.
struct QuantizerCall {
  std::string method;
  std::vector<SetterArg> args;
};
struct QuantizerDescription {
  std::string type;  // QuantizerClass::id()
  std::vector<QuantizerCall> calls;
};

// The entry of quantizer class Q (its factory: a default-constructed Q).
template <class Q>
QuantizerClass quantizer_class_of(std::string name, std::string ns, std::vector<QuantizerSetter> setters) {
  return {std::move(name), std::move(ns), [] { return std::make_shared<Q>(); }, std::move(setters)};
}
void register_quantizer(QuantizerClass cls);                    // adds or replaces by id; ValueError if incomplete
const std::vector<QuantizerClass>& quantizer_classes();          // registration order
const QuantizerClass& quantizer_class(const std::string& id);    // TypeError for an unknown id
std::shared_ptr<Quantizer> make_quantizer(const QuantizerDescription& description);

// Adapts a setter method to a QuantizerSetter. The method takes a config as `const QuantizationConfig&`
// or `std::optional<QuantizationConfig>` (by value or const&), after any string keys. A None config for
// a method that takes no optional is not applied: such a method has no None to store (the torchao
// copy's set_global, set_operator_type, set_module_type).
template <class Q, class R, class C>
QuantizerSetter setter(std::string name, std::vector<std::string> param_names, R& (Q::*method)(C));
template <class Q, class R, class C>
QuantizerSetter setter(std::string name, std::vector<std::string> param_names, R& (Q::*method)(const std::string&, C));

// The setters torchao's XNNPACKQuantizer and ExecuTorch's share: set_global(quantization_config),
// set_operator_type / set_module_type / set_module_name(key, quantization_config).
template <class Q>
std::vector<QuantizerSetter> xnnpack_style_setters() {
  return {setter("set_global", {"quantization_config"}, &Q::set_global),
          setter("set_operator_type", {"operator_type", "quantization_config"}, &Q::set_operator_type),
          setter("set_module_type", {"module_type", "quantization_config"}, &Q::set_module_type),
          setter("set_module_name", {"module_name", "quantization_config"}, &Q::set_module_name)};
}

// ---- config functions ----------------------------------------------------------------------------

// A keyword option of a config function; the kind of its default is the kind it accepts.
using KeywordValue = std::variant<bool, int64_t>;
struct ConfigKeyword {
  std::string name;
  KeywordValue default_value;
};

struct ConfigFunction {
  std::string name;  // "get_symmetric_quantization_config"
  std::string ns;    // as QuantizerClass::ns
  std::vector<ConfigKeyword> keywords;
  // One value per keyword, in keyword order (defaults filled in).
  std::function<QuantizationConfig(const std::vector<KeywordValue>& values)> make;
  std::string id() const { return ns.empty() ? name : ns + "." + name; }
};

void register_config_function(ConfigFunction fn);                // adds or replaces by id; ValueError if incomplete
const std::vector<ConfigFunction>& config_functions();           // registration order
// Calls a config function with keyword arguments (any subset, any order). TypeError for an unknown
// function, an unknown keyword or a value of another kind than the keyword's default.
QuantizationConfig call_config_function(const std::string& id,
                                        const std::vector<std::pair<std::string, KeywordValue>>& kwargs);

// Builds a ConfigFunction over an options struct: each keyword is a bool or int64_t member, made with
// option(name, &Options::member); its value in a default-constructed Options is the keyword's default.
template <class Options>
struct OptionField {
  std::string name;
  KeywordValue default_value;
  std::function<void(Options&, const KeywordValue&)> assign;
};
template <class Options, class T>
OptionField<Options> option(std::string name, T Options::*member);
template <class Options>
ConfigFunction config_function(std::string name, std::string ns, std::vector<OptionField<Options>> fields,
                               std::function<QuantizationConfig(const Options&)> fn);

// ---- template definitions ------------------------------------------------------------------------

namespace registry_detail {
// Calls f with the config as a setter of parameter type C takes it.
template <class C, class F>
void with_config(const std::optional<QuantizationConfig>& config, F&& f) {
  if constexpr (std::is_same_v<std::decay_t<C>, QuantizationConfig>) {
    if (config) f(*config);
  } else {
    f(config);
  }
}
inline const std::optional<QuantizationConfig>& config_arg(const SetterArg& a) {
  return std::get<std::optional<QuantizationConfig>>(a);
}
}  // namespace registry_detail

template <class Q, class R, class C>
QuantizerSetter setter(std::string name, std::vector<std::string> param_names, R& (Q::*method)(C)) {
  if (param_names.size() != 1) throw ValueError("setter " + name + ": expected one parameter name (the config)");
  return {std::move(name), {{param_names[0], SetterParamKind::config}},
          [method](Quantizer& q, const std::vector<SetterArg>& a) {
            registry_detail::with_config<C>(registry_detail::config_arg(a[0]),
                                            [&](const auto& c) { (dynamic_cast<Q&>(q).*method)(c); });
          }};
}

template <class Q, class R, class C>
QuantizerSetter setter(std::string name, std::vector<std::string> param_names,
                       R& (Q::*method)(const std::string&, C)) {
  if (param_names.size() != 2) throw ValueError("setter " + name + ": expected two parameter names (key, config)");
  return {std::move(name), {{param_names[0], SetterParamKind::key}, {param_names[1], SetterParamKind::config}},
          [method](Quantizer& q, const std::vector<SetterArg>& a) {
            const std::string& key = std::get<std::string>(a[0]);
            registry_detail::with_config<C>(registry_detail::config_arg(a[1]),
                                            [&](const auto& c) { (dynamic_cast<Q&>(q).*method)(key, c); });
          }};
}

template <class Options, class T>
OptionField<Options> option(std::string name, T Options::*member) {
  static_assert(std::is_same_v<T, bool> || std::is_same_v<T, int64_t>, "a config keyword is a bool or an int64_t");
  return {std::move(name), Options{}.*member,
          [member](Options& o, const KeywordValue& v) { o.*member = std::get<T>(v); }};
}

template <class Options>
ConfigFunction config_function(std::string name, std::string ns, std::vector<OptionField<Options>> fields,
                               std::function<QuantizationConfig(const Options&)> fn) {
  ConfigFunction f{std::move(name), std::move(ns), {}, nullptr};
  for (const auto& field : fields) f.keywords.push_back({field.name, field.default_value});
  f.make = [fields, fn](const std::vector<KeywordValue>& values) {
    Options o{};
    for (size_t i = 0; i < fields.size(); ++i) fields[i].assign(o, values[i]);
    return fn(o);
  };
  return f;
}

}  // namespace pt
