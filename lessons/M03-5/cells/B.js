// B. linear -> sigmoid. The sigmoid output always lies in [0, 1], so its qparams can be written down: uint8, scale
// 1/256, zero point 0. Compare with a MinMax observer calibrated on narrow data, then send a wide batch through both.
const fixed = new pt.FixedQParamsQuantizationSpec({ dtype: 'uint8', scale: 1 / 256, zero_point: 0, quant_min: 0, quant_max: 255, qscheme: 'per_tensor_affine' });
class SigmoidFixed extends pt.Quantizer {
  annotate(gm) { for (const n of gm.nodes) if (kit.is_op(n, 'sigmoid')) gm.annotate(n, new pt.QuantizationAnnotation({ output_qspec: fixed, _annotated: true })); }
  validate() {}
}
const shape = pt.get_model('linear_sigmoid').input_shape;
const p = pt.prepare_pt2e(kit.export_zoo('linear_sigmoid'), new SigmoidFixed());
const narrow = p.forward(pt.randn([64, ...shape]).mul(0.1));          // calibration: inputs scaled by 0.1
const before = pt.observer_placement_table(p).rows[0][4];
const minmax = new pt.MinMaxObserver({ dtype: 'uint8', qscheme: 'per_tensor_affine', quant_min: 0, quant_max: 255 });
minmax.forward(narrow);
const wideT = p.forward(pt.randn([64, ...shape]).mul(10)), wide = wideT.data();   // later data: inputs scaled by 10
const after = pt.observer_placement_table(p).rows[0][4];
const measure = (obs) => {                                            // the engine's quantize -> dequantize with obs's qparams
  const { scale: [s], zero_point: [z] } = obs.calculate_qparams();
  const back = pt.dequantize_per_tensor(pt.quantize_per_tensor(wideT, s, z, 0, 255, 'uint8'), s, z, 0, 255, 'uint8').data();
  const err = wide.map((y, i) => Math.abs(y - back[i])), hi = (255 - z) * s;
  return { s, z, err, hi, worst: Math.max(...err), clipped: wide.filter((y) => y > hi + s / 2).length };
};
const F = measure(new pt.FixedQParamsObserver({ dtype: 'uint8', scale: 1 / 256, zero_point: 0, quant_min: 0, quant_max: 255 })), M = measure(minmax);
show.table(['', 'scale', 'zp', t('covers'), t('clipped'), t('worst')], [['FixedQParams', F], [t('minmax_narrow'), M]].map(([k, r]) => [k, r.s.toExponential(4), r.z, `[0, ${r.hi.toFixed(3)}]`, `${r.clipped} / ${wide.length}`, r.worst.toFixed(4)]));
const ones = wide.filter((y) => y === 1).length;                      // float32 sigmoid saturates to exactly 1.0
show.text(t('ones', { ones, n: wide.length }));
check(before === after, t('fixed_stays', { qp: after }));
check(ones > 0 && F.worst === F.s && F.err.every((e, i) => e < F.s / 2 + 1e-7 || wide[i] > F.hi + F.s / 2), t('one_full_step'));
check(M.clipped > 0 && M.worst > 10 * F.worst, t('narrow_clips'));
