// B. Quantize the weights only, activations stay fp32: a quantizer that labels just the weight edge of every
// conv2d / linear with the config's own weight spec. convert then stores int8 weights, nothing else.
const { gm, ex, ref, results } = state;
class WeightOnlyQuantizer extends pt.Quantizer {
  constructor(is_per_channel) { super(); this.spec = pt.get_symmetric_quantization_config({ is_per_channel }).weight; }
  annotate(g) {
    for (const n of g.nodes) if (kit.is_op(n, 'conv2d') || kit.is_op(n, 'linear')) g.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[n.args[1].node, this.spec]], _annotated: true }));
    return g;
  }
  validate(g) {}
}
const rows = [['per-tensor', false], ['per-channel', true]].map(([name, perChannel]) => {
  const prepared = kit.calibrate(pt.prepare_pt2e(gm, new WeightOnlyQuantizer(perChannel)), [ex]);   // weight observers see the weights
  const converted = pt.convert_pt2e(prepared);
  return { name, sqnr: pt.sqnr(ref, converted.forward(ex)), n_qdq: pt.qdq_nodes(converted).length, full: results[`${name} weight`] };
});
show.table([t('granularity'), t('weights_only'), t('full'), t('gap')], rows.map((r) => [r.name, r.sqnr.toFixed(1), r.full.sqnr.toFixed(1), (r.sqnr - r.full.sqnr).toFixed(1)]));
const layers = gm.nodes.filter((n) => kit.is_op(n, 'conv2d') || kit.is_op(n, 'linear')).length;
check(rows.every((r) => r.n_qdq === layers), t('one_dq_per_weight'));
check(rows.every((r) => r.sqnr > r.full.sqnr + 20), t('weights_20db'));

// Which activation? The first one: the observer on the input x, in the per-tensor setting of A.
const full = results['per-tensor weight'];
const { scale: [s], zero_point: [z] } = full.prepared.observer(pt.observer_placement_table(full.prepared).rows.find((r) => r[2] === 'x')[0]).calculate_qparams();
const [lo, hi] = [(-128 - z) * s, (127 - z) * s];
const held = pt.calibration_batches({ n: 264, batch_size: 32 }).at(-1).x;   // samples 256..263: never calibrated on
const outside = (x) => x.data().filter((v) => v < lo || v > hi).length / x.numel;
const inputs = [[t('randn_inputs'), ex, full.sqnr], [t('held_out'), held, pt.sqnr(gm.forward(held), full.converted.forward(held))]];
show.table([t('input'), t('outside_range'), t('full')], inputs.map(([name, x, db]) => [name, `${(100 * outside(x)).toFixed(1)} %`, db.toFixed(1)]), t('x_range', { lo: lo.toFixed(2), hi: hi.toFixed(2) }));
check(outside(ex) > 2 * outside(held), t('randn_outside'));
check(inputs[1][2] > inputs[0][2] + 10, t('images_higher'));
reveal(rows.every((r) => r.sqnr > r.full.sqnr + 3) ? 'activations' : 'weights');   // the value your prediction is marked against
