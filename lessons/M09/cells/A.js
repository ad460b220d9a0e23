// A. X86InductorQuantizer on the same cat_pool as M08: its activations are uint8, and reduce_range keeps them in
// 7 bits. The quantize nodes of three converted graphs side by side, with ExecuTorch's XNNPACKQuantizer's.
pt.manual_seed(0);
const gm = kit.export_zoo('cat_pool');
const [calibration, held] = [pt.calibration_batches({ n: 64, batch_size: 32 }), pt.calibration_batches({ n: 96, batch_size: 32 }).at(-1).x];
const quantizers = {
  xnnpack: new pt.executorch.XNNPACKQuantizer().set_global(pt.executorch.get_symmetric_quantization_config({ is_per_channel: true })),
  x86: new pt.X86InductorQuantizer().set_global(pt.get_default_x86_inductor_quantization_config()),
  'x86 reduce_range': new pt.X86InductorQuantizer().set_global(pt.get_default_x86_inductor_quantization_config({ reduce_range: true })),
};
const prepared = {}, converted = {};
for (const [name, q] of Object.entries(quantizers)) {
  prepared[name] = kit.calibrate(pt.prepare_pt2e(gm, q), calibration);
  converted[name] = pt.convert_pt2e(prepared[name]);
}
const ranges = (g, kind) => g.nodes.filter((n) => n.kind === kind).map((n) => `[${n.args[3]}, ${n.args[4]}]`);
show.table([t('quantizer'), t('activation_ranges'), t('weight_ranges')], Object.entries(converted).map(([name, g]) =>
  [name, [...new Set(ranges(g, 'quantize'))].join(' '), [...new Set(g.nodes.filter((n) => n.kind === 'dequantize' && typeof n.args[1] !== 'number').map((n) => `[${n.args[4]}, ${n.args[5]}]`))].join(' ')]));
Object.assign(state, { gm, held, prepared, converted });

const acts = (name) => new Set(ranges(converted[name], 'quantize'));
check([...acts('x86')].join() === '[0, 255]' && [...acts('x86 reduce_range')].join() === '[0, 127]', t('uint8_acts'));
check([...acts('xnnpack')].join() === '[-128, 127]', t('int8_acts'));
reveal([...acts('x86')].join());
