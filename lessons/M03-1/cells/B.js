// B. A quantizer that labels nothing and logs each call: which method, and what the graph holds at that moment.
class Probe extends pt.Quantizer {
  constructor(log) { super(); this.log = log; }
  record(method, gm) { this.log.push({ method, bn: pt.count_ops(gm).batch_norm ?? 0, observers: pt.observer_nodes(gm).length }); return gm; }
  transform_for_annotation(gm) { return this.record('transform_for_annotation', gm); }
  annotate(gm) { return this.record('annotate', gm); }
  validate(gm) { this.record('validate', gm); }
}
const exported = kit.export_zoo('stem');
const seen = {};
for (const [fn, name] of [[pt.prepare_pt2e, 'prepare_pt2e'], [pt.prepare_qat_pt2e, 'prepare_qat_pt2e']]) fn(exported, new Probe(seen[name] = []));
show.table(['', '#', t('method'), t('bn_nodes'), t('observers')], Object.entries(seen).flatMap(([name, log]) => log.map((s, i) => [name, i + 1, s.method, s.bn, s.observers])));
const methods = (log) => log.map((s) => s.method).join(' → '), bnExported = pt.count_ops(exported).batch_norm;
const { prepare_pt2e: ptq, prepare_qat_pt2e: qat } = seen;
check(methods(ptq) === methods(qat) && ptq.length === 3 && ptq[1].method === 'annotate', t('same_order', { order: methods(ptq) }));
check(ptq.every((s) => s.bn === 0) && bnExported > 0, t('ptq_folded'));
check(qat.every((s) => s.bn === bnExported), t('qat_sees_bn'));
check([...ptq, ...qat].every((s) => s.observers === 0), t('no_observer_yet'));
