// A. Symmetric vs affine MinMax on randn(20000), formula (1) by hand, and the page's qdq helper (kit.qdq: x / s,
// as the notebook divides) against the engine's quantize_per_tensor (x · float32(1/s), as torch's kernels do).
const { QMIN, QMAX, f32, qdq, minmax } = kit;
pt.manual_seed(0);
const x = pt.randn([20000]);
const aff = minmax(), sym = minmax(true);
aff.forward(x); sym.forward(x);
const qa = aff.calculate_qparams(), qs = sym.calculate_qparams();
const mn = aff.min_val.item(), mx = aff.max_val.item();
const byHand = f32(Math.max(-mn, mx) / f32((QMAX - QMIN) / 2));              // formula (1), in float32
show.table([t('scheme'), 'scale', 'zero point', t('by_hand')], [['affine', qa.scale[0], qa.zero_point[0], '—'], ['symmetric', qs.scale[0], qs.zero_point[0], byHand]]);
show.text(t('observed_range', { mn: mn.toFixed(4), mx: mx.toFixed(4) }));
const xv = x.data();
const differ = [qa, qs].map(({ scale: [s], zero_point: [z] }) => {
  const byDiv = qdq(xv, s, z).values, byOp = pt.dequantize_per_tensor(pt.quantize_per_tensor(x, s, z, QMIN, QMAX, 'int8'), s, z, QMIN, QMAX, 'int8').data();
  return xv.map((_, i) => Math.abs(byDiv[i] - byOp[i]) / s).filter((d) => d > 0);
});
show.table([t('scheme'), t('div_vs_mul'), t('largest_steps')], ['affine', 'symmetric'].map((name, k) => [name, `${differ[k].length} / ${xv.length}`, differ[k].length ? Math.max(...differ[k]).toFixed(4) : '—']));
check(qs.zero_point[0] === 0, t('zp_zero'));
check(Math.abs(qs.scale[0] - byHand) <= 1e-8 + 1e-5 * Math.abs(byHand), t('formula_1'));
check(qs.scale[0] > qa.scale[0], t('sym_larger'));
check(differ.every((d) => d.length <= xv.length / 1000 && d.every((v) => Math.abs(v - 1) < 1e-4)), t('one_step'));
state.x = x;
reveal(qs.scale[0] > qa.scale[0] ? 'symmetric' : 'affine');   // the value your prediction is marked against
