// A. The two-layer MLP (fc1 -> relu -> fc2) with XNNPACKQuantizer: everything, only fc1, only fc2 (A.py's order).
pt.manual_seed(0);
const cfg = pt.get_symmetric_quantization_config({ is_per_channel: true });
const setups = [['set_global(cfg)', (q) => q.set_global(cfg)], ["set_module_name('fc1', cfg)", (q) => q.set_module_name('fc1', cfg)],
  ["set_module_name('fc2', cfg)", (q) => q.set_module_name('fc2', cfg)]];
const res = setups.map(([label, set]) => { const p = pt.prepare_pt2e(kit.export_zoo('mlp'), set(new pt.XNNPACKQuantizer())); return { label, p, rows: pt.observer_placement_table(p).rows }; });
show.table(['XNNPACKQuantizer()', t('observers'), t('observed')], res.map((r) => [r.label, r.rows.length, r.rows.map((o) => `${o[2]} → ${o[3]}`).join('; ')]));
kit.draw_stages(t('graph_title'), res.map((r) => [r.p, r.label.replace(', cfg', '')]), { show_params: false });
const gm = kit.export_zoo('mlp');
const layer = (n) => n.meta.nn_module_stack.at(-1)?.fqn;                 // 'fc1' / 'fc2'
const weightOf = Object.fromEntries(gm.nodes.filter((n) => kit.is_op(n, 'linear')).map((n) => [layer(n), n.args[1].node]));
const relu = gm.nodes.find((n) => kit.is_op(n, 'relu')), beforeRelu = relu.args[0].node;
const has = (r, from) => r.rows.some((o) => o[2] === from);
const [g, f1, f2] = res;
Object.assign(state, { cfg, weightOf, global: g.rows });
check(has(f1, weightOf.fc1) && !has(f1, weightOf.fc2) && has(f2, weightOf.fc2) && !has(f2, weightOf.fc1), t('own_layer'));
check(!has(g, beforeRelu) && has(f1, beforeRelu) && !relu.meta.nn_module_stack.some((m) => m.fqn === 'fc1'), t('fusion_lost'));
