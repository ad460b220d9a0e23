// A. A value with two users: the residual block's input x feeds conv2d and the skip-connection add.
pt.manual_seed(0);
const model = pt.get_model('residual', { ch: 8 });
const x = pt.randn([2, 8, 16, 16]);
const gm = pt.export(model, [x]);
const prepared = kit.calibrate(pt.prepare_pt2e(gm, kit.get_xnnpack_quantizer({ is_per_channel: true })), [x]);   // calibrate on this batch
const multi = (g, label) => g.nodes.filter((n) => n.users.length > 1).map((n) => [label, n.name, n.op, n.module_type ?? n.target, n.users.join(', ')]);
show.table([t('graph'), 'node', 'op', 'target / class', t('users')], [...multi(gm, t('exported')), ...multi(prepared, t('prepared'))]);
kit.table(pt.observer_placement_table(prepared));
// The same observer by hand, on the same data: its qparams are what convert bakes into x's q / dq.
const spec = pt.get_symmetric_quantization_config({ is_per_channel: true }).input_activation;
const hand = new pt.HistogramObserver({ dtype: spec.dtype, qscheme: spec.qscheme, quant_min: spec.quant_min, quant_max: spec.quant_max, ...spec.observer_or_fake_quant_ctr.kwargs });
hand.forward(x);
const { scale: [s], zero_point: [z] } = hand.calculate_qparams();
show.text(t('by_hand', { s: s.toPrecision(6), z }));
Object.assign(state, { x, gm, prepared, qx: { s, z } });
const xNode = gm.node('x'), obsX = prepared.nodes.find((n) => n.op === 'call_module' && n.args.some((a) => a?.node === 'x'));
check(xNode.users.length === 2 && xNode.users.includes('add'), t('two_users'));
check(obsX && obsX.users.join() === xNode.users.join(), t('one_observer'));
