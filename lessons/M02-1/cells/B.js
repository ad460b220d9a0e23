// B. Three distributions × three observers (the stream continues from A: no new seed). For each pair: scale, zero
// point, the float range the 256 integers represent, the clamp's share, the worst round-trip error in steps, SQNR.
const { QMIN, QMAX, qdq, minmax } = kit;
const data = { 'gaussian': pt.randn([100000]), 'relu(gaussian)': pt.randn([100000]).relu(), 'heavy tail t(3)': pt.student_t(3, [100000]) };
const observers = { 'MinMax affine': () => minmax(), 'MinMax symmetric': () => minmax(true),
  'Histogram affine': () => new pt.HistogramObserver({ dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: QMIN, quant_max: QMAX }) };
const R = {};
for (const [d, x] of Object.entries(data)) for (const [o, make] of Object.entries(observers)) {
  const obs = make(), v = x.data();
  obs.forward(x);
  const { scale: [s], zero_point: [z] } = obs.calculate_qparams(), rt = qdq(v, s, z);
  R[`${d} / ${o}`] = { d, o, s, z, lo: (QMIN - z) * s, hi: (QMAX - z) * s, db: pt.sqnr(x, pt.tensor(rt.values, x.shape)), clipped: rt.clipped / v.length,
    worst: rt.values.reduce((m, r, i) => Math.max(m, Math.abs(r - v[i])), 0) / s, dmin: v.reduce((a, b) => Math.min(a, b)), dmax: v.reduce((a, b) => Math.max(a, b)) };
}
show.table([t('data'), 'observer', 'scale', 'zp', t('range'), t('clipped'), t('worst'), 'SQNR (dB)'],
  Object.values(R).map((r) => [r.d, r.o, r.s.toFixed(4), r.z, `[${r.lo.toFixed(2)}, ${r.hi.toFixed(2)}]`, (100 * r.clipped).toFixed(3), r.worst.toFixed(2), r.db.toFixed(2)]));
const at = (d, o) => R[`${d} / ${o}`], names = Object.keys(data);
show.view('bar', { title: t('bar_title'), labels: names, series: Object.keys(observers).map((o) => ({ name: o, values: names.map((d) => at(d, o).db) })), y_label: 'SQNR (dB)' });
const reluGap = at('relu(gaussian)', 'MinMax affine').db - at('relu(gaussian)', 'MinMax symmetric').db;
const better = names.filter((d) => at(d, 'Histogram affine').db > at(d, 'MinMax affine').db);
show.text(t('gap_and_better', { gap: reluGap.toFixed(2), better: better.join(', ') || '—' }));
check(5 < reluGap && reluGap < 7, t('gap_bit'));
check(at('relu(gaussian)', 'MinMax affine').z === QMIN, t('zp_qmin'));
check(names.every((d) => at(d, 'MinMax affine').worst <= 0.5001 && at(d, 'MinMax symmetric').worst <= 0.5001), t('half_step'));
check(at('heavy tail t(3)', 'Histogram affine').worst > 10, t('clipped_far'));
check(names.every((d) => at(d, 'Histogram affine').hi < at(d, 'MinMax affine').hi), t('pulls_in'));
check(better.length > 0 && better.length < names.length, t('some_not_all'));
Object.assign(state, { data, resultB: R });
reveal(reluGap);   // the value your prediction is marked against
