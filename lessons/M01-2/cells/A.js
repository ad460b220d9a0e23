// A. Export a residual block, prepare it with XNNPACK's quantizer, calibrate on 8 random batches, convert (A.py's order).
pt.manual_seed(0);
const model = pt.get_model('residual', { ch: 8 });
const gm = pt.export(model, [pt.randn([4, 8, 16, 16])]);
const prepared = pt.prepare_pt2e(gm, kit.get_xnnpack_quantizer({ is_per_channel: true }));   // gm itself is left as it was
kit.calibrate(prepared, Array.from({ length: 8 }, () => pt.randn([4, 8, 16, 16])));
const converted = pt.convert_pt2e(prepared);
Object.assign(state, { gm, prepared, converted });

kit.draw_stages(t('stages_title'), [[gm, 'export'], [prepared, 'prepare_pt2e'], [converted, 'convert_pt2e']], { focus: ['x', 'add'], hops: 1 });
const d1 = Object.fromEntries(kit.table(pt.diff_ops(gm, prepared), 'export', 'prepare').map((r) => [r.op, r.delta]));
kit.table(pt.diff_ops(prepared, converted), 'prepare', 'convert');
const count = (g, op) => pt.count_ops(g)[op] ?? 0;
const convWeights = gm.nodes.filter((n) => n.op === 'get_attr' && n.users.some((u) => kit.is_op(gm.node(u), 'conv2d'))).length;
const qx = converted.nodes.find((n) => kit.is_quantize(n) && n.args[0]?.node === 'x');
check(count(gm, 'batch_norm') === 2 && d1.batch_norm === -2, t('bn_removed'));
check(d1['<module:PerChannelMinMaxObserver>'] === convWeights, t('per_channel_per_weight'));
check(pt.observer_nodes(converted).length === 0 && count(converted, 'quantize_per_tensor') + count(converted, 'dequantize_per_channel') === pt.observer_nodes(prepared).length, t('observers_to_qdq'));
check(qx && qx.users.length === 2 && qx.users.every((u) => kit.is_dequantize(converted.node(u))), t('two_dq'));
check(count(converted, 'dequantize_per_tensor') === count(converted, 'quantize_per_tensor') + 1, t('one_more_dq'));
reveal(pt.observer_nodes(prepared).includes(prepared.node('conv2d').users[0]) ? 'yes' : 'no');   // the value your prediction is marked against
