// B. Calibrate on 4 random batches, convert, and look at the three stages side by side.
const { model, ex, gm, prepared } = state;
kit.calibrate(prepared, [0, 1, 2, 3].map(() => pt.randn([4, ...model.input_shape])));
const converted = pt.convert_pt2e(prepared);
show.text(converted.code);
const snr = pt.sqnr(gm.forward(ex), converted.forward(ex));

kit.draw_stages(t('stages_title'), [[gm, 'export'], [prepared, 'prepare_pt2e'], [converted, 'convert_pt2e']]);
kit.table(pt.diff_ops(prepared, converted), 'prepare', 'convert');
const table = kit.table(pt.observer_placement_table(prepared));
show.text(t('sqnr', { sqnr: snr.toFixed(1) }));
const quantizes = converted.nodes.filter((n) => kit.is_quantize(n));
const qOut = quantizes.find((n) => n.args[0]?.node === 'relu');
const perChannel = converted.nodes.filter((n) => kit.is_dequantize(n) && typeof n.args[1] !== 'number');   // per channel: scales in a buffer
check(quantizes.length === table.rows.filter((r) => r[1] === 'HistogramObserver').length && perChannel.length === 1, t('observers_became'));
check(qOut && qOut.args[2] === qOut.args[3], t('zp_at_qmin'));
check((pt.count_ops(converted).batch_norm ?? 0) === 0 && converted.node('conv2d').users.join() === 'relu', t('still_nothing'));
check(snr > 20, t('close'));
