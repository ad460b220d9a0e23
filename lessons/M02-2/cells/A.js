// A. A fake quantizer's forward: quantize -> dequantize, still float32, but on a 256-value grid (A.py's order).
const QMIN = -128, QMAX = 127;
pt.manual_seed(0);
const x = pt.randn([10000]);
const fq = new pt.FakeQuantize({ dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: QMIN, quant_max: QMAX });
const y = fq.forward(x);                          // observes x, updates scale / zero_point, then q -> dq
const s = fq.scale.item(), z = fq.zero_point.item();
// the same two steps with the explicit ops (both multiply by float32(1 / scale), as torch's kernels do)
const q = pt.quantize_per_tensor(x, s, z, QMIN, QMAX, 'int8');
const dq = pt.dequantize_per_tensor(q, s, z, QMIN, QMAX, 'int8');
const op = pt.fake_quantize_per_tensor_affine(x, s, z, QMIN, QMAX);
const [xv, yv, qv, dqv, opv] = [x, y, q, dq, op].map((v) => v.data());
show.table(['x', 'q = round(x/s) + zp', 'y = (q − zp)·s', 'y − x'], [0, 1, 2, 3, 4, 5].map((i) => [xv[i], qv[i], yv[i], yv[i] - xv[i]]));
const err = yv.map((v, i) => v - xv[i]), changed = err.filter((e) => e !== 0).length, levels = new Set(yv).size;
const worst = err.reduce((m, e) => Math.max(m, Math.abs(e)), 0);
show.text(t('summary', { s: s.toPrecision(6), z, changed, n: xv.length, levels, worst: worst.toPrecision(4), steps: (worst / s).toFixed(4) }));
show.view('histogram', { values: err, bins: 40, lo: -s, hi: s, title: t('err_title'), range: { min: -s / 2, max: s / 2, label: '±s/2' } });
Object.assign(state, { x, fq, QMIN, QMAX });
check(changed > 0.9 * xv.length, t('changes_all'));
check(yv.every((v, i) => Object.is(v, opv[i])), t('is_fake_quantize'));
check(yv.every((v, i) => Object.is(v, dqv[i])), t('is_q_dq'));
check(levels <= QMAX - QMIN + 1, t('levels'));
check(worst <= s / 2 * (1 + 1e-5), t('half_step'));
reveal(xv.length - changed);   // the value your prediction is marked against
