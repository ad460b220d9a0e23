// A. XNNPACKQuantizer on conv -> relu: first the labels it writes, then the observers prepare_pt2e inserts.
pt.manual_seed(0);
state.ex = (name, batch = 2) => {                       // export a zoo model on a small random batch
  const m = pt.get_model(name);
  return pt.export(m, [pt.randn([batch, ...m.input_shape])]);
};
state.isOp = (n, op) => n.op === 'call_function' && n.target === `aten.${op}.default`;
state.cfg = pt.get_symmetric_quantization_config({ is_per_channel: true });

const gm = state.ex('conv_relu');
const labelled = gm.clone();                            // annotate a copy: we want to read the labels
new pt.XNNPACKQuantizer().set_global(state.cfg).annotate(labelled);
const specName = (s) => (s === null ? ctx.tr({ en: 'no quantization', 'zh-TW': '不量化' })
  : `${s.kind} (${s.dtype}, ${s.observer_or_fake_quant_ctr?.name ?? '—'})`);
const rows = [];
let specs = 0;
for (const n of labelled.nodes) {
  const a = labelled.annotation(n);
  if (!a) continue;
  for (const [inp, s] of a.input_qspec_map) { rows.push([n.name, `${inp} → ${n.name}`, specName(s)]); if (s) specs += 1; }
  if (a.output_qspec) { rows.push([n.name, ctx.tr({ en: 'output', 'zh-TW': '輸出' }), specName(a.output_qspec)]); specs += 1; }
}
show.table([ctx.tr({ en: 'node', 'zh-TW': 'node' }), ctx.tr({ en: 'label on', 'zh-TW': '標在哪裡' }), ctx.tr({ en: 'spec', 'zh-TW': '規格' })], rows,
  ctx.tr({ en: 'Labels after XNNPACKQuantizer.annotate', 'zh-TW': 'XNNPACKQuantizer.annotate 之後的標籤' }));

const prepared = pt.prepare_pt2e(gm, new pt.XNNPACKQuantizer().set_global(state.cfg));
const table = pt.observer_placement_table(prepared);
show.table(table.headers.slice(0, 4), table.rows.map((r) => r.slice(0, 4)),
  ctx.tr({ en: 'Observers after prepare_pt2e', 'zh-TW': 'prepare_pt2e 之後的 observer' }));

show.view('graph', { title: ctx.tr({ en: 'conv_relu: the labels, then the observers they became', 'zh-TW': 'conv_relu：先是標籤，再來是標籤變成的 observer' }),
  stages: [{ title: 'annotate', ...labelled.graph_view() }, { title: 'prepare_pt2e', ...prepared.graph_view() }] });
const observers = pt.observer_nodes(prepared);
const conv = prepared.nodes.find((n) => state.isOp(n, 'conv2d'));
const bias = prepared.node(conv.args[2].node);
check(observers.length === specs, { en: `one observer per non-empty label: ${observers.length} observers, ${specs} specs`, 'zh-TW': `每張非空標籤一個 observer：${observers.length} 個 observer、${specs} 份規格` });
check(conv.users.length === 1 && state.isOp(prepared.node(conv.users[0]), 'relu'),
  { en: 'conv2d\'s only user is relu: no observer between conv and relu', 'zh-TW': 'conv2d 唯一的使用者是 relu：conv 與 relu 之間沒有 observer' });
check(bias.users.every((u) => !observers.includes(u)), { en: 'the bias edge is labelled "no quantization", so it gets no observer', 'zh-TW': 'bias 那條邊標的是「不量化」，所以沒有 observer' });
state.prepared = prepared;
state.exported = gm;
check(pt.observer_nodes(gm).length === 0, { en: 'prepare_pt2e returns a new graph; the exported one has no observers', 'zh-TW': 'prepare_pt2e 回傳新的圖；匯出的原圖沒有 observer' });
