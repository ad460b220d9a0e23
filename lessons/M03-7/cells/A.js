// A. The same two models through XNNPACKQuantizer and X86InductorQuantizer (global configs).
pt.manual_seed(0);
state.xnnCfg = pt.get_symmetric_quantization_config({ is_per_channel: true });
state.x86Cfg = pt.get_default_x86_inductor_quantization_config();
const outputLabels = (p) => p.nodes.filter((n) => p.annotation(n)?.output_qspec).map((n) => n.name);   // nodes with an output label
const rows = [], res = {};
for (const name of ['residual', 'mlp']) {
  for (const [q, make] of [['XNNPACK', () => new pt.XNNPACKQuantizer().set_global(state.xnnCfg)], ['X86Inductor', () => new pt.X86InductorQuantizer().set_global(state.x86Cfg)]]) {
    const p = pt.prepare_pt2e(kit.export_zoo(name), make());
    const act = p.nodes.map((n) => p.annotation(n)).flatMap((a) => (a ? a.input_qspec_map : [])).find(([, s]) => s?.qscheme === 'per_tensor_affine')?.[1];   // an activation edge
    res[`${name}/${q}`] = { n: pt.observer_nodes(p).length, outs: outputLabels(p), act };
    rows.push([name, q, pt.observer_nodes(p).length, `${act.dtype} [${act.quant_min}, ${act.quant_max}]`, res[`${name}/${q}`].outs.join(', ') || '—']);
  }
}
show.view('bar', { title: t('observers_per_model_and'),
  labels: ['residual', 'mlp'], series: ['XNNPACK', 'X86Inductor'].map((q) => ({ name: q, values: ['residual', 'mlp'].map((m) => res[`${m}/${q}`].n) })),
  y_label: t('observers') });
show.table([t('model'), 'quantizer', t('observers'), t('activation_grid'), t('nodes_with_an_output')], rows);
check(['mlp', 'residual'].every((m) => res[`${m}/X86Inductor`].outs.length < res[`${m}/XNNPACK`].outs.length && res[`${m}/X86Inductor`].n < res[`${m}/XNNPACK`].n),
  t('x86_labels_inputs_where'));
check(res['mlp/X86Inductor'].act.dtype === 'uint8' && res['mlp/XNNPACK'].act.dtype === 'int8' && state.x86Cfg.weight.quant_min === -128 && state.xnnCfg.weight.quant_min === -127,
  t('x86_uint8_activations_and'));
