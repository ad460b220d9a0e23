// C. "Convert" by hand: quantize -> dequantize on the observed edges, run conv + relu (kit.conv2d), compare with float.
const { gm, weight, bias, qp } = state;
const xt = pt.randn([8, 3, 16, 16]);                              // a batch calibration never saw
const ref = gm.forward(xt);                                       // the float graph
const wq = pt.dequantize_per_channel(pt.quantize_per_channel(weight, qp.w.scale, qp.w.zero_point, 0, -127, 127, 'int8'), qp.w.scale, qp.w.zero_point, 0, -127, 127, 'int8');
const run = ({ x = false, w = false, out = false }) => {          // conv + relu with the chosen edges quantized
  const y = pt.relu(kit.conv2d(x ? kit.qdq(xt, qp.x) : xt, w ? wq : weight, bias));
  return out ? kit.qdq(y, qp.out) : y;
};
const observe = (qscheme) => { const o = new pt.MinMaxObserver({ dtype: 'int8', qscheme, quant_min: -128, quant_max: 127, eps: 2 ** -12 }); o.forward(ref); return o.calculate_qparams(); };
const rows = [[t('input_only'), pt.sqnr(ref, run({ x: true }))], [t('weight_only'), pt.sqnr(ref, run({ w: true }))], [t('output_only'), pt.sqnr(ref, run({ out: true }))],
  [t('all_three'), pt.sqnr(ref, run({ x: true, w: true, out: true }))],
  [t('out_sym'), pt.sqnr(ref, kit.qdq(ref, observe('per_tensor_symmetric')))], [t('out_aff'), pt.sqnr(ref, kit.qdq(ref, observe('per_tensor_affine')))]];
show.table([t('quantized'), 'SQNR (dB)'], rows.map(([k, db]) => [k, db.toFixed(2)]));
show.view('bar', { title: t('bar_title'), labels: ['x', 'weight', 'output', t('three'), 'output sym', 'output aff'], series: [{ name: 'SQNR', values: rows.map((r) => r[1]) }], y_label: 'dB' });
const float = run({}).data(), maxDiff = ref.data().reduce((m, v, i) => Math.max(m, Math.abs(v - float[i])), 0);
show.text(t('conv_vs_graph', { d: maxDiff.toExponential(2) }));
Object.assign(state, { xt, handAll: run({ x: true, w: true, out: true }).data() });   // kept for cell D
const [x, w, out, all, sym, aff] = rows.map((r) => r[1]);
check(maxDiff < 1e-4, t('hand_conv'));
check(all < Math.min(x, w, out), t('errors_add'));
check(all > 25, t('still_25'));
check(aff - sym > 5, t('affine_bit'));
