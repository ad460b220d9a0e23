// C. The same op with a fixed-point multiplier (gemmlowp / TFLite): M = m · 2^(shift − 31), m an int32 in
// [2^30, 2^31), applied with integer arithmetic only. Recomputed here for every element, and compared with fp32.
const { converted, x, node, codes } = state;
const fixed = pt.lower(converted, 'xnnpack', { requantization: 'fixed_point' });
const fixedCodes = kit.integer_codes(fixed.forward(x), converted);
const pictures = pt.integer_picture(fixed, node, x, { indices: fixedCodes.map((_, i) => i) });
const p = pictures[0], approx = p.fixed_multiplier * 2 ** (p.shift - 31);
show.table([t('quantity'), t('value')], [
  ['M = s_x · s_w / s_out (float32)', p.multiplier], ['m (Q31)', p.fixed_multiplier], ['shift', p.shift],
  ['m · 2^(shift − 31)', approx], [t('differ_from_fp32'), fixedCodes.filter((c, i) => c !== codes[i]).length],
]);
kit.draw_integer_picture(t('fixed_title'), pictures, { references: codes });

check(p.fixed_multiplier >= 2 ** 30 && p.fixed_multiplier < 2 ** 31 && Math.abs(approx - p.multiplier) <= p.multiplier * 2 ** -30, t('q31'));
check(pictures.every((q, i) => q.output === kit.fixed_point_requantize(q) && q.output === fixedCodes[i]), t('gemmlowp'));
check(fixedCodes.every((c, i) => Math.abs(c - codes[i]) <= 1), t('fixed_within_one'));
