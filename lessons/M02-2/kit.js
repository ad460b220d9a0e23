// kit.js — M02-2's two scale formulas by hand, for cell B's checks (both in float32 where torch is):
//   observer_scale: torchao's calculate_qparams (what FakeQuantize uses, and what convert_pt2e bakes in);
//   fused_scale: fbgemm's ChooseQuantizationParams (double arithmetic), which FusedMovingAvgObsFakeQuantize's
//   fused kernel calls while training.
const f32 = Math.fround;
function observer_scale(mn, mx, qmin, qmax, symmetric, eps) {
  const lo = Math.min(mn, 0), hi = Math.max(mx, 0);
  const s = symmetric ? f32(Math.max(-lo, hi) / f32((qmax - qmin) / 2)) : f32(f32(hi - lo) / f32(qmax - qmin));
  return Math.max(s, f32(eps));
}
function fused_scale(mn, mx, qmin, qmax, symmetric) {
  if (symmetric && mn < 0 && mx > 0) {
    const sqmin = -(Math.trunc((qmax - qmin) / 2) + 1), sqmax = Math.trunc((qmax - qmin) / 2);
    const m = Math.max(Math.abs(f32(mn / sqmin)), Math.abs(f32(mx / sqmax)));
    mn = f32(m * sqmin); mx = f32(m * sqmax);
  }
  mn = Math.min(mn, 0); mx = Math.max(mx, 0);
  return f32((mx - mn) / (qmax - qmin));
}
return { observer_scale, fused_scale };
