// quantizer_registry.cpp — the registries of backend quantizers and config functions (see
// quantizer_registry.h), and the checks a call from plain data passes before it reaches a quantizer.
#include "pt2e/quantizer_registry.h"

#include <algorithm>

namespace pt {

namespace {

template <class T> std::vector<T>& registry() {
  static std::vector<T> entries;
  return entries;
}

// Adds or replaces by id, as register_observer does by name.
template <class T> void add_or_replace(T entry) {
  auto& r = registry<T>();
  for (auto& existing : r)
    if (existing.id() == entry.id()) {
      existing = std::move(entry);
      return;
    }
  r.push_back(std::move(entry));
}

template <class T> std::string known_ids() {
  std::string known;
  for (const auto& e : registry<T>()) known += (known.empty() ? "" : ", ") + e.id();
  return known;
}

const char* kind_name(SetterParamKind k) { return k == SetterParamKind::key ? "a string" : "a QuantizationConfig or None"; }
const char* kind_name(const KeywordValue& v) { return std::holds_alternative<bool>(v) ? "bool" : "int"; }

std::string param_list(const QuantizerSetter& s) {
  std::string list;
  for (const auto& p : s.params) list += (list.empty() ? "" : ", ") + p.name;
  return list;
}

// Python's TypeErrors for a call with the wrong number or kind of positional arguments.
void check_call(const QuantizerClass& cls, const QuantizerSetter& s, const QuantizerCall& call) {
  const std::string fn = cls.name + "." + s.name + "()";
  if (call.args.size() != s.params.size())
    throw TypeError(fn + " takes " + std::to_string(s.params.size()) + " argument" + (s.params.size() == 1 ? "" : "s") +
                    " (" + param_list(s) + "), got " + std::to_string(call.args.size()));
  for (size_t i = 0; i < s.params.size(); ++i) {
    const bool is_key = std::holds_alternative<std::string>(call.args[i]);
    if (is_key != (s.params[i].kind == SetterParamKind::key))
      throw TypeError(fn + ": argument '" + s.params[i].name + "' must be " + kind_name(s.params[i].kind));
  }
}

const QuantizerSetter& setter_of(const QuantizerClass& cls, const std::string& method) {
  for (const auto& s : cls.setters)
    if (s.name == method) return s;
  throw TypeError("'" + cls.name + "' object has no attribute '" + method + "'");
}

}  // namespace

// ---- quantizers ----------------------------------------------------------------------------------

void register_quantizer(QuantizerClass cls) {
  if (cls.name.empty() || !cls.make) throw ValueError("register_quantizer: a quantizer needs a name and a factory");
  for (const auto& s : cls.setters)
    if (s.name.empty() || !s.apply) throw ValueError("register_quantizer: " + cls.name + " has a setter without a name or body");
  add_or_replace(std::move(cls));
}

const std::vector<QuantizerClass>& quantizer_classes() { return registry<QuantizerClass>(); }

const QuantizerClass& quantizer_class(const std::string& id) {
  for (const auto& c : registry<QuantizerClass>())
    if (c.id() == id) return c;
  throw TypeError("unknown quantizer type '" + id + "': expected one of " + known_ids<QuantizerClass>());
}

std::shared_ptr<Quantizer> make_quantizer(const QuantizerDescription& description) {
  const QuantizerClass& cls = quantizer_class(description.type);
  for (const auto& call : description.calls) check_call(cls, setter_of(cls, call.method), call);
  std::shared_ptr<Quantizer> q = cls.make();
  for (const auto& call : description.calls) setter_of(cls, call.method).apply(*q, call.args);
  return q;
}

// ---- config functions ----------------------------------------------------------------------------

void register_config_function(ConfigFunction fn) {
  if (fn.name.empty() || !fn.make) throw ValueError("register_config_function: a config function needs a name and a body");
  add_or_replace(std::move(fn));
}

const std::vector<ConfigFunction>& config_functions() { return registry<ConfigFunction>(); }

QuantizationConfig call_config_function(const std::string& id,
                                        const std::vector<std::pair<std::string, KeywordValue>>& kwargs) {
  const auto& r = registry<ConfigFunction>();
  auto fn = std::find_if(r.begin(), r.end(), [&](const ConfigFunction& f) { return f.id() == id; });
  if (fn == r.end()) throw TypeError("unknown config function '" + id + "': expected one of " + known_ids<ConfigFunction>());
  std::vector<KeywordValue> values;
  for (const auto& k : fn->keywords) values.push_back(k.default_value);
  for (const auto& kwarg : kwargs) {
    const auto& [key, value] = kwarg;
    auto k = std::find_if(fn->keywords.begin(), fn->keywords.end(),
                          [&](const ConfigKeyword& c) { return c.name == kwarg.first; });
    if (k == fn->keywords.end()) throw unexpected_keyword_argument(fn->name, key);
    if (value.index() != k->default_value.index())
      throw TypeError(fn->name + "(): argument '" + key + "' must be " + kind_name(k->default_value) + ", got " +
                      kind_name(value));
    values[k - fn->keywords.begin()] = value;
  }
  return fn->make(values);
}

}  // namespace pt
