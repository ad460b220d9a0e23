// Exercise: a quantizer for a backend that runs conv2d and fused conv2d+relu in int8.
// Rules (for every aten.conv2d.default node in the graph):
//   1. label the conv's input edge with state.act() and its weight edge with state.weight(); the bias edge
//      gets null (not quantized). Inputs: node.args[0], args[1], args[2] are { node: 'name' }.
//   2. if the conv's only user is a relu, label the relu's output (conv + relu run as one kernel, so
//      nothing between them); otherwise label the conv's output.
//   3. mark every node you label _annotated, and skip a conv (or relu) that is already _annotated:
//      another quantizer got there first.
// Tools: gm.nodes, gm.node(name), gm.annotation(node), gm.annotate(node, new pt.QuantizationAnnotation({...})),
//        state.isOp(node, 'conv2d'). Put your class in state.MyQuantizer.
class MyQuantizer extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (!state.isOp(n, 'conv2d')) continue;
      const [x, w] = n.args.map((a) => a.node);
      gm.annotate(n, new pt.QuantizationAnnotation({
        input_qspec_map: [[x, state.act()], [w, state.weight()]],
        output_qspec: state.act(),          // TODO: rule 2
      }));                                  // TODO: rule 3
    }
    return gm;
  }
  validate(gm) {}
}
state.MyQuantizer = MyQuantizer;
const p = pt.prepare_pt2e(state.ex('residual'), new MyQuantizer());
show.view('graph', { title: ctx.tr({ en: 'your quantizer on the residual block', 'zh-TW': '你的 Quantizer 用在 residual block 上' }), stages: [{ title: 'prepare_pt2e', ...p.graph_view() }], show_params: false });
const r = kit.grade(MyQuantizer, 'residual');   // the grading cell's rules, on this model
check(r.ok, r.message);
