// Wrong: fuses conv + relu when *some* user of the conv is a relu, not only when the relu is its only user;
// only conv_relu_add (relu(conv(x)) + conv(x)) tells the two apart.
const taken = (gm, n) => gm.annotation(n)?._annotated === true;
class MyQuantizer extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (!state.isOp(n, 'conv2d') || taken(gm, n)) continue;
      const [x, w, b] = n.args.map((a) => a?.node);
      const map = [[x, state.act()], [w, state.weight()]];
      if (b) map.push([b, null]);
      const user = n.users.map((u) => gm.node(u)).find((u) => state.isOp(u, 'relu')) ?? null;
      const fused = state.isOp(user, 'relu') && !taken(gm, user);
      gm.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: map, output_qspec: fused ? null : state.act(), _annotated: true }));
      if (fused) gm.annotate(user, new pt.QuantizationAnnotation({ output_qspec: state.act(), _annotated: true }));
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
