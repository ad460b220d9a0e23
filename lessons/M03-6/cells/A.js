// A. The two-layer MLP (fc1 -> relu -> fc2) with XNNPACKQuantizer: everything, only fc1, only fc2.
pt.manual_seed(0);
state.ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
state.cfg = pt.get_symmetric_quantization_config({ is_per_channel: true });
const gm = state.ex('mlp');
const linears = gm.nodes.filter((n) => n.target === 'aten.linear.default');
const layer = (n) => n.meta.nn_module_stack.at(-1)?.fqn;                 // 'fc1' / 'fc2'
state.weightOf = Object.fromEntries(linears.map((n) => [layer(n), n.args[1].node]));
const relu = gm.nodes.find((n) => n.target === 'aten.relu.default');
state.linearBeforeRelu = relu.args[0].node;
const setups = {
  'set_global(cfg)': () => new pt.XNNPACKQuantizer().set_global(state.cfg),
  "set_module_name('fc1', cfg)": () => new pt.XNNPACKQuantizer().set_module_name('fc1', state.cfg),
  "set_module_name('fc2', cfg)": () => new pt.XNNPACKQuantizer().set_module_name('fc2', state.cfg),
};
const rows = [], res = {}, stages = [];
for (const [label, make] of Object.entries(setups)) {
  const p = pt.prepare_pt2e(state.ex('mlp'), make());
  const tbl = pt.observer_placement_table(p).rows;
  stages.push({ title: label.replace(', cfg', ''), ...p.graph_view() });
  res[label] = tbl;
  rows.push([label, tbl.length, tbl.map((r) => `${r[2]} → ${r[3]}`).join('; ')]);
}
show.table(['XNNPACKQuantizer()', ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' }), ctx.tr({ en: 'observed: from → to', 'zh-TW': '有 observer 的位置：從 → 到' })], rows);
show.view('graph', { title: ctx.tr({ en: 'the MLP after prepare_pt2e, three settings', 'zh-TW': '三種設定下 prepare_pt2e 之後的 MLP' }), stages, show_params: false });
state.global = res['set_global(cfg)'];
const has = (rowsOf, from) => rowsOf.some((r) => r[2] === from);
const [g, f1, f2] = Object.values(res);
check(has(f1, state.weightOf.fc1) && !has(f1, state.weightOf.fc2) && has(f2, state.weightOf.fc2) && !has(f2, state.weightOf.fc1),
  { en: 'each setting quantizes the weight of its own layer only', 'zh-TW': '每個設定只量化自己那一層的 weight' });
check(!has(g, state.linearBeforeRelu) && has(f1, state.linearBeforeRelu) && !relu.meta.nn_module_stack.some((m) => m.fqn === 'fc1'),
  { en: 'global: fc1 + relu fused (no observer between); fc1 alone: an observer appears between fc1 and relu, whose module stack has no fc1', 'zh-TW': '全域：fc1 + relu 融合（中間沒有 observer）；只設 fc1：fc1 與 relu 之間多出一個 observer，而 relu 的 module stack 裡沒有 fc1' });
