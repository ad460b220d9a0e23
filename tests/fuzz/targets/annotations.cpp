// annotations.cpp — fuzz target: a learner's annotations (engine/pt2e/prepare.h, convert.h, quantizer_utils.h):
// on a random zoo graph, a quantizer written like a lesson's (JsQuantizer) writes random input_qspec_map
// entries (keys that are the node's inputs, or not) and output_qspecs of every spec kind — shared specs that
// point at any node or edge, derived specs whose function returns any qparams, fixed qparams of any value —
// and sets _annotated / allow_implicit_sharing at random; then prepare_pt2e or prepare_qat_pt2e, calibration
// runs, convert_pt2e (folding quantize or not) and a run of the converted graph.
#include "graph_input.h"
#include "pt2e/convert.h"
#include "pt2e/prepare.h"
#include "pt2e/quantizer_utils.h"
#include "pt2e/quantizers/js_quantizer.h"
#include "quant_input.h"

using namespace pt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  return fuzz::expect_typed([&] {
    auto [m, gm] = fuzz::zoo_graph(in);
    JsQuantizer q([&](GraphModule& g) {
      const std::vector<Node*> nodes = g.graph.nodes();
      for (int i = 0, n = static_cast<int>(in.range(0, 12)); i < n; ++i) {
        Node* node = in.pick(nodes);
        const std::vector<Node*> inputs = node->all_input_nodes();
        if (in.flag()) annotate_output_qspec(node, fuzz::any_spec(in, nodes));
        else annotate_input_qspec_map(node, !inputs.empty() && in.byte() % 4 != 0 ? in.pick(inputs) : in.pick(nodes), fuzz::any_spec(in, nodes));
        if (QuantizationAnnotation* a = get_annotation(node)) {
          a->_annotated = in.flag();
          if (in.byte() % 4 == 0) a->allow_implicit_sharing = in.flag();
        }
      }
    });
    GraphModule prepared = in.flag() ? prepare_pt2e(gm, q) : prepare_qat_pt2e(gm, q);
    for (int i = 0, n = static_cast<int>(in.range(0, 2)); i < n; ++i) prepared.forward(example_inputs(m, 1));
    GraphModule converted = convert_pt2e(prepared, false, in.flag());
    converted.forward(example_inputs(m, 1));
  });
}
