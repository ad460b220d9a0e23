// B. conv → relu under two quantizers: XNNPACKQuantizer (conv + relu is one pattern: one observer, after relu) and one
// that also observes the conv's output. Same calibration batches; SQNR against the float stem on a held-out batch.
const { gm, batches } = state;
const config = pt.get_symmetric_quantization_config({ is_per_channel: true });
class ConvThenRelu extends pt.Quantizer {                         // no fusion: conv and relu each get an output observer
  annotate(g) {
    for (const n of g.nodes) {
      if (kit.is_op(n, 'conv2d')) g.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[n.args[0].node, config.input_activation], [n.args[1].node, config.weight]], output_qspec: config.output_activation, _annotated: true }));
      if (kit.is_op(n, 'relu')) g.annotate(n, new pt.QuantizationAnnotation({ output_qspec: config.output_activation, _annotated: true }));
    }
  }
  validate() {}
}
const held = batches[3].x, ref = gm.forward(held);
const ptq = (q) => { const p = pt.prepare_pt2e(gm, q); kit.calibrate(p, batches.slice(0, 3)); return { p, snr: pt.sqnr(ref, pt.convert_pt2e(p).forward(held)) }; };
const fused = ptq(kit.get_xnnpack_quantizer({ is_per_channel: true })), apart = ptq(new ConvThenRelu());
const after = (p, name) => p.nodes.find((n) => n.kind === 'observer' && n.args[0].node === name);   // the observer of name's output
show.view('graph', { title: t('two_quantizers'), stages: [{ title: 'XNNPACKQuantizer', ...fused.p.graph_view() },
  { title: 'ConvThenRelu', ...apart.p.graph_view(), changed: [after(apart.p, 'conv2d')?.name].filter(Boolean) }] });
const range = (p, name) => { const n = after(p, name), o = n && p.observer(n.name); return o ? [o.min_val.item(), o.max_val.item()] : [NaN, NaN]; };
const fmt = ([lo, hi]) => `[${lo.toFixed(2)}, ${hi.toFixed(2)}]`;
show.table([t('quantizer'), t('observers'), t('conv_range'), t('relu_range'), 'SQNR (dB)'], [
  ['XNNPACKQuantizer', pt.observer_nodes(fused.p).length, '—', fmt(range(fused.p, 'relu')), fused.snr.toFixed(2)],
  ['ConvThenRelu', pt.observer_nodes(apart.p).length, fmt(range(apart.p, 'conv2d')), fmt(range(apart.p, 'relu')), apart.snr.toFixed(2)]]);

check(fused.p.node('conv2d').users.join() === 'relu' && !after(fused.p, 'conv2d') && after(apart.p, 'conv2d'), t('no_observer_between'));
check(range(apart.p, 'conv2d')[0] < 0 && range(fused.p, 'relu')[0] === 0, t('negatives_wasted'));
check(fused.snr > apart.snr, t('fused_closer', { fused: fused.snr.toFixed(2), apart: apart.snr.toFixed(2) }));
reveal(fused.snr > apart.snr ? 'fused' : fused.snr < apart.snr ? 'apart' : 'same');
