// B. Calibrate by hand: one observer per place XNNPACK's PTQ config would put one (B.py's order).
//   x -> conv: HistogramObserver int8 affine; weight -> conv: PerChannelMinMaxObserver symmetric [-127, 127];
//   relu -> output: HistogramObserver int8 affine (after relu: conv + relu is one pattern)
const { gm, weight } = state;
const act = { dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: -128, quant_max: 127, eps: 2 ** -12 };
const obsX = new pt.HistogramObserver(act), obsOut = new pt.HistogramObserver(act);
const obsW = new pt.PerChannelMinMaxObserver({ dtype: 'int8', qscheme: 'per_channel_symmetric', quant_min: -127, quant_max: 127, ch_axis: 0, eps: 2 ** -12 });
obsW.forward(weight);                                    // weights are constants: one look is enough
state.calib = [0, 1, 2, 3].map(() => pt.randn([8, 3, 16, 16]));   // 4 calibration batches, kept for cell D
const outs = state.calib.map((xb) => { obsX.forward(xb); const yb = gm.forward(xb); obsOut.forward(yb); return Array.from(yb.data()); });
const qp = state.qp = { x: obsX.calculate_qparams(), out: obsOut.calculate_qparams(), w: obsW.calculate_qparams() };
const ws = Array.from(qp.w.scale), [so] = qp.out.scale, [zo] = qp.out.zero_point, f = (q) => `${q.scale[0].toPrecision(5)} / ${q.zero_point[0]}`;
show.table([t('edge'), 'observer', 'scale / zero point'], [['x → conv2d', 'HistogramObserver', f(qp.x)],
  ['conv_weight → conv2d', 'PerChannelMinMaxObserver', t('weight_scales', { n: ws.length, lo: Math.min(...ws).toPrecision(4), hi: Math.max(...ws).toPrecision(4) })], ['relu → output', 'HistogramObserver', f(qp.out)]]);
show.view('histogram', { values: outs.flat(), bins: 64, log_y: true, title: t('relu_hist'), range: { min: (-128 - zo) * so, max: (127 - zo) * so, label: 'HistogramObserver' } });
const wv = weight.data(), per = wv.length / ws.length;
const byHand = ws.map((_, c) => Math.fround(wv.slice(c * per, (c + 1) * per).reduce((m, v) => Math.max(m, Math.abs(v)), 0) / 127));
check(zo === -128, t('zp_qmin'));
check(byHand.every((h, c) => h === ws[c]) && Array.from(qp.w.zero_point).every((z) => z === 0), t('weight_by_hand'));
check(so * 255 <= obsOut.max_val.item() * (1 + 1e-6), t('range_inside'));
