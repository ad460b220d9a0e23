// F. PlaceholderObserver next to MinMaxObserver on the same 1000 values.
const y = pt.randn([1000]);
const yv = y.data();
const mmObs = kit.minmax();
const ph = new pt.PlaceholderObserver({ dtype: 'float32' });
const qparamsOrError = (obs) => {
  try {
    const { scale, zero_point } = obs.calculate_qparams();
    return { ok: true, text: `scale=${scale[0].toFixed(4)}, zp=${zero_point[0]}` };
  } catch (e) {
    return { ok: false, text: `${e.name}: ${e.message}` };
  }
};
const rows = [], info = {};
for (const [name, obs] of [['MinMaxObserver', mmObs], ['PlaceholderObserver', ph]]) {
  const out = obs.forward(y).data();
  const buffers = obs.named_buffers().map(([n]) => n);
  const qp = qparamsOrError(obs);
  info[name] = { buffers, qp, same: out.every((v, i) => Object.is(v, yv[i])) };
  rows.push([name, String(info[name].same), buffers.join(', ') || ctx.tr({ en: '(none)', 'zh-TW': '（沒有）' }), qp.text]);
}
show.table(['observer', ctx.tr({ en: 'forward output == input', 'zh-TW': 'forward 輸出 == 輸入' }),
  ctx.tr({ en: 'buffers', 'zh-TW': '記錄用的 buffer' }), 'calculate_qparams()'], rows);
const ymin = yv.reduce((a, v) => Math.min(a, v), Infinity);
check(info.MinMaxObserver.buffers.includes('min_val') && mmObs.min_val.item() === ymin,
  { en: 'MinMaxObserver records the range: its min_val buffer is the data\'s minimum', 'zh-TW': 'MinMaxObserver 記下範圍：min_val buffer 就是資料的最小值' });
check(info.PlaceholderObserver.buffers.length === 0, { en: 'PlaceholderObserver has no buffers: it records nothing', 'zh-TW': 'PlaceholderObserver 沒有 buffer：什麼都不記' });
check(info.MinMaxObserver.qp.ok && !info.PlaceholderObserver.qp.ok,
  { en: 'calculate_qparams works for MinMax and raises for Placeholder', 'zh-TW': 'MinMax 算得出 calculate_qparams；Placeholder 呼叫會報錯' });
