// B. max_pool2d, adaptive_avg_pool2d and flatten have no annotator of their own. After all annotators,
// propagate_annotation gives such an op, if its producer has an output label, Shared specs pointing back to it.
const gm = state.tiny;
const rows = [], shared = [];
for (const n of gm.nodes) {
  const a = gm.annotation(n);
  if (!a) continue;
  const specs = [...a.input_qspec_map.map(([p, s]) => [`${p} → ${n.name}`, s]), [ctx.tr({ en: 'output', 'zh-TW': '輸出' }), a.output_qspec]];
  for (const [where, s] of specs) if (s?.kind === 'SharedQuantizationSpec') { rows.push([n.name, where, JSON.stringify(s.edge_or_node)]); shared.push([n, s]); }
}
show.table(['node', ctx.tr({ en: 'label on', 'zh-TW': '標在哪裡' }), ctx.tr({ en: 'shares the observer of', 'zh-TW': '共用誰的 observer' })], rows);
check(shared.length > 0 && shared.every(([n, s]) => s.edge_or_node === n.args[0].node),
  { en: 'every shared label points at the op\'s own producer', 'zh-TW': '每張共用標籤都指向該 op 自己的上游' });

// After prepare + one batch, the pool's observer reports exactly the qparams of its producer's observer.
const p = pt.prepare_pt2e(state.ex('tiny'), new pt.XNNPACKQuantizer().set_global(state.cfg));
p.forward(pt.randn([2, 3, 16, 16]));
const table = pt.observer_placement_table(p).rows;
const qp = (from) => table.find((r) => r[2] === from)?.[4];
const pairs = shared.filter(([, s], i, all) => all.findIndex(([, t]) => t === s) === i).map(([n]) => [n.name, n.args[0].node]);
show.table([ctx.tr({ en: 'observer after', 'zh-TW': 'observer 接在' }), 'qparams', ctx.tr({ en: 'producer', 'zh-TW': '上游' }), 'qparams'],
  pairs.map(([a, b]) => [a, qp(a) ?? '—', b, qp(b) ?? '—']));
const labels = gm.nodes.reduce((k, n) => { const a = gm.annotation(n); return k + (a ? a.input_qspec_map.filter(([, s]) => s).length + (a.output_qspec ? 1 : 0) : 0); }, 0);
check(pairs.every(([a, b]) => qp(a) !== undefined && qp(a) === qp(b)),
  { en: 'each propagated op reports the same qparams as its producer: one observer object behind both', 'zh-TW': '每個被傳遞標籤的 op 與上游回報相同的 qparams：背後是同一個 observer 物件' });
check(pt.observer_nodes(p).length < labels, { en: `${labels} non-empty specs, ${pt.observer_nodes(p).length} observers: sharing (explicit and implicit) saves the rest`, 'zh-TW': `${labels} 份非空規格、${pt.observer_nodes(p).length} 個 observer：其餘的由共用（顯式與隱式）省下` });
reveal(pairs.every(([a, b]) => qp(a) === qp(b)) ? 'same' : 'different');   // the value your prediction is marked against
