// A. In the residual block, x feeds conv2d and the add (the skip connection). Label x two ways, by name
// (fine for an experiment): an output label on x, or an edge label x -> conv2d stored on conv2d.
pt.manual_seed(0);
state.ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
state.isOp = (n, op) => n?.op === 'call_function' && n.target === `aten.${op}.default`;
state.act = () => new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) });
const byName = (write) => class extends pt.Quantizer { annotate(gm) { write(gm); } validate() {} };
const ways = {
  output: byName((gm) => gm.annotate('x', new pt.QuantizationAnnotation({ output_qspec: state.act(), _annotated: true }))),
  edge: byName((gm) => gm.annotate('conv2d', new pt.QuantizationAnnotation({ input_qspec_map: [['x', state.act()]], _annotated: true }))),
};
const rows = [], res = {}, stages = [];
for (const [label, Q] of Object.entries(ways)) {
  const p = pt.prepare_pt2e(state.ex('residual'), new Q());
  const tbl = pt.observer_placement_table(p).rows;
  stages.push({ title: label === 'output' ? 'output_qspec on x' : 'input_qspec_map {x: spec} on conv2d', ...p.graph_view() });
  const add = p.nodes.find((n) => state.isOp(n, 'add') || n.target === 'aten.add.Tensor');
  res[label] = { t: tbl, addReads: add.args.map((a) => a.node) };
  rows.push([label === 'output' ? 'output_qspec on x' : 'input_qspec_map {x: spec} on conv2d', tbl.length, tbl.map((r) => `${r[0]}: ${r[2]} → ${r[3]}`).join('; '), res[label].addReads.join(', ')]);
}
show.table([ctx.tr({ en: 'label', 'zh-TW': '標籤' }), ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' }), ctx.tr({ en: 'observer: from → to', 'zh-TW': 'observer：從 → 到' }), ctx.tr({ en: 'add reads', 'zh-TW': 'add 讀的是' })], rows);
show.view('graph', { title: ctx.tr({ en: 'residual block: an output label on x vs an edge label x → conv2d', 'zh-TW': 'residual block：x 的輸出標籤 vs x → conv2d 的邊標籤' }), stages, focus: ['x'], hops: 2, show_params: false });
const obsNames = (l) => res[l].t.map((r) => r[0]);
check(res.output.t.length === 1 && res.output.t[0][3].split(', ').length === 2 && res.output.addReads.some((a) => obsNames('output').includes(a)),
  { en: 'output label: one observer after x, read by both of x\'s users (conv2d and add)', 'zh-TW': '輸出標籤：x 後面一個 observer，x 的兩個使用者（conv2d 和 add）都讀它' });
check(res.edge.t.length === 1 && res.edge.t[0][3] === 'conv2d' && !res.edge.addReads.some((a) => obsNames('edge').includes(a)),
  { en: 'edge label: the observer feeds conv2d only; add still reads x unquantized', 'zh-TW': '邊標籤：observer 只接到 conv2d；add 讀的仍是未量化的 x' });
