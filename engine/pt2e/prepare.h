// prepare.h — prepare_pt2e / prepare_qat_pt2e: annotate a graph with a Quantizer, then insert the
// observers its annotations ask for (torchao quantize_pt2e.py + pt2e/prepare.py; docs/algorithms.md,
// prepare_pt2e).
//
//   pt::XNNPACKQuantizer q;
//   q.set_global(pt::get_symmetric_quantization_config({.is_per_channel = true}));
//   pt::GraphModule prepared = pt::prepare_pt2e(exported, q);   // `exported` is left unchanged
//   prepared.forward({batch});                                   // calibrate
//
// prepare_pt2e = copy → fold batch norms (graph/passes.h fold_bn) → transform_for_annotation →
// annotate → validate → prepare(). prepare_qat_pt2e = copy → transform_for_annotation → annotate →
// validate → _fuse_conv_bn_qat (pt2e/qat_utils.h: every conv → batch_norm becomes
// conv(x, w·sf) / sf [+ b] → batch_norm(training=True), so the weight fake-quant observes the BN-scaled
// weight) → prepare(is_qat). Batch norms stay (in training mode); use move_exported_model_to_train /
// _eval (graph/passes.h) to switch them, as torchao's QAT flow does before calibration / convert.
// torchao mutates its argument; we return the prepared copy instead, so a lesson can diff the stages.
//
// prepare():
// 1. specs: for each annotated node in graph order, one key per input_qspec_map entry (input, node)
//    (None specs too) and one for the node if output_qspec is set;
// 2. groups (union-find): Shared specs join their target; with allow_implicit_sharing an input edge
//    joins other users' edges of the same producer, then the producer's output, when the unwrapped
//    specs match on dtype, is_dynamic, quant_min, quant_max, qscheme, ch_axis, scale, zero_point;
// 3. one observer per group, built from the group's first key's spec (torchao _create_obs_or_fq_from_qspec:
//    make_observer with the spec's constructor kwargs overridden by every field of the spec, a None one
//    passed as None (ObserverArgs::none): dtype, quant_min, quant_max, qscheme, is_dynamic and, for a
//    class whose name has PerChannel, ch_axis; a FixedQParamsQuantizationSpec makes a FixedQParamsObserver,
//    wrapped in a FixedQParamsFakeQuantize under QAT; a DerivedQuantizationSpec its
//    DerivedObserverOrFakeQuantize), then quantizer.prepare_obs_or_fq_callback;
// 4. insertion over the original nodes: input edges get a call_module activation_post_process_<k>
//    (smallest free k) right after the argument unless the producer's output observer is the same
//    instance or another user already is an observer node with it; an output observer goes right
//    after a node whose meta.val is one tensor, and every other user is pointed at it.
// Errors: an annotation naming a node outside the graph, or a Shared / Derived spec naming an edge
// or node that has no spec, is a ValueError; a Shared spec whose target comes later in key order (so
// its observer does not exist yet) is a RuntimeError, as torchao's assertion; invalid spec ranges are
// ValueErrors.
#pragma once
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "pt2e/observer_module.h"
#include "pt2e/quantizer.h"

namespace pt {

GraphModule prepare_pt2e(const GraphModule& model, Quantizer& quantizer);
GraphModule prepare_qat_pt2e(const GraphModule& model, Quantizer& quantizer);

// The steps of prepare(), for lessons and tests.
using EdgeOrNodeToQSpec = std::vector<std::pair<EdgeOrNode, OptionalQSpec>>;  // key order
EdgeOrNodeToQSpec get_edge_or_node_to_qspec(const GraphModule& gm);
std::vector<std::pair<EdgeOrNode, int>> get_edge_or_node_to_group_id(const EdgeOrNodeToQSpec& specs);
// Inserts observers into gm in place (gm must already be annotated).
void prepare(GraphModule& gm, bool is_qat, Quantizer* quantizer = nullptr);

}  // namespace pt
