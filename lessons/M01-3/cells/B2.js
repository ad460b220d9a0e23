// B2. A made-up conv weight whose channel 0 is 100 times larger than the rest, fake-quantized with the two
// weight observers the configs use (symmetric int8, -127..127).
const w0 = pt.randn([4, 3, 3, 3]).data(), per = w0.length / 4;
const w = pt.tensor(w0.map((v, i) => (i < per ? Math.fround(v * 100) : v)), [4, 3, 3, 3]);   // channel 0 × 100
const obsT = new pt.MinMaxObserver({ dtype: 'int8', qscheme: 'per_tensor_symmetric', quant_min: -127, quant_max: 127 });
const obsC = new pt.PerChannelMinMaxObserver({ ch_axis: 0, dtype: 'int8', qscheme: 'per_channel_symmetric', quant_min: -127, quant_max: 127 });
obsT.forward(w); obsC.forward(w);
const T = obsT.calculate_qparams(), C = obsC.calculate_qparams();
const wT = pt.fake_quantize_per_tensor_affine(w, T.scale[0], T.zero_point[0], -127, 127);
const wC = pt.fake_quantize_per_channel_affine(w, C.scale, C.zero_point, 0, -127, 127);
const chan = (x, c) => pt.tensor(x.data().slice(c * per, (c + 1) * per), [per]);
const rows = [0, 1, 2, 3].map((c) => ({ c, absmax: Math.max(...chan(w, c).data().map(Math.abs)), pt: pt.sqnr(chan(w, c), chan(wT, c)), pc: pt.sqnr(chan(w, c), chan(wC, c)) }));
const whole = { pt: pt.sqnr(w, wT), pc: pt.sqnr(w, wC) };
show.table(['channel', 'absmax', t('pt_sqnr'), t('pc_sqnr')], [...rows.map((r) => [r.c, r.absmax.toFixed(2), r.pt.toFixed(1), r.pc.toFixed(1)]), [t('whole'), '', whole.pt.toFixed(1), whole.pc.toFixed(1)]]);
show.view('bar', { title: t('per_channel_title'), labels: rows.map((r) => `ch ${r.c}`), series: [{ name: 'per-tensor', values: rows.map((r) => r.pt) }, { name: 'per-channel', values: rows.map((r) => r.pc) }], y_label: 'dB' });
const small = rows.slice(1);
check(Math.abs(T.scale[0] - C.scale[0]) <= 1e-6 * C.scale[0] && rows[0].pt === rows[0].pc, t('channel0_sets'));
check(small.every((r) => r.pc > r.pt + 20), t('small_gain'));
check(small.every((r) => whole.pt > r.pt + 20), t('whole_hides'));
reveal(rows[1].pt);   // the value your prediction is marked against
