// kit.js — M07's arithmetic, written out so the cells can check the engine's integer kernels against it:
// round half to even (XNNPACK's fp32 requantization rounds with the FPU's default mode), gemmlowp / TFLite's
// fixed-point requantization (fixedpoint.h SaturatingRoundingDoublingHighMul + RoundingDivideByPOT, restated
// here with BigInt), and the table rows of an integer picture.
const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
function round_half_even(v) {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
// (a · b · 2) / 2^32 rounded to nearest, ties away from zero: the high half of the doubled product.
function high_mul(a, b) {
  const ab = BigInt(a) * BigInt(b), nudge = ab >= 0n ? 1n << 30n : 1n - (1n << 30n);
  return Number((ab + nudge) / (1n << 31n));   // BigInt division truncates toward zero, as C's does
}
// x / 2^e rounded to nearest, ties away from zero.
function divide_by_pot(x, e) {
  const mask = (1 << e) - 1, remainder = x & mask, threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (remainder > threshold ? 1 : 0);
}
// The code an integer picture's accumulator gets under fixed-point requantization.
function fixed_point_requantize(p) {
  const left = Math.max(p.shift, 0), right = Math.max(-p.shift, 0);
  const v = divide_by_pot(high_mul(p.accumulator_with_bias * 2 ** left, p.fixed_multiplier), right);
  return clamp(v + p.output_zero_point, p.qmin, p.qmax);
}
return {
  clamp,
  round_half_even,
  fixed_point_requantize,
  picture_headers: (t) => [t('element'), t('accumulator'), t('bias'), t('acc_bias'), t('multiplier'), t('scaled'), t('code'), 'dq → op → q'],
  picture_row: (p, ref) => [`[${p.output_coords.join(', ')}]`, p.accumulator, p.bias, p.accumulator_with_bias, p.multiplier.toPrecision(6),
    p.scaled.toFixed(3), p.output, ref],
};
