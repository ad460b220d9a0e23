// A. Affine int8 quantization by hand, then the same numbers from torchao's MinMaxObserver.
pt.manual_seed(0);
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
const x = pt.rand([2000]).mul(2).add(1);                     // values in [1, 3): all positive
const QMIN = -128, QMAX = 127, f32 = Math.fround;
const d = x.data();
const lo = Math.min(...d), hi = Math.max(...d);
const lo0 = Math.min(lo, 0), hi0 = Math.max(hi, 0);          // the range is widened to include 0
const scale = f32(f32(hi0 - lo0) / (QMAX - QMIN));          // 255 gaps between 256 levels
const zp = Math.min(QMAX, Math.max(QMIN, QMIN - Math.round(lo0 / scale)));

const obs = new pt.MinMaxObserver({ dtype: 'int8', quant_min: QMIN, quant_max: QMAX });   // per_tensor_affine
obs.forward(x);
const qp = obs.calculate_qparams();
const q = pt.quantize_per_tensor(x, qp.scale[0], qp.zero_point[0], QMIN, QMAX, 'int8');
const xr = pt.dequantize_per_tensor(q, qp.scale[0], qp.zero_point[0], QMIN, QMAX, 'int8');
const qv = q.data(), xrv = xr.data();
let worst = 0;
for (let i = 0; i < d.length; i++) worst = Math.max(worst, Math.abs(xrv[i] - d[i]));
const used = new Set(qv).size;
show.table(['', 'min', 'max', 'scale', 'zero point'], [
  [tr('data', '資料'), lo.toFixed(4), hi.toFixed(4), '', ''],
  [tr('by hand', '手算'), lo0.toFixed(4), hi0.toFixed(4), scale.toPrecision(6), zp],
  ['MinMaxObserver', obs.min_val.item().toFixed(4), obs.max_val.item().toFixed(4), qp.scale[0].toPrecision(6), qp.zero_point[0]]]);
show.view('histogram', { values: d, bins: 50, lo: -0.5, hi: 3.5, title: tr('the data, and the range the int8 grid covers', '資料，以及 int8 格點涵蓋的範圍'),
  range: { min: lo0, max: hi0, label: tr('int8 range', 'int8 範圍'), draggable: true },    // drag its ends: the view re-quantizes
  quant: { quant_min: QMIN, quant_max: QMAX, symmetric: false, dtype: 'int8' } });          // as the observer above would
show.text(tr(`int8 codes used: ${used} of 256 (from ${Math.min(...qv)} to ${Math.max(...qv)}); largest round-trip error ${worst.toExponential(3)} = ${(worst / qp.scale[0]).toFixed(3)} × scale`,
  `用到的 int8 碼：256 個中的 ${used} 個（${Math.min(...qv)} 到 ${Math.max(...qv)}）；來回最大誤差 ${worst.toExponential(3)} = ${(worst / qp.scale[0]).toFixed(3)} × scale`));

check(Math.abs(qp.scale[0] / scale - 1) < 1e-6 && qp.zero_point[0] === zp, tr('the hand formula gives the observer\'s scale and zero point', '手算公式得到和 observer 相同的 scale 與 zero point'));
check(worst <= 0.5 * qp.scale[0] * (1 + 1e-5), tr('inside the range, quantize → dequantize moves a value by at most half a step', '範圍之內，quantize → dequantize 讓數值最多移動半格'));
const zero = pt.dequantize_per_tensor(pt.quantize_per_tensor(pt.tensor([0], [1]), qp.scale[0], qp.zero_point[0], QMIN, QMAX, 'int8'), qp.scale[0], qp.zero_point[0], QMIN, QMAX, 'int8').item();
check(zero === 0 && lo > 0, tr('0 is not in the data, yet it is exactly representable: it maps to the zero point', '資料裡沒有 0，它卻能被精確表示：0 對應到 zero point'));
check(used < 256 && used <= Math.floor((hi - lo) / qp.scale[0]) + 2, tr('widening to 0 costs codes: only the part of the grid above the data\'s min is used', '延伸到 0 的代價是碼：只有資料最小值以上的那部分格點被用到'));
reveal(qp.zero_point[0]);   // the value your prediction is marked against
