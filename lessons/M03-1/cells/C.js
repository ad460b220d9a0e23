// C. prepare_pt2e with labels that say nothing: an annotate() that writes no label, and one that marks every node
// _annotated with no spec. Compare the op counts with the exported graph.
class NoLabels extends pt.Quantizer { annotate() {} validate() {} }
class AnnotatedNoSpec extends pt.Quantizer {
  annotate(gm) { for (const n of gm.nodes) if (n.op === 'call_function') gm.annotate(n, new pt.QuantizationAnnotation({ _annotated: true })); }
  validate() {}
}
const exported = kit.export_zoo('tiny');
const res = [['no labels', NoLabels], ['_annotated, no spec', AnnotatedNoSpec]].map(([label, Q]) => {
  const p = pt.prepare_pt2e(exported, new Q());
  return { label, observers: pt.observer_nodes(p).length, changed: pt.diff_ops(exported, p).filter((r) => r.delta !== 0) };
});
show.table(['annotate()', t('observers'), t('changed')], res.map((r) => [r.label, r.observers, r.changed.map((c) => `${c.op} ${c.delta > 0 ? '+' : ''}${c.delta}`).join(', ')]));
check(res.every((r) => r.observers === 0), t('inserts_nothing'));
check(res.every((r) => r.changed.length === 1 && r.changed[0].op === 'batch_norm' && -r.changed[0].delta === pt.count_ops(exported).batch_norm), t('only_bn'));
