// B. A quantizer that labels nothing and logs each call: which method, and what the graph holds at that moment.
const probe = (log) => class Probe extends pt.Quantizer {
  transform_for_annotation(gm) { log.push(['transform_for_annotation', gm]); return gm; }
  annotate(gm) { log.push(['annotate', gm]); return gm; }
  validate(gm) { log.push(['validate', gm]); }
};
const snapshot = (gm) => ({ bn: pt.count_ops(gm).batch_norm ?? 0, observers: pt.observer_nodes(gm).length });
const rows = [], seen = {};
const exported = state.ex('stem');
for (const [fn, name] of [[pt.prepare_pt2e, 'prepare_pt2e'], [pt.prepare_qat_pt2e, 'prepare_qat_pt2e']]) {
  const log = [];
  const Q = probe({ push: ([m, gm]) => log.push([m, snapshot(gm)]) });
  fn(exported, new Q());
  seen[name] = log;
  log.forEach(([m, s], i) => rows.push([name, i + 1, m, s.bn, s.observers]));
}
show.table(['', '#', ctx.tr({ en: 'method', 'zh-TW': '方法' }), ctx.tr({ en: 'batch_norm nodes', 'zh-TW': 'batch_norm 數' }), ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' })], rows);
const methods = (l) => l.map(([m]) => m).join(' → ');
const bnExported = pt.count_ops(exported).batch_norm;
check(methods(seen.prepare_pt2e) === methods(seen.prepare_qat_pt2e) && seen.prepare_pt2e.length === 3 && seen.prepare_pt2e[1][0] === 'annotate',
  { en: `both call ${methods(seen.prepare_pt2e)}, in that order`, 'zh-TW': `兩者都依序呼叫 ${methods(seen.prepare_pt2e)}` });
check(seen.prepare_pt2e.every(([, s]) => s.bn === 0) && bnExported > 0,
  { en: 'PTQ: BN is folded before the quantizer is called (the exported graph has it)', 'zh-TW': 'PTQ：Quantizer 被呼叫前 BN 就折掉了（匯出的圖裡原本有）' });
check(seen.prepare_qat_pt2e.every(([, s]) => s.bn === bnExported),
  { en: 'QAT: the quantizer sees every batch_norm of the exported graph', 'zh-TW': 'QAT：Quantizer 看得到匯出圖裡的每一個 batch_norm' });
check([...seen.prepare_pt2e, ...seen.prepare_qat_pt2e].every(([, s]) => s.observers === 0),
  { en: 'no observer exists yet while the quantizer runs: they are inserted after validate', 'zh-TW': 'Quantizer 執行時還沒有任何 observer：它們在 validate 之後才插入' });
