// C. 20 calibration batches; batch 3 is ten times louder than the rest.
const { QMIN, QMAX, f32, minmax } = kit;
const c = 0.1;
const mm = minmax();
const ma = new pt.MovingAverageMinMaxObserver({ averaging_constant: c, dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: QMIN, quant_max: QMAX });
let handMin = null;
const mmMin = [], rows = [];
const track = { mmMin: [], mmMax: [], maMin: [], maMax: [] };           // for the timeline chart
const fmt = (o) => `[${o.min_val.item().toFixed(2)}, ${o.max_val.item().toFixed(2)}]`;
for (let i = 0; i < 20; i++) {
  const amp = i === 3 ? 10 : 1;
  const batch = pt.randn([1000]).mul(amp);
  mm.forward(batch);
  ma.forward(batch);
  const bMin = batch.data().reduce((a, v) => Math.min(a, v), Infinity);
  // formula (2) in float32: the first batch sets it, then min += c * (batch_min - min)
  handMin = handMin === null ? bMin : f32(handMin + f32(f32(c) * f32(bMin - handMin)));
  mmMin.push(mm.min_val.item());
  track.mmMin.push(mm.min_val.item()); track.mmMax.push(mm.max_val.item());
  track.maMin.push(ma.min_val.item()); track.maMax.push(ma.max_val.item());
  if ([0, 2, 3, 4, 10, 19].includes(i)) rows.push([i, `${amp}x`, fmt(mm), fmt(ma)]);
}
show.table(['batch', ctx.tr({ en: 'amplitude', 'zh-TW': '本批幅度' }), ctx.tr({ en: 'MinMax range', 'zh-TW': 'MinMax 的範圍' }),
  ctx.tr({ en: 'MovingAverage range', 'zh-TW': 'MovingAverage 的範圍' })], rows);
show.view('line', {
  title: ctx.tr({ en: 'calibration timeline: the range each observer holds after every batch', 'zh-TW': '校準時間軸：每一批之後各 observer 的範圍' }),
  series: [
    { name: 'MinMax max', y: track.mmMax }, { name: 'MovingAverage max', y: track.maMax },
    { name: 'MinMax min', y: track.mmMin }, { name: 'MovingAverage min', y: track.maMin },
  ],
  marks: [{ x: 3, label: ctx.tr({ en: 'spike', 'zh-TW': 'spike' }) }],
  x_label: 'batch', y_label: ctx.tr({ en: 'range bound', 'zh-TW': '範圍邊界' }),
});
const maMin = ma.min_val.item();
check(Math.abs(maMin - handMin) <= 1e-8 + 1e-5 * Math.abs(handMin), { en: 'formula (2) by hand gives the MovingAverage observer\'s min_val', 'zh-TW': '公式 (2) 手算等於 MovingAverage observer 的 min_val' });
check(mmMin.slice(3).every((v) => v === mmMin[3]), { en: 'MinMax: after the spike (batch 3) its min never moves again', 'zh-TW': 'MinMax：spike（第 3 批）之後 min 再也沒變過' });
check(mmMin.every((v, i) => i === 0 || v <= mmMin[i - 1]), { en: 'MinMax: the range only ever widens', 'zh-TW': 'MinMax：範圍只會變寬' });
check(ma.max_val.item() - maMin < mm.max_val.item() - mm.min_val.item(), { en: 'after 20 batches MovingAverage\'s range is narrower than MinMax\'s', 'zh-TW': '20 批之後，MovingAverage 的範圍比 MinMax 窄' });
