// Wrong: shares, but the first edge asks for uint8, so a second observer is chained after each relu.
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
        input_qspec_map: [[first, new pt.QuantizationSpec({ dtype: "uint8", quant_min: 0, quant_max: 255, qscheme: "per_tensor_affine", observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) })], ...rest.map((r) => [r, shared])],
        output_qspec: shared,
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
