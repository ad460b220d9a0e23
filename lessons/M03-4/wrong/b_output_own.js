// Wrong: the inputs share, but the output gets an observer of its own.
class CatQuantizer extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (state.isOp(n, 'relu')) gm.annotate(n, new pt.QuantizationAnnotation({ output_qspec: state.act(), _annotated: true }));
    }
    for (const n of gm.nodes) {
      if (!state.isOp(n, 'cat')) continue;
      const [first, ...rest] = n.args[0].map((a) => a.node);
      const shared = new pt.SharedQuantizationSpec([first, n.name]);
      gm.annotate(n, new pt.QuantizationAnnotation({
        input_qspec_map: [[first, state.act()], ...rest.map((r) => [r, shared])],
        output_qspec: state.act(),
        _annotated: true,
      }));
    }
    return gm;
  }
  validate(gm) {}
}
state.CatQuantizer = CatQuantizer;
const p = pt.prepare_pt2e(state.ex('cat_pool'), new CatQuantizer());
show.text(p.code);
for (const r of kit.grade(CatQuantizer, state).results) check(r.ok, r.message);   // the grading cell's checks
