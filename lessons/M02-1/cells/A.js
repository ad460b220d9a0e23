// Shared helpers for the whole page (kept in `state`), then experiment A.
const QMIN = -128, QMAX = 127;
const f32 = Math.fround;
// round half to even, as torch.round (Math.round rounds halves up)
const rne = (v) => { const r = Math.round(v); return r - v === 0.5 && (r & 1) ? r - 1 : r; };
// The quantize -> dequantize round trip, in float32 like torch tensor arithmetic:
//   q = round(x / s) + zp, clamp to [qmin, qmax], then (q - zp) * s.
// Returns the dequantized values and how many elements the clamp changed (clipped).
function qdq(values, scale, zp, qmin = QMIN, qmax = QMAX) {
  const out = new Float32Array(values.length);
  const s = f32(scale);
  let clipped = 0;
  for (let i = 0; i < values.length; i++) {
    const q = f32(rne(f32(values[i] / s)) + zp);
    const qc = q < qmin ? qmin : q > qmax ? qmax : q;
    if (qc !== q) clipped++;
    out[i] = f32(f32(qc - zp) * s);
  }
  return { values: out, clipped };
}
// The same per channel: scales[c] and zero_points[c] for the element's channel c along `axis`.
function qdqPerChannel(values, shape, axis, scales, zero_points, qmin, qmax) {
  const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const c = Math.floor(i / inner) % shape[axis];
    const s = f32(scales[c]), zp = zero_points[c];
    const q = f32(rne(f32(values[i] / s)) + zp);
    out[i] = f32(f32(Math.min(Math.max(q, qmin), qmax) - zp) * s);
  }
  return out;
}
const minmax = (symmetric = false) => new pt.MinMaxObserver({
  dtype: 'int8', qscheme: symmetric ? 'per_tensor_symmetric' : 'per_tensor_affine', quant_min: QMIN, quant_max: QMAX });
Object.assign(state, { QMIN, QMAX, f32, qdq, qdqPerChannel, minmax });

pt.manual_seed(0);
const x = pt.randn([20000]);
state.x = x;
const aff = minmax(), sym = minmax(true);
aff.forward(x);
sym.forward(x);
const qa = aff.calculate_qparams(), qs = sym.calculate_qparams();
const mn = aff.min_val.item(), mx = aff.max_val.item();
// formula (1), in float32: max(|min|, max) / ((qmax - qmin) / 2)
const sSymHand = f32(Math.max(-mn, mx) / f32((QMAX - QMIN) / 2));

show.table(
  [ctx.tr({ en: 'scheme', 'zh-TW': '方案' }), 'scale', 'zero point', ctx.tr({ en: 'by hand', 'zh-TW': '手算' })],
  [['affine', qa.scale[0].toFixed(6), qa.zero_point[0], '—'],
   ['symmetric', qs.scale[0].toFixed(6), qs.zero_point[0], ctx.tr({ en: 'formula (1): ', 'zh-TW': '公式 (1)：' }) + sSymHand.toFixed(6)]]);
show.text(ctx.tr({ en: `observed range: [${mn.toFixed(4)}, ${mx.toFixed(4)}]`, 'zh-TW': `觀察到的範圍：[${mn.toFixed(4)}, ${mx.toFixed(4)}]` }));

// The helper divides by the scale (x / s), as the notebook's qdq does; the quantize_per_tensor op multiplies by
// float32(1 / s). The two can round differently where x / s sits right on a rounding boundary.
const xv = x.data();
const recip = [], divRows = [];
for (const [name, q] of [['affine', qa], ['symmetric', qs]]) {
  const s = q.scale[0], z = q.zero_point[0];
  const byDiv = qdq(xv, s, z).values;
  const byOp = pt.dequantize_per_tensor(pt.quantize_per_tensor(x, s, z, QMIN, QMAX, 'int8'), s, z, QMIN, QMAX, 'int8').data();
  const steps = [];
  for (let i = 0; i < xv.length; i++) if (byDiv[i] !== byOp[i]) steps.push(Math.abs(byDiv[i] - byOp[i]) / s);
  recip.push(steps);
  divRows.push([name, `${steps.length} / ${xv.length}`, steps.length ? Math.max(...steps).toFixed(4) : '—']);
}
show.table([ctx.tr({ en: 'scheme', 'zh-TW': '方案' }), ctx.tr({ en: 'x / s vs x · (1/s): elements that differ', 'zh-TW': 'x / s 與 x · (1/s)：結果不同的元素' }),
  ctx.tr({ en: 'largest difference (steps)', 'zh-TW': '最大差異（格）' })], divRows);

check(qs.zero_point[0] === 0, { en: 'symmetric: the zero point is 0', 'zh-TW': 'symmetric：zero point 是 0' });
check(Math.abs(qs.scale[0] - sSymHand) <= 1e-8 + 1e-5 * Math.abs(sSymHand),
  { en: 'formula (1) by hand gives the observer\'s symmetric scale', 'zh-TW': '公式 (1) 手算的結果等於 observer 的 symmetric scale' });
check(qs.scale[0] > qa.scale[0], { en: 'same data: the symmetric scale is larger (coarser steps) than the affine one', 'zh-TW': '同一份資料：symmetric 的 scale 比 affine 大（格子較粗）' });
check(recip.every((st) => st.length <= xv.length / 1000 && st.every((d) => Math.abs(d - 1) < 1e-4)),
  { en: 'dividing vs multiplying by the reciprocal: at most 0.1 % of elements differ, each by exactly one step', 'zh-TW': '除法與乘倒數：最多 0.1 % 的元素不同，而且每個都剛好差一格' });
reveal(qs.scale[0] > qa.scale[0] ? 'symmetric' : 'affine');   // the value your prediction is marked against
