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
const wide = p.forward(scaled(10)).data();               // later data: inputs scaled by 10
const after = pt.observer_placement_table(p).rows[0][4];
const fobs = new pt.FixedQParamsObserver({ dtype: 'uint8', scale: 1 / 256, zero_point: 0, quant_min: 0, quant_max: 255 });
const qdqErr = (obs, ys) => {
  const { scale, zero_point } = obs.calculate_qparams();
  const s = scale[0], z = zero_point[0];
  let worst = 0, clipped = 0;
  for (const y of ys) {
    const q = Math.round(y / s) + z, qc = Math.min(255, Math.max(0, q));
    if (qc !== q) clipped += 1;
    worst = Math.max(worst, Math.abs(y - (qc - z) * s));
  }
  return { s, z, worst, clipped, lo: (0 - z) * s, hi: (255 - z) * s };
};
const res = { fixed: qdqErr(fobs, wide), minmax: qdqErr(minmax, wide) };
show.table(['', 'scale', 'zp', ctx.tr({ en: 'covers', 'zh-TW': '涵蓋' }), ctx.tr({ en: 'clipped on the wide batch', 'zh-TW': '寬的那批被截斷的數' }), ctx.tr({ en: 'worst error', 'zh-TW': '最大誤差' })],
  Object.entries(res).map(([k, r]) => [k === 'fixed' ? 'FixedQParams' : ctx.tr({ en: 'MinMax, calibrated on narrow data', 'zh-TW': 'MinMax，用窄的資料校準' }), r.s.toExponential(4), r.z, `[${r.lo.toFixed(3)}, ${r.hi.toFixed(3)}]`, `${r.clipped} / ${wide.length}`, r.worst.toFixed(4)]));
check(before === after, { en: `the fixed observer reports ${after} before and after the wide batch`, 'zh-TW': `固定的 observer 在寬的那批前後都回報 ${after}` });
check(res.fixed.worst <= res.fixed.s * (1 + 1e-6) && res.minmax.clipped > 0 && res.minmax.worst > 10 * res.fixed.worst,
  { en: 'fixed qparams stay within one step on any sigmoid output; the calibrated range clips the wide batch badly', 'zh-TW': '固定 qparams 對任何 sigmoid 輸出誤差都不超過一格；校準出來的範圍則嚴重截斷寬的那批' });
