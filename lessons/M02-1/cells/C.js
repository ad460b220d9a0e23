// C. 20 calibration batches; batch 3 is ten times louder than the rest (C.py's order). Formula (2) by hand, in float32.
const { QMIN, QMAX, f32, minmax } = kit, c = 0.1;
const mm = minmax();
const ma = new pt.MovingAverageMinMaxObserver({ averaging_constant: c, dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: QMIN, quant_max: QMAX });
let handMin = null;
const track = [], rows = [], range = (o) => [o.min_val.item(), o.max_val.item()];
for (let i = 0; i < 20; i++) {
  const amp = i === 3 ? 10 : 1, batch = pt.randn([1000]).mul(amp);
  mm.forward(batch); ma.forward(batch);
  const bMin = batch.data().reduce((a, v) => Math.min(a, v));
  handMin = handMin === null ? bMin : f32(handMin + f32(f32(c) * f32(bMin - handMin)));   // formula (2)
  track.push({ mm: range(mm), ma: range(ma) });
  if ([0, 2, 3, 4, 10, 19].includes(i)) rows.push([i, `${amp}x`, ...[mm, ma].map((o) => `[${range(o).map((v) => v.toFixed(2)).join(', ')}]`)]);
}
show.table(['batch', t('amplitude'), t('mm_range'), t('ma_range')], rows);
const series = (name, k, j) => ({ name, y: track.map((s) => s[k][j]) });
show.view('line', { title: t('timeline'), series: [series('MinMax max', 'mm', 1), series('MovingAverage max', 'ma', 1), series('MinMax min', 'mm', 0), series('MovingAverage min', 'ma', 0)],
  marks: [{ x: 3, label: 'spike' }], x_label: 'batch', y_label: t('bound') });
const mmMin = track.map((s) => s.mm[0]), [maMin, maMax] = range(ma), [mmLo, mmHi] = range(mm);
check(Math.abs(maMin - handMin) <= 1e-8 + 1e-5 * Math.abs(handMin), t('formula_2'));
check(mmMin.slice(3).every((v) => v === mmMin[3]), t('mm_frozen'));
check(mmMin.every((v, i) => i === 0 || v <= mmMin[i - 1]), t('mm_widens'));
check(maMax - maMin < mmHi - mmLo, t('ma_narrower'));
