// C. Lowered side by side: XNNPACK runs s8·s8, x86 runs u8·s8 (uint8 codes times int8 weights). One conv output
// element from each backend, the two partitions, SQNR against float and the time per batch measured now; and x86's
// last conv, whose output B left float, lowered with a float output (f32(acc)·(s_in·s_w) + bias, no requantization),
// drawn element by element in the integer-picture view.
const { gm, held, converted } = state;
const lowered = { xnnpack: pt.lower(converted.xnnpack, 'xnnpack'), x86: pt.lower(converted.x86, 'x86'), 'x86 reduce_range': pt.lower(converted['x86 reduce_range'], 'x86') };
const pictures = Object.fromEntries(Object.entries(lowered).map(([name, l]) => [name, pt.integer_picture(l, 'conv2d', held, { index: 150 })]));
const span = (v) => `[${Math.min(...v)}, ${Math.max(...v)}]`;
show.table([t('backend'), t('input_zp'), t('input_codes'), t('weights'), t('accumulator'), t('code')], Object.entries(pictures).map(([name, p]) =>
  [name, p.input_zero_point, span(p.inputs), span(p.weights), p.accumulator_with_bias, p.output]));
for (const name of ['xnnpack', 'x86']) kit.draw_partition(t('partition_title', { name }), converted[name], lowered[name].delegation_info, name, { show_params: false });

const yFloat = gm.forward(held);
const rows = [['float', gm], ...Object.entries(lowered)].map(([name, g]) => ({
  name, sqnr: g === gm ? Infinity : pt.sqnr(yFloat, g.forward(held)), ms: kit.time_forward((x) => g.forward(x), held, 5),
  delegated: g === gm ? '-' : `${g.delegation_info.num_delegated_nodes} / ${g.delegation_info.num_non_delegated_nodes}`,
}));
show.table([t('backend'), t('delegated_float'), t('sqnr'), t('ms')], rows.map((r) => [r.name, r.delegated, r === rows[0] ? '—' : r.sqnr.toFixed(2), r.ms.toFixed(1)]));

const [x, xnn, xrr] = [pictures.x86, pictures.xnnpack, pictures['x86 reduce_range']];
check(x.inputs.every((v) => v >= 0 && v <= 255) && x.input_zero_point >= 0 && x.weights.every((w) => w >= -128 && w <= 127), t('u8s8'));
check(xnn.inputs.every((v) => v >= -128 && v <= 127) && xnn.weights.every((w) => w >= -127 && w <= 127), t('s8s8'));
check(xrr.inputs.every((v) => v <= 127), t('rr_seven_bits'));
check(Math.abs((x.output - x.output_zero_point) - (xnn.output - xnn.output_zero_point)) <= 1, t('same_steps'));
check(rows[1].sqnr > 25 && rows[2].sqnr > 25, t('both_close'));
check(rows[3].sqnr < rows[2].sqnr, t('rr_costs'));
const lastConv = lowered.x86.delegation_info.nodes.find((n) => n.name === 'conv2d_2');
// Its float-output picture: two output rows of one channel (elements 144..159 of image 0), element 150 shown first.
const lastPictures = pt.integer_picture(lowered.x86, 'conv2d_2', held, { indices: Array.from({ length: 16 }, (_, i) => 144 + i) });
const last = lastPictures[150 - 144];
reveal(!lastConv.delegated ? 'float' : last.float_output ? 'float_output' : 'codes');
show.table([t('element'), t('accumulator_only'), t('scale_in_w'), t('bias_f32'), t('output_f32')],
  [['conv2d_2 (x86)', last.accumulator, last.multiplier.toPrecision(6), last.bias_f32.toPrecision(6), last.output_f32.toPrecision(7)]]);
kit.draw_integer_picture(t('float_picture_title'), lastPictures, { element: 150 - 144 });
check(lastConv.delegated && last.float_output && last.requantization === 'f32_output', t('x86_last_conv_float'));
const f32 = Math.fround;                                   // float32 arithmetic: each step rounded as the kernel rounds it
const byHand = (p) => { const v = f32(f32(p.accumulator * p.multiplier) + p.bias_f32); return p.relu ? Math.max(v, 0) : v; };
check(lastPictures.every((p) => byHand(p) === p.output_f32), t('float_stage_by_hand'));
