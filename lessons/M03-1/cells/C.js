// C. prepare_pt2e with labels that say nothing: an annotate() that writes no label, and one that marks every
// node _annotated with no spec. Compare the op counts with the exported graph.
const quiet = {
  'no labels': class extends pt.Quantizer { annotate() {} validate() {} },
  '_annotated, no spec': class extends pt.Quantizer {
    annotate(gm) { for (const n of gm.nodes) if (n.op === 'call_function') gm.annotate(n, new pt.QuantizationAnnotation({ _annotated: true })); }
    validate() {}
  },
};
const exported = state.ex('tiny');
const rows = [], res = {};
for (const [label, Q] of Object.entries(quiet)) {
  const p = pt.prepare_pt2e(exported, new Q());
  const changed = pt.diff_ops(exported, p).filter((r) => r.delta !== 0);
  res[label] = { observers: pt.observer_nodes(p).length, changed };
  rows.push([label, res[label].observers, changed.map((r) => `${r.op} ${r.delta > 0 ? '+' : ''}${r.delta}`).join(', ')]);
}
show.table(['annotate()', ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' }), ctx.tr({ en: 'ops changed vs exported', 'zh-TW': '和匯出圖相比變動的 op' })], rows);
check(Object.values(res).every((r) => r.observers === 0), { en: 'no spec anywhere: prepare_pt2e inserts nothing', 'zh-TW': '沒有任何規格：prepare_pt2e 什麼都不插' });
check(Object.values(res).every((r) => r.changed.length === 1 && r.changed[0].op === 'batch_norm' && -r.changed[0].delta === pt.count_ops(exported).batch_norm),
  { en: 'the only change is the BN folding that prepare_pt2e always does', 'zh-TW': '唯一的變動是 prepare_pt2e 一定會做的 BN 折疊' });
