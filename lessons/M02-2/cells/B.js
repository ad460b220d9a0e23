// B. Two fake-quant classes, one weight, two scales (B.py's order); then both formulas by hand (this lesson's kit).
const w = pt.randn([16, 3, 3, 3]).mul(0.2);
const cases = [['symmetric [-127, 127]', 'per_tensor_symmetric', -127, 127], ['affine [-128, 127]', 'per_tensor_affine', -128, 127]];
const res = cases.map(([label, qscheme, quant_min, quant_max]) => {
  const kw = { dtype: 'int8', qscheme, quant_min, quant_max, eps: 2 ** -12 };
  const fq = new pt.FakeQuantize(kw), fused = new pt.FusedMovingAvgObsFakeQuantize(kw);
  const yFq = fq.forward(w).data(), yFused = fused.forward(w).data();
  const [mn, mx] = ['min_val', 'max_val'].map((b) => fused.buffer(`activation_post_process.${b}`).item()), sym = qscheme.endsWith('symmetric');
  return { label, fq: fq.scale.item(), fused: fused.scale.item(), convert: fused.calculate_qparams().scale[0], differ: yFq.some((v, i) => v !== yFused[i]),
    handObs: kit.observer_scale(mn, mx, quant_min, quant_max, sym, 2 ** -12), handFused: kit.fused_scale(mn, mx, quant_min, quant_max, sym) };
});
show.table(['qscheme', 'FakeQuantize.scale', 'Fused….scale', t('convert_col'), 'fused / FakeQuantize', t('differ')],
  res.map((r) => [r.label, r.fq.toPrecision(8), r.fused.toPrecision(8), r.convert.toPrecision(8), (r.fused / r.fq).toFixed(6), t(r.differ ? 'yes' : 'no')]));
const [S, A] = res;
check(res.every((r) => r.fq === r.handObs), t('fq_formula'));
check(res.every((r) => r.fused === r.handFused), t('fused_formula'));
check(Math.abs(S.fused / S.fq - 1) > 0.003 && Math.abs(S.fused / S.fq - 1) < 0.005, t('sym_04'));
check(res.every((r) => r.convert === r.fq), t('convert_observer'));
check(Math.abs(A.fused / A.fq - 1) < 1e-6, t('affine_same'));
