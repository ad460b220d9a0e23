// A. The same two models through XNNPACKQuantizer and X86InductorQuantizer (global configs).
pt.manual_seed(0);
state.ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
state.xnnCfg = pt.get_symmetric_quantization_config({ is_per_channel: true });
state.x86Cfg = pt.get_default_x86_inductor_quantization_config();
const outputLabels = (p) => p.nodes.filter((n) => p.annotation(n)?.output_qspec).map((n) => n.name);   // nodes with an output label
const rows = [], res = {};
for (const name of ['residual', 'mlp']) {
  for (const [q, make] of [['XNNPACK', () => new pt.XNNPACKQuantizer().set_global(state.xnnCfg)], ['X86Inductor', () => new pt.X86InductorQuantizer().set_global(state.x86Cfg)]]) {
    const p = pt.prepare_pt2e(state.ex(name), make());
    const act = p.nodes.map((n) => p.annotation(n)).flatMap((a) => (a ? a.input_qspec_map : [])).find(([, s]) => s?.qscheme === 'per_tensor_affine')?.[1];   // an activation edge
    res[`${name}/${q}`] = { n: pt.observer_nodes(p).length, outs: outputLabels(p), act };
    rows.push([name, q, pt.observer_nodes(p).length, `${act.dtype} [${act.quant_min}, ${act.quant_max}]`, res[`${name}/${q}`].outs.join(', ') || '—']);
  }
}
show.view('bar', { title: ctx.tr({ en: 'observers per model and quantizer', 'zh-TW': '各模型、各 Quantizer 的 observer 數' }),
  labels: ['residual', 'mlp'], series: ['XNNPACK', 'X86Inductor'].map((q) => ({ name: q, values: ['residual', 'mlp'].map((m) => res[`${m}/${q}`].n) })),
  y_label: ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' }) });
show.table([ctx.tr({ en: 'model', 'zh-TW': '模型' }), 'quantizer', ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' }), ctx.tr({ en: 'activation grid', 'zh-TW': 'activation 格子' }), ctx.tr({ en: 'nodes with an output label', 'zh-TW': '有輸出標籤的 node' })], rows);
check(['mlp', 'residual'].every((m) => res[`${m}/X86Inductor`].outs.length < res[`${m}/XNNPACK`].outs.length && res[`${m}/X86Inductor`].n < res[`${m}/XNNPACK`].n),
  { en: 'X86 labels inputs where XNNPACK labels outputs: fewer output labels and fewer observers on both models', 'zh-TW': 'XNNPACK 標輸出的地方，X86 改標輸入：兩個模型上的輸出標籤與 observer 都比較少' });
check(res['mlp/X86Inductor'].act.dtype === 'uint8' && res['mlp/XNNPACK'].act.dtype === 'int8' && state.x86Cfg.weight.quant_min === -128 && state.xnnCfg.weight.quant_min === -127,
  { en: 'X86: uint8 activations and weights over the full int8 range; XNNPACK: int8 activations, weights on [-127, 127]', 'zh-TW': 'X86：activation 用 uint8，weight 用完整的 int8 範圍；XNNPACK：activation 用 int8，weight 在 [-127, 127]' });
