// C. The straight-through estimator. Freeze A's fake quantizer (observer off), then feed it data twice as
// wide as what it calibrated on, so part of it lands outside the grid.
const { fq, QMIN, QMAX } = state, f32 = Math.fround;
fq.disable_observer();
const s = fq.scale.item(), z = fq.zero_point.item();
const x = pt.randn([10000]).mul(2);
const xv = x.data(), yv = fq.forward(x).data();
// The mask torch keeps for backward: 1 where round(x / s) + zp lands inside [qmin, qmax] (the kernel's x * f32(1/s),
// round half to even). The JS API has no cachemask op, so it is computed here.
const rne = (v) => { const r = Math.round(v); return r - v === 0.5 && (r & 1) ? r - 1 : r; };
const mask = xv.map((v) => { const q = rne(f32(v * f32(1 / s))) + z; return q >= QMIN && q <= QMAX ? 1 : 0; });
const kept = mask.reduce((a, m) => a + m, 0);
// The true derivative of the staircase: nudge every input by s/1000; and the slope over one whole step.
const shifted = (d) => fq.forward(pt.tensor(xv.map((v) => v + d), x.shape)).data();
const yTiny = shifted(s / 1000), yStep = shifted(s);
const movedTiny = yv.filter((v, i) => yTiny[i] !== v).length;
const agree = yv.filter((v, i) => Math.round((yStep[i] - v) / s) === mask[i]).length;
const lo = (QMIN - z) * s, hi = (QMAX - z) * s, n = xv.length;
show.table([t('quantity'), t('value')], [[t('range'), `[${lo.toFixed(3)}, ${hi.toFixed(3)}]`], [t('mask1'), `${kept} / ${n}`], [t('mask0'), `${n - kept} / ${n}`],
  [t('tiny'), `${movedTiny} / ${n}`], [t('slope'), `${agree} / ${n}`]]);
show.view('histogram', { values: xv, bins: 80, title: t('hist_title'), range: { min: lo, max: hi, label: 'mask = 1' }, clipped: (n - kept) / n });
const edges = [f32(f32(QMIN - z) * s), f32(f32(QMAX - z) * s)];
check(kept < n && kept > 0.5 * n, t('partly_clipped'));
check(yv.every((v, i) => mask[i] === 1 || edges.includes(v)), t('at_edge'));
check(movedTiny < 0.01 * n, t('derivative_zero'));
check(agree > 0.99 * n, t('slope_mask'));
check(fq.scale.item() === s, t('frozen'));
