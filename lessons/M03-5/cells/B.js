// B. linear -> sigmoid. The sigmoid output always lies in [0, 1], so its qparams can be written down:
// uint8, scale 1/256, zero point 0. Compare with a MinMax observer calibrated on narrow data, then a wide batch.
const fixed = new pt.FixedQParamsQuantizationSpec({ dtype: 'uint8', scale: 1 / 256, zero_point: 0, quant_min: 0, quant_max: 255, qscheme: 'per_tensor_affine' });
class SigmoidFixed extends pt.Quantizer {
  annotate(gm) { for (const n of gm.nodes) if (state.isOp(n, 'sigmoid')) gm.annotate(n, new pt.QuantizationAnnotation({ output_qspec: fixed, _annotated: true })); }
  validate() {}
}
const shape = pt.get_model('linear_sigmoid').input_shape;
const scaled = (k) => { const x = pt.randn([64, ...shape]); return pt.tensor(x.data().map((v) => k * v), x.shape); };
const p = pt.prepare_pt2e(state.ex('linear_sigmoid'), new SigmoidFixed());
const narrow = p.forward(scaled(0.1));                   // calibration: inputs scaled by 0.1
const before = pt.observer_placement_table(p).rows[0][4];
const minmax = new pt.MinMaxObserver({ dtype: 'uint8', qscheme: 'per_tensor_affine', quant_min: 0, quant_max: 255 });
minmax.forward(narrow);
const wideT = p.forward(scaled(10)), wide = wideT.data();   // later data: inputs scaled by 10
const after = pt.observer_placement_table(p).rows[0][4];
const fobs = new pt.FixedQParamsObserver({ dtype: 'uint8', scale: 1 / 256, zero_point: 0, quant_min: 0, quant_max: 255 });
const qdqErr = (obs, ys) => {                              // the engine's quantize -> dequantize with obs's qparams
  const { scale, zero_point } = obs.calculate_qparams();
  const s = scale[0], z = zero_point[0];
  const back = pt.dequantize_per_tensor(pt.quantize_per_tensor(wideT, s, z, 0, 255, 'uint8'), s, z, 0, 255, 'uint8').data();
  const err = ys.map((y, i) => Math.abs(y - back[i]));
  const hi = (255 - z) * s;
  return { s, z, err, worst: Math.max(...err), clipped: ys.filter((y) => y > hi + s / 2).length, lo: (0 - z) * s, hi };
};
const res = { fixed: qdqErr(fobs, wide), minmax: qdqErr(minmax, wide) };
show.table(['', 'scale', 'zp', ctx.tr({ en: 'covers', 'zh-TW': '涵蓋' }), ctx.tr({ en: 'clipped on the wide batch', 'zh-TW': '寬的那批被截斷的數' }), ctx.tr({ en: 'worst error', 'zh-TW': '最大誤差' })],
  Object.entries(res).map(([k, r]) => [k === 'fixed' ? 'FixedQParams' : ctx.tr({ en: 'MinMax, calibrated on narrow data', 'zh-TW': 'MinMax，用窄的資料校準' }), r.s.toExponential(4), r.z, `[${r.lo.toFixed(3)}, ${r.hi.toFixed(3)}]`, `${r.clipped} / ${wide.length}`, r.worst.toFixed(4)]));
check(before === after, { en: `the fixed observer reports ${after} before and after the wide batch`, 'zh-TW': `固定的 observer 在寬的那批前後都回報 ${after}` });
const ones = wide.filter((y) => y === 1).length;           // float32 sigmoid saturates to exactly 1.0
show.text(ctx.tr({ en: `${ones} of ${wide.length} sigmoid outputs are exactly 1.0, one full step above the last grid point 255/256`,
  'zh-TW': `${wide.length} 個 sigmoid 輸出中有 ${ones} 個正好是 1.0，比最後一個格點 255/256 高出整整一格` }));
check(ones > 0 && res.fixed.worst === res.fixed.s && res.fixed.err.every((e, i) => e < res.fixed.s / 2 + 1e-7 || wide[i] > res.fixed.hi + res.fixed.s / 2),
  { en: 'fixed qparams: outputs above the last grid point + half a step are clipped, and one of exactly 1.0 by a full step (the worst error); all others are within half a step', 'zh-TW': '固定 qparams：超過最後一個格點再加半格的輸出會被截斷，正好是 1.0 的更是整整一格（最大誤差）；其他輸出都在半格以內' });
check(res.minmax.clipped > 0 && res.minmax.worst > 10 * res.fixed.worst,
  { en: 'the range calibrated on narrow data clips the wide batch badly', 'zh-TW': '用窄資料校準出來的範圍，則嚴重截斷寬的那批' });
