// A. A fake quantizer's forward: quantize -> dequantize, still float32, but on a 256-value grid.
const QMIN = -128, QMAX = 127;
pt.manual_seed(0);
const x = pt.randn([10000]);
const fq = new pt.FakeQuantize({ dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: QMIN, quant_max: QMAX });
const y = fq.forward(x);                          // observes x, updates scale / zero_point, then q -> dq
const s = fq.scale.item(), z = fq.zero_point.item();
state.x = x; state.fq = fq; state.QMIN = QMIN; state.QMAX = QMAX;

// The same two steps with the explicit ops (both multiply by float32(1 / scale), as torch's kernels do).
const q = pt.quantize_per_tensor(x, s, z, QMIN, QMAX, 'int8');
const dq = pt.dequantize_per_tensor(q, s, z, QMIN, QMAX, 'int8');
const op = pt.fake_quantize_per_tensor_affine(x, s, z, QMIN, QMAX);
const xv = x.data(), yv = y.data(), qv = q.data(), dqv = dq.data(), opv = op.data();

show.table(['x', 'q = round(x/s) + zp', 'y = (q − zp)·s', 'y − x'],
  Array.from({ length: 6 }, (_, i) => [xv[i].toFixed(6), qv[i], yv[i].toFixed(6), (yv[i] - xv[i]).toExponential(2)]));
const err = new Float32Array(xv.length);
let changed = 0, worst = 0;
for (let i = 0; i < xv.length; i++) {
  err[i] = yv[i] - xv[i];
  if (yv[i] !== xv[i]) changed++;
  worst = Math.max(worst, Math.abs(err[i]));
}
const levels = new Set(yv).size;
show.text(ctx.tr({ en: `scale ${s.toPrecision(6)}, zero point ${z}; ${changed} of ${xv.length} values changed; ${levels} distinct outputs; largest change ${worst.toPrecision(4)} = ${(worst / s).toFixed(4)} steps`,
  'zh-TW': `scale ${s.toPrecision(6)}，zero point ${z}；${xv.length} 個值中有 ${changed} 個被改變；輸出只有 ${levels} 種不同的值；最大改變量 ${worst.toPrecision(4)} = ${(worst / s).toFixed(4)} 格` }));
show.view('histogram', { values: err, bins: 40, lo: -s, hi: s, title: ctx.tr({ en: 'y − x (the rounding error)', 'zh-TW': 'y − x（捨入誤差）' }),
  range: { min: -s / 2, max: s / 2, label: '±s/2' } });

check(changed > 0.9 * xv.length, { en: 'fake quant changes (almost) every value: forward is not the identity', 'zh-TW': 'fake quant 幾乎改變了每個值：forward 不是恆等函數' });
check(yv.every((v, i) => Object.is(v, opv[i])), { en: 'FakeQuantize.forward == fake_quantize_per_tensor_affine with its scale / zero_point (bit for bit)', 'zh-TW': 'FakeQuantize.forward 與用它的 scale／zero point 呼叫 fake_quantize_per_tensor_affine 逐位元相同' });
check(yv.every((v, i) => Object.is(v, dqv[i])), { en: '… and == dequantize(quantize(x)) (bit for bit)', 'zh-TW': '…… 也與 dequantize(quantize(x)) 逐位元相同' });
check(levels <= QMAX - QMIN + 1, { en: 'the output takes at most 256 different values', 'zh-TW': '輸出最多僅有 256 種不同的值' });
check(worst <= s / 2 * (1 + 1e-5), { en: 'no value moves more than half a step (the range covers this batch)', 'zh-TW': '沒有任何值移動超過半格（範圍涵蓋了這批資料）' });
reveal(xv.length - changed);   // the value your prediction is marked against
