// C. Every zoo model through both XNNPACK quantizers: the compute ops left without any label.
const cfg = pt.get_symmetric_quantization_config({ is_per_channel: true });
const res = Object.fromEntries(pt.model_names().map((name) => [name, Object.fromEntries([['ao', pt.XNNPACKQuantizer], ['et', pt.executorch.XNNPACKQuantizer]].map(([k, Q]) => {
  const g = kit.export_zoo(name);
  pt.fold_bn(g);
  new Q().set_global(cfg).annotate(g);
  if (name === 'cat_pool' && k === 'ao') state.catPool = g;
  return [k, [...pt.unannotated_ops(g)].sort()];
}))]));
show.table([t('model'), t('unlabelled_ao'), t('unlabelled_et')], Object.entries(res).map(([name, r]) => [name, r.ao.join(', ') || '—', r.et.join(', ') || '—']));
const g = state.catPool, pool = g.nodes.find((n) => kit.is_op(n, 'max_pool2d'));
check(res.cat_pool.ao.includes('cat') && !res.cat_pool.et.includes('cat'), t('cat_missed'));
check(res.cat_pool.ao.includes('max_pool2d') && g.annotation(pool.args[0].node) === null, t('pool_missed'));
check(Object.values(res).every((r) => r.et.every((op) => r.ao.includes(op))), t('et_superset'));
