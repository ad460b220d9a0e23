// B. Calibrate by hand: one observer per place XNNPACK's PTQ config would put one.
//   x      -> conv  : HistogramObserver, int8 affine [-128, 127]      (input activation)
//   weight -> conv  : PerChannelMinMaxObserver, ch_axis 0, symmetric [-127, 127]
//   relu   -> output: HistogramObserver, int8 affine [-128, 127]      (after relu: conv+relu is one pattern)
const act = { dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: -128, quant_max: 127, eps: 2 ** -12 };
const obsX = new pt.HistogramObserver(act);
const obsOut = new pt.HistogramObserver(act);
const obsW = new pt.PerChannelMinMaxObserver({ dtype: 'int8', qscheme: 'per_channel_symmetric', quant_min: -127, quant_max: 127, ch_axis: 0, eps: 2 ** -12 });
const { gm, weight } = state;
obsW.forward(weight);                               // weights are constants: one look is enough
const outs = [];
state.calib = [];                                   // kept for cell D
for (let b = 0; b < 4; b++) {                       // calibration: 4 batches of 8 images
  const xb = pt.randn([8, 3, 16, 16]);
  state.calib.push(xb);
  obsX.forward(xb);
  const yb = gm.forward(xb);                        // run the float graph ...
  obsOut.forward(yb);                               // ... and watch its output
  outs.push(yb.data());
}
const qx = obsX.calculate_qparams(), qo = obsOut.calculate_qparams(), qw = obsW.calculate_qparams();
state.qp = { x: qx, out: qo, w: qw };
const fmt = (q) => `${q.scale[0].toPrecision(5)} / ${q.zero_point[0]}`;
const ws = Array.from(qw.scale);
show.table([ctx.tr({ en: 'edge', 'zh-TW': '邊' }), 'observer', 'scale / zero point'], [
  ['x → conv2d', 'HistogramObserver', fmt(qx)],
  ['conv_weight → conv2d', 'PerChannelMinMaxObserver', ctx.tr({ en: `${ws.length} scales, ${Math.min(...ws).toPrecision(4)} … ${Math.max(...ws).toPrecision(4)}; zero points all 0`,
    'zh-TW': `${ws.length} 個 scale，${Math.min(...ws).toPrecision(4)} … ${Math.max(...ws).toPrecision(4)}；zero point 全為 0` })],
  ['relu → output', 'HistogramObserver', fmt(qo)],
]);
const all = new Float32Array(outs.reduce((a, o) => a + o.length, 0));
let off = 0; for (const o of outs) { all.set(o, off); off += o.length; }
const so = qo.scale[0], zo = qo.zero_point[0];
show.view('histogram', { values: all, bins: 64, log_y: true, title: ctx.tr({ en: 'relu output during calibration', 'zh-TW': '校準時的 relu 輸出' }),
  range: { min: (-128 - zo) * so, max: (127 - zo) * so, label: 'HistogramObserver' } });

check(zo === -128, { en: 'relu output: the zero point sits at qmin (one-sided data, M02-1)', 'zh-TW': 'relu 輸出：zero point 落在 qmin（單邊資料，M02-1）' });
const wv = weight.data(), per = wv.length / ws.length;
const byHand = ws.map((_, c) => Math.fround(wv.slice(c * per, (c + 1) * per).reduce((m, v) => Math.max(m, Math.abs(v)), 0) / 127));
check(byHand.every((h, c) => h === ws[c]) && Array.from(qw.zero_point).every((z) => z === 0),
  { en: 'weight: each output channel\'s scale is max|w| / 127, zero point 0 (by hand)', 'zh-TW': 'weight：每個輸出 channel 的 scale 是 max|w| / 127，zero point 為 0（手算）' });
check(so * 255 <= obsOut.max_val.item() * (1 + 1e-6), { en: 'the histogram observer\'s output range does not reach past the largest value it saw', 'zh-TW': 'histogram observer 的輸出範圍沒有超過看過的最大值' });
