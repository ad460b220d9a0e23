// B. Two fake-quant classes, one weight, two scales. Arguments of XNNPACK's QAT weight spec (per tensor):
// int8, symmetric, [-127, 127], eps 2^-12.
const f32 = Math.fround;
const w = pt.randn([16, 3, 3, 3]).mul(0.2);
const cases = [
  ['symmetric [-127, 127]', { dtype: 'int8', qscheme: 'per_tensor_symmetric', quant_min: -127, quant_max: 127, eps: 2 ** -12 }],
  ['affine [-128, 127]', { dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: -128, quant_max: 127, eps: 2 ** -12 }],
];
// The observer formula (torchao's calculate_qparams, float32), which convert_pt2e bakes into the graph.
function observerScale(mn, mx, qmin, qmax, symmetric, eps) {
  const lo = Math.min(mn, 0), hi = Math.max(mx, 0);
  const s = symmetric ? f32(Math.max(-lo, hi) / f32((qmax - qmin) / 2)) : f32(f32(hi - lo) / f32(qmax - qmin));
  return Math.max(s, f32(eps));
}
// fbgemm's ChooseQuantizationParams (double arithmetic), which the fused training-time kernel calls.
function fusedScale(mn, mx, qmin, qmax, symmetric) {
  if (symmetric && mn < 0 && mx > 0) {
    const sqmin = -(Math.trunc((qmax - qmin) / 2) + 1), sqmax = Math.trunc((qmax - qmin) / 2);
    const m = Math.max(Math.abs(f32(mn / sqmin)), Math.abs(f32(mx / sqmax)));
    mn = f32(m * sqmin); mx = f32(m * sqmax);
  }
  mn = Math.min(mn, 0); mx = Math.max(mx, 0);
  return f32((mx - mn) / (qmax - qmin));
}
const rows = [], res = {};
for (const [label, args] of cases) {
  const fq = new pt.FakeQuantize(args), fused = new pt.FusedMovingAvgObsFakeQuantize(args);
  const yFq = fq.forward(w).data(), yFused = fused.forward(w).data();
  const mn = fused.buffer('activation_post_process.min_val').item(), mx = fused.buffer('activation_post_process.max_val').item();
  const sym = args.qscheme.endsWith('symmetric');
  const r = {
    fq: fq.scale.item(), fused: fused.scale.item(), convert: fused.calculate_qparams().scale[0],
    handObs: observerScale(mn, mx, args.quant_min, args.quant_max, sym, args.eps), handFused: fusedScale(mn, mx, args.quant_min, args.quant_max, sym),
    outputsDiffer: yFq.some((v, i) => v !== yFused[i]),
  };
  res[label] = r;
  rows.push([label, r.fq.toPrecision(8), r.fused.toPrecision(8), r.convert.toPrecision(8), (r.fused / r.fq).toFixed(6),
    ctx.tr(r.outputsDiffer ? { en: 'yes', 'zh-TW': '是' } : { en: 'no', 'zh-TW': '否' })]);
}
show.table(['qscheme', 'FakeQuantize.scale', 'Fused….scale', ctx.tr({ en: 'Fused calculate_qparams() (convert)', 'zh-TW': 'Fused 的 calculate_qparams()（convert 用）' }),
  ctx.tr({ en: 'fused / FakeQuantize', 'zh-TW': 'fused / FakeQuantize' }), ctx.tr({ en: 'outputs differ?', 'zh-TW': '輸出不同？' })], rows);
const S = res['symmetric [-127, 127]'], A = res['affine [-128, 127]'];
check(cases.every(([l]) => res[l].fq === res[l].handObs), { en: 'FakeQuantize\'s scale is the observer formula, by hand', 'zh-TW': 'FakeQuantize 的 scale 等於手算的 observer 公式' });
check(cases.every(([l]) => res[l].fused === res[l].handFused), { en: 'FusedMovingAvgObsFakeQuantize\'s scale is fbgemm\'s ChooseQuantizationParams, by hand', 'zh-TW': 'FusedMovingAvgObsFakeQuantize 的 scale 等於手算的 fbgemm ChooseQuantizationParams' });
check(Math.abs(S.fused / S.fq - 1) > 0.003 && Math.abs(S.fused / S.fq - 1) < 0.005, { en: 'symmetric: the training-time (fused) and convert-time scales differ by about 0.4 %', 'zh-TW': 'symmetric：訓練時（fused）與 convert 時的 scale 相差約 0.4 %' });
check(cases.every(([l]) => res[l].convert === res[l].fq), { en: 'what convert bakes in (calculate_qparams) is the observer formula, for both classes', 'zh-TW': 'convert 寫進圖裡的（calculate_qparams）兩個類別都是 observer 公式' });
check(Math.abs(A.fused / A.fq - 1) < 1e-6, { en: 'affine: the two formulas agree to float rounding', 'zh-TW': 'affine：兩個公式只差浮點捨入' });
