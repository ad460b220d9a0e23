// B2. A made-up conv weight whose channel 0 is 100 times larger than the rest, fake-quantized with the two
// weight observers the configs use (symmetric int8, -127..127).
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
const w0 = pt.randn([4, 3, 3, 3]);
const d = w0.data().slice();
const per = d.length / 4;
for (let i = 0; i < per; i++) d[i] *= 100;                   // channel 0 × 100
const w = pt.tensor(d, w0.shape);
const observe = (is_per_channel) => {
  const s = pt.get_symmetric_quantization_config({ is_per_channel }).weight;
  const Obs = pt[s.observer_or_fake_quant_ctr.name];
  const o = new Obs({ dtype: s.dtype, qscheme: s.qscheme, quant_min: s.quant_min, quant_max: s.quant_max, ...(is_per_channel ? { ch_axis: s.ch_axis ?? 0 } : {}), ...s.observer_or_fake_quant_ctr.kwargs });
  o.forward(w);
  return { ...o.calculate_qparams(), s };
};
const T = observe(false), C = observe(true);
const wT = pt.fake_quantize_per_tensor_affine(w, T.scale[0], T.zero_point[0], T.s.quant_min, T.s.quant_max);
const wC = pt.fake_quantize_per_channel_affine(w, C.scale, C.zero_point, 0, C.s.quant_min, C.s.quant_max);
const chan = (t, c) => pt.tensor(t.data().slice(c * per, (c + 1) * per), [per]);
const rows = [];
for (let c = 0; c < 4; c++) {
  const x = chan(w, c);
  rows.push({ c, absmax: Math.max(...x.data().map(Math.abs)), pt: pt.sqnr(x, chan(wT, c)), pc: pt.sqnr(x, chan(wC, c)) });
}
const whole = { pt: pt.sqnr(w, wT), pc: pt.sqnr(w, wC) };
show.table(['channel', 'absmax', tr('per-tensor SQNR (dB)', 'per-tensor SQNR (dB)'), tr('per-channel SQNR (dB)', 'per-channel SQNR (dB)')],
  [...rows.map((r) => [r.c, r.absmax.toFixed(2), r.pt.toFixed(1), r.pc.toFixed(1)]), [tr('whole tensor', '整個 tensor'), '', whole.pt.toFixed(1), whole.pc.toFixed(1)]]);
show.view('bar', { title: tr('SQNR per channel', '各 channel 的 SQNR'), labels: rows.map((r) => `ch ${r.c}`),
  series: [{ name: 'per-tensor', values: rows.map((r) => r.pt) }, { name: 'per-channel', values: rows.map((r) => r.pc) }], y_label: 'dB' });
show.text(tr(`per-tensor scale ${T.scale[0].toPrecision(4)}; per-channel scales ${Array.from(C.scale, (v) => v.toPrecision(4)).join(', ')}`,
  `per-tensor scale ${T.scale[0].toPrecision(4)}；per-channel scale ${Array.from(C.scale, (v) => v.toPrecision(4)).join('、')}`));

const small = rows.slice(1);
check(Math.abs(T.scale[0] - C.scale[0]) <= 1e-6 * C.scale[0] && rows[0].pt === rows[0].pc,
  tr('channel 0 sets the per-tensor scale, so it gets the same scale and SQNR both ways', 'per-tensor 的 scale 由 channel 0 決定，所以 channel 0 兩種方式的 scale 和 SQNR 都一樣'));
check(small.every((r) => r.pc > r.pt + 20), tr('every other channel gains more than 20 dB with its own scale', '其他每個 channel 用自己的 scale 都多出 20 dB 以上'));
check(small.every((r) => whole.pt > r.pt + 20), tr('the whole-tensor per-tensor SQNR hides them: it is over 20 dB above each small channel\'s', '整個 tensor 的 per-tensor SQNR 把問題藏起來了：比每個小 channel 都高 20 dB 以上'));
reveal(rows[1].pt);   // the value your prediction is marked against
