// composable_quantizer.h — ComposableQuantizer: several quantizers applied as one (docs/algorithms.md;
// torchao torchao/quantization/pt2e/quantizer/composable_quantizer.py, restated).
//
//   auto relu_q = std::make_shared<pt::JsQuantizer>(annotate_relus);        // any Quantizer
//   auto xnn = std::make_shared<pt::XNNPACKQuantizer>();
//   xnn->set_global(pt::get_symmetric_quantization_config());
//   pt::ComposableQuantizer q({relu_q, xnn});                              // order matters
//   pt::GraphModule prepared = pt::prepare_pt2e(gm, q);
//
// transform_for_annotation runs every quantizer's, in order. annotate runs them in order; after each
// one it checks that no annotation an earlier quantizer left was replaced by another object or removed
// (RuntimeError "Quantizer <name> has changed annotations on node <node>" / "... has removed
// annotations on node <node>", as torchao). Editing an annotation in place (annotate_input_qspec_map,
// annotate_output_qspec) passes the check. Earlier quantizers win only because well-behaved annotators
// skip nodes whose annotation is `_annotated`. validate does nothing (torchao's is a no-op).
// The record of annotations lives as long as the quantizer, across annotate calls and graphs, as torchao's
// _graph_annotations (filled in __init__) does: annotating the same graph again with a quantizer that replaces
// annotations raises. It is kept by identity (graph.h new_identity: node → annotation object), never by address.
// A caller that outlives this object (the JS ComposableQuantizer, rebuilt for every call) passes its own record.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pt2e/quantizer.h"

namespace pt {

// ComposableQuantizer's record, torchao's _graph_annotations: which annotation object each node had, by identity.
struct AnnotationRecord {
  virtual ~AnnotationRecord() = default;
  virtual std::optional<uint64_t> find(uint64_t node) const = 0;  // the annotation's identity, if recorded
  virtual void set(uint64_t node, uint64_t annotation) = 0;
};
struct AnnotationMap : AnnotationRecord {
  std::map<uint64_t, uint64_t> entries;
  std::optional<uint64_t> find(uint64_t node) const override;
  void set(uint64_t node, uint64_t annotation) override { entries[node] = annotation; }
};

class ComposableQuantizer : public Quantizer {
 public:
  // `names` label the quantizers in error messages (default "Quantizer<i>"); ValueError for a null
  // quantizer or a names list of another length. `record` defaults to a new, empty one.
  explicit ComposableQuantizer(std::vector<std::shared_ptr<Quantizer>> quantizers,
                               std::vector<std::string> names = {}, std::shared_ptr<AnnotationRecord> record = nullptr);

  const std::vector<std::shared_ptr<Quantizer>>& quantizers() const { return quantizers_; }

  void transform_for_annotation(GraphModule& gm) override;
  void annotate(GraphModule& gm) override;
  void validate(const GraphModule& gm) const override { (void)gm; }

 private:
  void record_and_validate_annotations(const GraphModule& gm, const std::string& quantizer_name);

  std::vector<std::shared_ptr<Quantizer>> quantizers_;
  std::vector<std::string> names_;
  std::shared_ptr<AnnotationRecord> graph_annotations_;
};

}  // namespace pt
