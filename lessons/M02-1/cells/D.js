// D. Per-channel: one scale per slice along ch_axis. Output channel 0 is made 5x larger.
const { f32, qdqPerChannel } = kit;
const w0 = pt.randn([4, 3, 3, 3]).data();
for (let i = 0; i < 27; i++) w0[i] = f32(w0[i] * 5);          // conv_w[0] *= 5
const w = pt.tensor(w0, [4, 3, 3, 3]);
const shape = w.shape;
const rows = [], perAxis = {};
let formulaOk = true;
for (const axis of [0, 1]) {
  const obs = new pt.PerChannelMinMaxObserver({ ch_axis: axis, dtype: 'int8', qscheme: 'per_channel_symmetric', quant_min: -127, quant_max: 127 });
  obs.forward(w);
  const { scale, zero_point } = obs.calculate_qparams();
  const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const ch = (i) => Math.floor(i / inner) % shape[axis];      // the element's channel along `axis`
  perAxis[axis] = pt.sqnr(w, pt.tensor(qdqPerChannel(w0, shape, axis, scale, zero_point, -127, 127), shape));
  // formula (1) per channel: max |w| over the slice / ((127 - (-127)) / 2)
  const amax = new Array(shape[axis]).fill(0);
  w0.forEach((v, i) => { amax[ch(i)] = Math.max(amax[ch(i)], Math.abs(v)); });
  amax.forEach((m, c) => { if (scale[c] !== f32(m / 127)) formulaOk = false; });
  rows.push([axis, ctx.tr(axis === 0 ? { en: 'output channel', 'zh-TW': '輸出 channel' } : { en: 'input channel', 'zh-TW': '輸入 channel' }),
    `(${scale.length},)`, Array.from(scale, (s) => s.toFixed(4)).join(', '), perAxis[axis].toFixed(2)]);
}
show.table(['ch_axis', ctx.tr({ en: 'along', 'zh-TW': '沿著' }), ctx.tr({ en: 'scale shape', 'zh-TW': 'scale 的形狀' }), 'scale', 'SQNR (dB)'], rows);
check(formulaOk, { en: 'every channel\'s scale is max|w| / 127 over that channel (formula (1) per slice)', 'zh-TW': '每個 channel 的 scale 都是該 channel 的 max|w| / 127（逐片套公式 (1)）' });
check(perAxis[0] > perAxis[1], { en: 'ch_axis=0 (the axis that was scaled) beats ch_axis=1', 'zh-TW': 'ch_axis=0（被放大的那一軸）比 ch_axis=1 好' });
reveal(perAxis[0] > perAxis[1] ? '0' : '1');   // the value your prediction is marked against
