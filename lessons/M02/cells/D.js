// D. Check the hand work against the real thing: prepare_pt2e + the same calibration batches + convert_pt2e.
const { gm, calib, qp, weight, xt, handAll } = state;
const prepared = kit.calibrate(pt.prepare_pt2e(gm, kit.get_xnnpack_quantizer({ is_per_channel: true })), calib);   // gm is left as it was
const converted = pt.convert_pt2e(prepared);
const sd = Object.fromEntries(converted.state_dict().map((e) => [e.name, e.tensor]));
const attr = (arg) => sd[converted.node(arg.node).target];         // a get_attr argument's tensor
const qOf = (src) => converted.nodes.find((n) => kit.is_quantize(n) && n.args[0]?.node === src);
const qIn = qOf('x'), qOut = qOf('relu'), dqW = converted.nodes.find((n) => kit.is_dequantize(n) && typeof n.args[1] !== 'number');
const wScale = attr(dqW.args[1]).data(), wInt = attr(dqW.args[0]).data();
const handWInt = pt.quantize_per_channel(weight, qp.w.scale, qp.w.zero_point, 0, -127, 127, 'int8').data();
const f = (s, z) => `${s.toPrecision(6)} / ${z}`, scales = (v) => Array.from(v, (s) => s.toPrecision(4)).join(' ');
show.table([t('edge'), t('by_hand'), 'convert_pt2e'], [['x → conv2d', f(qp.x.scale[0], qp.x.zero_point[0]), f(qIn.args[1], qIn.args[2])],
  ['conv_weight → conv2d', scales(qp.w.scale), scales(wScale)], ['relu → output', f(qp.out.scale[0], qp.out.zero_point[0]), f(qOut.args[1], qOut.args[2])]]);
const steps = Array.from(converted.forward(xt).data(), (v, i) => Math.abs(v - handAll[i]) / qOut.args[1]);
const same = steps.filter((d) => d === 0).length, worst = Math.max(...steps);
show.text(t('vs_hand', { same, n: steps.length, worst: worst.toFixed(3) }));
check(qIn.args[1] === qp.x.scale[0] && qIn.args[2] === qp.x.zero_point[0] && qOut.args[1] === qp.out.scale[0] && qOut.args[2] === qp.out.zero_point[0], t('act_same'));
check(wScale.every((v, c) => v === qp.w.scale[c]) && wInt.every((v, i) => v === handWInt[i]), t('weight_same'));
check(worst <= 1 + 1e-6 && same > 0.99 * steps.length, t('outputs_agree'));
