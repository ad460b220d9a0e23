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
      if (gm.annotation(n)) pt.annotate_output_qspec(gm, n, state.act());   // a label is there: edit it in place
      else gm.annotate(n, new pt.QuantizationAnnotation({ output_qspec: state.act(), _annotated: true }));
    }
  }
  validate() {}
};
const rows = [], obs = {};
for (const respect of [true, false]) {
  const Q = reluOutput(respect);
  const p = pt.prepare_pt2e(state.ex('conv_relu'), new pt.ComposableQuantizer([new claimRelu(), new Q()]));
  obs[respect] = pt.observer_nodes(p).length;
  rows.push([respect ? ctx.tr({ en: 'skips _annotated nodes', 'zh-TW': '跳過 _annotated 的 node' }) : ctx.tr({ en: 'ignores _annotated', 'zh-TW': '不理 _annotated' }), obs[respect]]);
}
const alone = pt.observer_nodes(pt.prepare_pt2e(state.ex('conv_relu'), new (reluOutput(true))())).length;
show.table([ctx.tr({ en: 'second quantizer', 'zh-TW': '第二個 Quantizer' }), ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' })], rows);
check(obs[true] === 0 && alone > 0, { en: 'respecting _annotated: the first quantizer\'s "keep fp32" wins (no observer); alone, the same quantizer does add one', 'zh-TW': '尊重 _annotated：第一個 Quantizer 的「留在 fp32」生效（沒有 observer）；單獨使用時同一個 Quantizer 確實會加' });
check(obs[false] > obs[true], { en: 'ignoring _annotated overrides an earlier decision', 'zh-TW': '不理 _annotated 就會蓋掉前一個 Quantizer 的決定' });
