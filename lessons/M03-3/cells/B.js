// B. Two quantizers in a row (ComposableQuantizer). The first claims the relu of conv_relu with an empty
// label (_annotated, no spec: "leave it in fp32"). A second quantizer that respects _annotated skips it.
const claimRelu = class ClaimRelu extends pt.Quantizer {
  annotate(gm) { for (const n of gm.nodes) if (state.isOp(n, 'relu')) gm.annotate(n, new pt.QuantizationAnnotation({ _annotated: true })); }
  validate() {}
};
const reluOutput = (respect) => class ReluOutput extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (!state.isOp(n, 'relu')) continue;
      if (respect && gm.annotation(n)?._annotated) continue;           // someone else already decided
      pt.annotate_output_qspec(gm, n, state.act());   // creates the label, or edits the one there in place
      pt.mark_nodes_as_annotated(gm, [n]);
    }
  }
  validate() {}
};
const rows = [], obs = {};
for (const respect of [true, false]) {
  const Q = reluOutput(respect);
  const p = pt.prepare_pt2e(state.ex('conv_relu'), new pt.ComposableQuantizer([new claimRelu(), new Q()]));
  obs[respect] = pt.observer_nodes(p).length;
  rows.push([respect ? t('skips_annotated_nodes') : t('ignores_annotated'), obs[respect]]);
}
const alone = pt.observer_nodes(pt.prepare_pt2e(state.ex('conv_relu'), new (reluOutput(true))())).length;
show.table([t('second_quantizer'), t('observers')], rows);
check(obs[true] === 0 && alone > 0, t('respecting_annotated_the_first'));
check(obs[false] > obs[true], t('ignoring_annotated_overrides_an'));
