// composable_quantizer.cpp — ComposableQuantizer (see composable_quantizer.h).
#include "pt2e/quantizers/composable_quantizer.h"

namespace pt {

std::optional<uint64_t> AnnotationMap::find(uint64_t node) const {
  const auto it = entries.find(node);
  return it == entries.end() ? std::nullopt : std::optional<uint64_t>(it->second);
}

ComposableQuantizer::ComposableQuantizer(std::vector<std::shared_ptr<Quantizer>> quantizers,
                                         std::vector<std::string> names, std::shared_ptr<AnnotationRecord> record)
    : quantizers_(std::move(quantizers)), names_(std::move(names)),
      graph_annotations_(record ? std::move(record) : std::make_shared<AnnotationMap>()) {
  for (size_t i = 0; i < quantizers_.size(); ++i)
    if (!quantizers_[i]) throw ValueError("ComposableQuantizer: quantizer " + std::to_string(i) + " is None");
  if (names_.empty())
    for (size_t i = 0; i < quantizers_.size(); ++i) names_.push_back("Quantizer" + std::to_string(i));
  if (names_.size() != quantizers_.size())
    throw ValueError("ComposableQuantizer: got " + std::to_string(names_.size()) + " names for " +
                     std::to_string(quantizers_.size()) + " quantizers");
}

void ComposableQuantizer::transform_for_annotation(GraphModule& gm) {
  for (const auto& q : quantizers_) q->transform_for_annotation(gm);
}

// Every node's annotation object must be the one recorded after earlier quantizers (and earlier annotate
// calls), or a new one on a node that had none.
void ComposableQuantizer::record_and_validate_annotations(const GraphModule& gm, const std::string& quantizer_name) {
  for (const Node* n : gm.graph.nodes()) {
    const std::shared_ptr<const NodeAnnotation>& current = n->meta.quantization_annotation;
    const std::optional<uint64_t> recorded = graph_annotations_->find(n->identity);
    if (current) {
      if (recorded && *recorded != current->identity)
        throw RuntimeError("Quantizer " + quantizer_name + " has changed annotations on node " + n->name);
      graph_annotations_->set(n->identity, current->identity);
    } else if (recorded) {
      throw RuntimeError("Quantizer " + quantizer_name + " has removed annotations on node " + n->name);
    }
  }
}

void ComposableQuantizer::annotate(GraphModule& gm) {
  for (size_t i = 0; i < quantizers_.size(); ++i) {
    quantizers_[i]->annotate(gm);
    record_and_validate_annotations(gm, names_[i]);
  }
}

}  // namespace pt
