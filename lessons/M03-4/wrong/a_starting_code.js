// Exercise: a quantizer for a backend whose int8 cat only copies bytes, so its inputs and its output must
// all have ONE scale and zero point. The relu part is done. Fix the cat part:
//   - the first input edge gets state.act(); the other inputs and the output share it:
//     new pt.SharedQuantizationSpec([producer, consumer]) names an edge, new pt.SharedQuantizationSpec(node) an output;
//   - no extra observer may sit between a relu and the cat (no requantization).
// cat's inputs are a list: n.args[0] is [{ node: 'relu' }, { node: 'relu_1' }].
class CatQuantizer extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (state.isOp(n, 'relu')) gm.annotate(n, new pt.QuantizationAnnotation({ output_qspec: state.act(), _annotated: true }));
    }
    for (const n of gm.nodes) {
      if (!state.isOp(n, 'cat')) continue;
      const inputs = n.args[0].map((a) => a.node);
      gm.annotate(n, new pt.QuantizationAnnotation({
        input_qspec_map: inputs.map((i) => [i, state.act()]),     // TODO: one scale for all
        output_qspec: state.act(),                                // TODO
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
