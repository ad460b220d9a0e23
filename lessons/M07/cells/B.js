// B. Lower for XNNPACK and take fc2's output apart element by element: the int8 codes it reads, the int32
// accumulator, the int32 bias, the multiplier, the requantized code — and dq → linear → q's code beside it.
const { converted, x } = state;
const lowered = pt.to_edge_transform_and_lower(converted, { partitioner: [new pt.XnnpackPartitioner()] }).exported_program();
const node = lowered.delegation_info.nodes.find((n) => n.name === 'linear_1').lowered_as;  // fc2's int8 op
const codes = kit.integer_codes(lowered.forward(x), converted);       // the integer kernel's output codes
const qdq = kit.integer_codes(converted.forward(x), converted);       // dq → linear → q, in float
const pictures = pt.integer_picture(lowered, node, x, { indices: codes.map((_, i) => i) });  // every element, one run
kit.draw_integer_picture(t('picture_title'), pictures, { references: qdq });
show.table(kit.picture_headers(t), pictures.slice(0, 4).map((p, i) => kit.picture_row(p, qdq[i])));

// What the op holds, recomputed from the converted graph: bias / (s_x · s_w), and s_x · s_w / s_out in float32.
const lin = converted.node('linear_1'), [dqX, dqW] = lin.args.map((a) => a?.node && converted.node(a.node));
const [sx, sw, sout] = [dqX.args[1], dqW.args[1], converted.node(lin.users[0]).args[1]];
const fc2Bias = Array.from(converted.state_dict().find((e) => e.name === 'fc2.bias').tensor.data());
const diffs = codes.map((c, i) => Math.abs(c - qdq[i]));
Object.assign(state, { lowered, node, codes, pictures });

check(pictures.every((p) => p.products.every((v, k) => v === (p.inputs[k] - p.input_zero_point) * p.weights[k])
  && p.products.reduce((s, v) => s + v, 0) === p.accumulator && p.accumulator + p.bias === p.accumulator_with_bias), t('int32_sum'));
check(pictures.every((p) => Math.abs(p.bias - Math.round(fc2Bias[p.channel] / (sx * sw))) <= 1), t('bias_scale'));
check(pictures.every((p) => Math.abs(p.multiplier - (sx * sw) / sout) <= 1e-6 * p.multiplier), t('multiplier_ok'));
check(pictures.every((p) => p.output === kit.clamp(kit.round_half_even(p.scaled) + p.output_zero_point, p.qmin, p.qmax)), t('requantized'));
check(pictures.every((p, i) => p.output === codes[i]), t('picture_is_kernel'));
check(Math.max(...diffs) <= 1, t('within_one'));
reveal(Math.max(...diffs) === 0 ? 'equal' : Math.max(...diffs) === 1 ? 'one' : 'more');
