// quantizer.h — the vocabulary a Quantizer speaks to prepare_pt2e: specs, annotations, the
// Quantizer interface, QuantizationConfig (docs/algorithms.md, Specs and annotations; torchao
// torchao/quantization/pt2e/quantizer/quantizer.py + utils.py, restated).
//
// A Quantizer walks a GraphModule and writes a QuantizationAnnotation on the nodes it wants
// quantized: one spec per input edge (input_qspec_map, keyed by the input Node*, a None spec allowed)
// and one for the output. prepare_pt2e (pt2e/prepare.h) turns the specs into observers. The helpers
// that write annotations (annotate_input_qspec_map, ...) are in pt2e/quantizer_utils.h.
//
//   pt::QuantizationSpec act{pt::DType::Int8, {"HistogramObserver", eps_args}, -128, 127,
//                            pt::QScheme::per_tensor_affine};
//   pt::annotate_input_qspec_map(conv, x, act);          // creates the annotation or edits it in place
//   pt::annotate_output_qspec(relu, act);
//   pt::get_annotation(relu)->_annotated = true;
//   pt::annotate_output_qspec(add, pt::SharedQuantizationSpec{pt::EdgeOrNode::edge(x, add)});
//
//   class ReluOutputQuantizer : public pt::Quantizer {        // a rule-based quantizer (seed M03)
//     void annotate(pt::GraphModule& gm) override { ... }
//     void validate(const pt::GraphModule& gm) const override {}
//   };
//
// Specs are plain values (std::variant over the four kinds); QuantizationSpec compares by value
// like torchao's frozen dataclass. Nodes are referenced by pointer, so an annotation belongs to one
// graph; GraphModule::clone() remaps it to the copy, and erasing a node drops what annotations say
// about it (Graph::erase_node), so no annotation holds a dangling pointer. Errors: an invalid range or a negative ch_axis
// in a spec is a ValueError (torchao's __post_init__), raised by the helpers and by prepare_pt2e.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "graph/graph.h"
#include "quant/observer.h"
#include "quant/qparams.h"

namespace pt {

// An edge (producer -> consumer) or a node's output. torchao: Tuple[Node, Node] | Node.
struct EdgeOrNode {
  Node* node = nullptr;  // the producer (for an output: the node itself)
  Node* user = nullptr;  // the consumer of an edge; nullptr for a node output
  static EdgeOrNode edge(Node* producer, Node* consumer) { return {producer, consumer}; }
  static EdgeOrNode output(Node* n) { return {n, nullptr}; }
  bool is_edge() const { return user != nullptr; }
  std::string str() const;  // "(x, conv2d)" or "relu"
  bool operator==(const EdgeOrNode& o) const { return node == o.node && user == o.user; }
  bool operator<(const EdgeOrNode& o) const;  // by pointer; for map keys only
};

// `observer_or_fake_quant_ctr`: an observer / fake-quantize class by its torchao name plus the
// kwargs bound with .with_args(...) (e.g. eps=2^-12). prepare_pt2e adds the spec's fields.
struct ObserverOrFakeQuantizeConstructor {
  std::string name;     // "HistogramObserver", "FusedMovingAvgObsFakeQuantize", ...
  ObserverArgs kwargs;  // with_args keywords
  bool operator==(const ObserverOrFakeQuantizeConstructor& o) const = default;
};

struct QuantizationSpec {
  DType dtype = DType::Int8;
  ObserverOrFakeQuantizeConstructor observer_or_fake_quant_ctr;
  std::optional<int64_t> quant_min;
  std::optional<int64_t> quant_max;
  std::optional<QScheme> qscheme;
  std::optional<int64_t> ch_axis;
  bool is_dynamic = false;
  bool quantized_dtype = false;  // dtype spelled torch.qint8 / quint8 / qint32 (core/tensor.h)
  void validate() const;  // ValueError: quant_min > quant_max, or ch_axis < 0
  bool operator==(const QuantizationSpec& o) const;
};

struct FixedQParamsQuantizationSpec {
  DType dtype = DType::UInt8;
  double scale = 1.0;
  int64_t zero_point = 0;
  std::optional<int64_t> quant_min;
  std::optional<int64_t> quant_max;
  std::optional<QScheme> qscheme;
  bool is_dynamic = false;
  bool quantized_dtype = false;
  bool operator==(const FixedQParamsQuantizationSpec& o) const = default;
};

// Reuse the observer of another edge or node output (which must come earlier in key order).
struct SharedQuantizationSpec {
  EdgeOrNode edge_or_node;
  bool operator==(const SharedQuantizationSpec& o) const = default;
};

// qparams computed from other positions' observers, e.g. an int32 bias: act_scale * weight_scale.
using DeriveQParamsFn = std::function<QParams(const std::vector<ObserverBase*>& observers)>;
struct DerivedQuantizationSpec {
  std::vector<EdgeOrNode> derived_from;
  DeriveQParamsFn derive_qparams_fn;
  DType dtype = DType::Int32;
  std::optional<int64_t> quant_min;
  std::optional<int64_t> quant_max;
  std::optional<QScheme> qscheme;
  std::optional<int64_t> ch_axis;
  bool is_dynamic = false;
  bool quantized_dtype = false;
  // Compares every field but the function (std::function has no equality).
  bool operator==(const DerivedQuantizationSpec& o) const;
};

using QuantizationSpecBase =
    std::variant<QuantizationSpec, FixedQParamsQuantizationSpec, SharedQuantizationSpec, DerivedQuantizationSpec>;
using OptionalQSpec = std::optional<QuantizationSpecBase>;  // nullopt = Python None

const char* spec_kind_name(const OptionalQSpec& spec);  // "Spec", "FixedSpec", "SharedSpec", "DerivedSpec", "NoneType"
void validate_spec(const QuantizationSpecBase& spec);   // ValueError as QuantizationSpec::validate

// node.meta["quantization_annotation"].
struct QuantizationAnnotation : NodeAnnotation {
  std::vector<std::pair<Node*, OptionalQSpec>> input_qspec_map;  // insertion order, torchao's dict
  OptionalQSpec output_qspec;
  bool allow_implicit_sharing = true;
  bool _annotated = false;

  const OptionalQSpec* input_qspec(const Node* input) const;  // nullptr when the input is not a key
  void set_input_qspec(Node* input, OptionalQSpec spec);      // replaces the value or appends a key

  // NodeAnnotation (report tables, graph clone).
  std::vector<std::pair<std::string, std::string>> input_spec_labels() const override;
  std::string output_spec_label() const override;
  bool annotated() const override { return _annotated; }
  // A node that maps to nullptr is gone (Graph::erase_node): its input_qspec_map entry is dropped, and
  // so is every spec that names it (a Shared / Derived spec's edge or node): that input entry goes, an
  // output spec becomes None. (torch.fx leaves such keys in place and torchao's prepare never finds them
  // among a node's arguments, so they make no observer either; a Shared spec naming an erased node
  // would fail in torchao's prepare, here it no longer exists.)
  std::shared_ptr<const NodeAnnotation> with_nodes_remapped(
      const std::function<Node*(const Node*)>& map) const override;
  bool refers_to(const Node* node) const override;
};

QuantizationAnnotation* get_annotation(Node* node);              // nullptr when not annotated
const QuantizationAnnotation* get_annotation(const Node* node);
QuantizationAnnotation& ensure_annotation(Node* node);           // creates an empty one if missing

// The observers prepare_pt2e created, per edge / node (one instance per sharing group).
using EdgeOrNodeToObsOrFq = std::map<EdgeOrNode, std::shared_ptr<ObserverBase>>;

class Quantizer {
 public:
  virtual ~Quantizer() = default;
  // Rewrites the graph before annotation (default: nothing). In place.
  virtual void transform_for_annotation(GraphModule& gm) { (void)gm; }
  virtual void annotate(GraphModule& gm) = 0;
  // Checks the annotated graph can be handled; throw a typed error if not.
  virtual void validate(const GraphModule& gm) const = 0;
  // Called after observers are created and grouped, before insertion; may edit the map.
  virtual void prepare_obs_or_fq_callback(GraphModule& gm, EdgeOrNodeToObsOrFq& edge_or_node_to_obs_or_fq) {
    (void)gm;
    (void)edge_or_node_to_obs_or_fq;
  }
};

// A backend's choice of specs for one kind of region (torchao quantizer/utils.py).
struct QuantizationConfig {
  std::optional<QuantizationSpec> input_activation;
  std::optional<QuantizationSpec> output_activation;
  std::optional<QuantizationSpec> weight;
  std::optional<QuantizationSpec> bias;
  bool is_qat = false;
  bool operator==(const QuantizationConfig& o) const = default;
};
// Its getters (get_input_act_qspec, ...) and the helpers annotators use are in pt2e/quantizer_utils.h.

}  // namespace pt
