// B. Three distributions x three observers (the stream continues from A: no new seed).
const { QMIN, QMAX, qdq, minmax } = state;
const data = {
  'gaussian': pt.randn([100000]),
  'relu(gaussian)': pt.randn([100000]).relu(),
  'heavy tail t(3)': pt.student_t(3, [100000]),
};
const observers = {
  'MinMax affine': () => minmax(),
  'MinMax symmetric': () => minmax(true),
  'Histogram affine': () => new pt.HistogramObserver({ dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: QMIN, quant_max: QMAX }),
};
const result = {};
const rows = [];
for (const [dname, d] of Object.entries(data)) {
  const values = d.data();
  let dmin = Infinity, dmax = -Infinity;
  for (const v of values) { if (v < dmin) dmin = v; if (v > dmax) dmax = v; }
  for (const [oname, make] of Object.entries(observers)) {
    const obs = make();
    obs.forward(d);
    const { scale, zero_point } = obs.calculate_qparams();
    const s = scale[0], z = zero_point[0];
    const rt = qdq(values, s, z);
    const db = pt.sqnr(d, pt.tensor(rt.values, d.shape));
    let worst = 0;                                       // the largest round-trip error, in steps of s
    for (let i = 0; i < values.length; i++) worst = Math.max(worst, Math.abs(values[i] - rt.values[i]));
    worst /= s;
    const lo = (QMIN - z) * s, hi = (QMAX - z) * s;   // the representable range, back in float
    result[`${dname} / ${oname}`] = { s, z, lo, hi, db, worst, clipped: rt.clipped / values.length, dmin, dmax };
    rows.push([dname, oname, s.toFixed(4), z, `[${lo.toFixed(2)}, ${hi.toFixed(2)}]`,
      (100 * rt.clipped / values.length).toFixed(3), worst.toFixed(2), db.toFixed(2)]);
  }
}
state.data = data;
state.resultB = result;
show.table([ctx.tr({ en: 'data', 'zh-TW': '資料' }), 'observer', 'scale', 'zp',
  ctx.tr({ en: 'representable range', 'zh-TW': '可表示範圍' }), ctx.tr({ en: 'clipped %', 'zh-TW': '被截斷 %' }),
  ctx.tr({ en: 'worst error (steps)', 'zh-TW': '最大誤差（格）' }), 'SQNR (dB)'], rows);

const R = (d, o) => result[`${d} / ${o}`];
show.view('bar', {
  title: ctx.tr({ en: 'SQNR of the round trip, per data set and observer (higher is better)', 'zh-TW': '各資料 × observer 的還原 SQNR（越高越好）' }),
  labels: Object.keys(data),
  series: Object.keys(observers).map((o) => ({ name: o, values: Object.keys(data).map((d) => R(d, o).db) })),
  y_label: 'SQNR (dB)',
});
const reluGap = R('relu(gaussian)', 'MinMax affine').db - R('relu(gaussian)', 'MinMax symmetric').db;
show.text(ctx.tr({ en: `relu(gaussian): affine beats symmetric by ${reluGap.toFixed(2)} dB`,
  'zh-TW': `relu(gaussian)：affine 比 symmetric 高 ${reluGap.toFixed(2)} dB` }));
check(5 < reluGap && reluGap < 7, { en: 'relu(gaussian): affine beats symmetric by 5–7 dB (about one bit)', 'zh-TW': 'relu(gaussian)：affine 比 symmetric 高 5–7 dB（約 1 bit）' });
check(R('relu(gaussian)', 'MinMax affine').z === QMIN, { en: 'relu(gaussian), affine: the zero point sits at qmin, so every step covers [0, max]', 'zh-TW': 'relu(gaussian) 的 affine：zero point 落在 qmin，所有格子都用在 [0, max]' });
const names = Object.keys(data);
check(names.every((d) => R(d, 'MinMax affine').worst <= 0.5001 && R(d, 'MinMax symmetric').worst <= 0.5001),
  { en: 'MinMax: no value is off by more than half a step (what the clamp cuts at the edge is under half a step)', 'zh-TW': 'MinMax：每個值的誤差都不超過半格（邊緣被 clamp 切掉的不到半格）' });
check(R('heavy tail t(3)', 'Histogram affine').worst > 10, { en: 'Histogram on the heavy tail: the clipped values are off by many steps', 'zh-TW': 'Histogram 用在 heavy tail：被截斷的值誤差達許多格' });
const shrunk = names.every((d) => R(d, 'Histogram affine').hi < R(d, 'MinMax affine').hi);
const better = names.filter((d) => R(d, 'Histogram affine').db > R(d, 'MinMax affine').db);
show.text(ctx.tr({ en: `Histogram beats MinMax affine on: ${better.join(', ') || '(none)'}`, 'zh-TW': `Histogram 的 SQNR 比 MinMax affine 高的資料：${better.join('、') || '（無）'}` }));
check(shrunk, { en: 'Histogram pulls the upper bound in below MinMax\'s on all three data sets', 'zh-TW': '三種資料上，Histogram 的上界都比 MinMax 小' });
check(better.length > 0 && better.length < names.length, { en: 'Histogram wins on some data sets but not on all', 'zh-TW': 'Histogram 在部分資料上較好，但不是全部' });
reveal(reluGap);   // the value your prediction is marked against
