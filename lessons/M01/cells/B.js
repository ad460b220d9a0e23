// B. The whole pipeline on the smallest zoo model, conv → relu, in B.py's order.
pt.manual_seed(0);
const model = pt.get_model('conv_relu');
const ex = pt.randn([4, ...model.input_shape]);
const gm = pt.export(model, [ex]);                                           // 1. export
const quantizer = kit.get_xnnpack_quantizer({ is_per_channel: true });
const prepared = pt.prepare_pt2e(gm, quantizer);                             // 2. prepare
kit.calibrate(prepared, [0, 1, 2, 3].map(() => pt.randn([4, ...model.input_shape])));   // 3. calibrate
const converted = pt.convert_pt2e(prepared);                                 // 4. convert
show.text(converted.code);
const y = gm.forward(ex), yq = converted.forward(ex), snr = pt.sqnr(y, yq);

kit.draw_stages(t('stages_title'), [[gm, 'export'], [prepared, 'prepare_pt2e'], [converted, 'convert_pt2e']]);
const table = kit.table(pt.observer_placement_table(prepared));
const dqOut = converted.node(converted.nodes.find((n) => n.op === 'output').args.flat()[0].node);
const [s, z] = [dqOut.args[1], dqOut.args[2]], codes = Array.from(yq.data(), (v) => v / s + z);
show.text(t('sqnr_text', { sqnr: snr.toFixed(1), scale: s.toPrecision(6), zp: z, codes: new Set(codes.map(Math.round)).size }));
check(table.rows.map((r) => r[2]).sort().join() === 'conv_weight,relu,x', t('observer_places'));
check(pt.observer_nodes(converted).length === 0 && converted.nodes.filter((n) => kit.is_quantize(n) || kit.is_dequantize(n)).length === 2 * (table.rows.length - 1) + 1, t('observers_to_qdq'));
check(converted.nodes.some((n) => n.op === 'get_attr' && n.meta.dtype === 'int8' && n.users.some((u) => kit.is_dequantize(converted.node(u)))), t('weight_int8'));
check(codes.every((c) => Math.abs(c - Math.round(c)) < 1e-3 && c > -128.5 && c < 127.5), t('on_grid'));
check(snr > 20, t('close'));
reveal(pt.observer_nodes(prepared).length);   // the value your prediction is marked against
