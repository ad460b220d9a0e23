// quantizer.cpp — edges, specs and annotations (see quantizer.h).
#include "pt2e/quantizer.h"

#include <algorithm>
#include <functional>

namespace pt {

// ---- edges --------------------------------------------------------------------------------------

std::string EdgeOrNode::str() const {
  const std::string a = node ? node->name : "None";
  return user ? "(" + a + ", " + user->name + ")" : a;
}

bool EdgeOrNode::operator<(const EdgeOrNode& o) const {
  const std::less<const Node*> lt;
  if (node != o.node) return lt(node, o.node);
  return lt(user, o.user);
}

// ---- specs --------------------------------------------------------------------------------------

static void check_range_and_axis(const std::optional<int64_t>& qmin, const std::optional<int64_t>& qmax,
                                 const std::optional<int64_t>& ch_axis, const char* cls) {
  if (qmin && qmax && *qmin > *qmax)
    throw ValueError(std::string(cls) + ": quant_min " + std::to_string(*qmin) + " must be <= quant_max " +
                     std::to_string(*qmax));
  if (ch_axis && *ch_axis < 0)
    throw ValueError(std::string(cls) + ": ch_axis must be >= 0, got " + std::to_string(*ch_axis));
}

void QuantizationSpec::validate() const { check_range_and_axis(quant_min, quant_max, ch_axis, "QuantizationSpec"); }

bool QuantizationSpec::operator==(const QuantizationSpec& o) const {
  return dtype == o.dtype && quantized_dtype == o.quantized_dtype && observer_or_fake_quant_ctr == o.observer_or_fake_quant_ctr &&
         quant_min == o.quant_min && quant_max == o.quant_max && qscheme == o.qscheme && ch_axis == o.ch_axis &&
         is_dynamic == o.is_dynamic;
}

bool DerivedQuantizationSpec::operator==(const DerivedQuantizationSpec& o) const {
  return derived_from == o.derived_from && dtype == o.dtype && quantized_dtype == o.quantized_dtype && quant_min == o.quant_min &&
         quant_max == o.quant_max && qscheme == o.qscheme && ch_axis == o.ch_axis && is_dynamic == o.is_dynamic;
}

const char* spec_kind_name(const OptionalQSpec& spec) {
  if (!spec) return "NoneType";
  switch (spec->index()) {
    case 0: return "Spec";
    case 1: return "FixedSpec";
    case 2: return "SharedSpec";
    default: return "DerivedSpec";
  }
}

void validate_spec(const QuantizationSpecBase& spec) {
  if (const auto* s = std::get_if<QuantizationSpec>(&spec)) s->validate();
  if (const auto* f = std::get_if<FixedQParamsQuantizationSpec>(&spec)) {
    check_range_and_axis(f->quant_min, f->quant_max, std::nullopt, "FixedQParamsQuantizationSpec");
    if (!(f->scale > 0)) throw ValueError("FixedQParamsQuantizationSpec: scale must be > 0");
  }
  if (const auto* d = std::get_if<DerivedQuantizationSpec>(&spec)) {
    check_range_and_axis(d->quant_min, d->quant_max, d->ch_axis, "DerivedQuantizationSpec");
    if (!d->derive_qparams_fn) throw ValueError("DerivedQuantizationSpec: derive_qparams_fn is not set");
  }
  if (const auto* sh = std::get_if<SharedQuantizationSpec>(&spec))
    if (!sh->edge_or_node.node) throw ValueError("SharedQuantizationSpec: edge_or_node names no node");
}

// ---- annotations --------------------------------------------------------------------------------

const OptionalQSpec* QuantizationAnnotation::input_qspec(const Node* input) const {
  for (const auto& [n, spec] : input_qspec_map)
    if (n == input) return &spec;
  return nullptr;
}

void QuantizationAnnotation::set_input_qspec(Node* input, OptionalQSpec spec) {
  for (auto& [n, s] : input_qspec_map)
    if (n == input) {
      s = std::move(spec);
      return;
    }
  input_qspec_map.emplace_back(input, std::move(spec));
}

std::vector<std::pair<std::string, std::string>> QuantizationAnnotation::input_spec_labels() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [n, spec] : input_qspec_map) out.emplace_back(n->name, spec_kind_name(spec));
  return out;
}

std::string QuantizationAnnotation::output_spec_label() const { return spec_kind_name(output_qspec); }

// A spec with its node references mapped; nullopt when one of them maps to nullptr (the node is gone).
static std::optional<OptionalQSpec> remap_spec(const OptionalQSpec& spec, const std::function<Node*(const Node*)>& map) {
  if (!spec) return spec;
  bool gone = false;
  const auto remap = [&](EdgeOrNode& e) {
    if (e.node && !(e.node = map(e.node))) gone = true;
    if (e.user && !(e.user = map(e.user))) gone = true;
  };
  OptionalQSpec out = spec;
  if (auto* sh = std::get_if<SharedQuantizationSpec>(&*out)) remap(sh->edge_or_node);
  if (auto* d = std::get_if<DerivedQuantizationSpec>(&*out))
    for (EdgeOrNode& e : d->derived_from) remap(e);
  if (gone) return std::nullopt;
  return out;
}

std::shared_ptr<const NodeAnnotation> QuantizationAnnotation::with_nodes_remapped(
    const std::function<Node*(const Node*)>& map) const {
  auto copy = std::make_shared<QuantizationAnnotation>(*this);
  copy->input_qspec_map.clear();
  for (const auto& [n, spec] : input_qspec_map) {
    Node* m = map(n);
    std::optional<OptionalQSpec> s = remap_spec(spec, map);
    if (m && s) copy->input_qspec_map.emplace_back(m, std::move(*s));
  }
  copy->output_qspec = remap_spec(output_qspec, map).value_or(std::nullopt);
  return copy;
}

static bool spec_refers_to(const OptionalQSpec& spec, const Node* node) {
  if (!spec) return false;
  const auto names = [node](const EdgeOrNode& e) { return e.node == node || e.user == node; };
  if (const auto* sh = std::get_if<SharedQuantizationSpec>(&*spec)) return names(sh->edge_or_node);
  if (const auto* d = std::get_if<DerivedQuantizationSpec>(&*spec))
    return std::any_of(d->derived_from.begin(), d->derived_from.end(), names);
  return false;
}

bool QuantizationAnnotation::refers_to(const Node* node) const {
  return spec_refers_to(output_qspec, node) ||
         std::any_of(input_qspec_map.begin(), input_qspec_map.end(),
                     [node](const auto& entry) { return entry.first == node || spec_refers_to(entry.second, node); });
}

QuantizationAnnotation* get_annotation(Node* node) {
  // Annotations are created non-const by ensure_annotation; Meta stores them behind the read-only
  // interface the graph room uses.
  auto* a = dynamic_cast<const QuantizationAnnotation*>(node->meta.quantization_annotation.get());
  return const_cast<QuantizationAnnotation*>(a);
}

const QuantizationAnnotation* get_annotation(const Node* node) {
  return dynamic_cast<const QuantizationAnnotation*>(node->meta.quantization_annotation.get());
}

QuantizationAnnotation& ensure_annotation(Node* node) {
  if (QuantizationAnnotation* a = get_annotation(node)) return *a;
  if (node->meta.quantization_annotation)
    throw TypeError("node " + node->name + " carries an annotation that is not a QuantizationAnnotation");
  auto a = std::make_shared<QuantizationAnnotation>();
  QuantizationAnnotation& ref = *a;
  node->meta.quantization_annotation = std::move(a);
  return ref;
}

}  // namespace pt
