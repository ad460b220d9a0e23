// B. Calibrate on 4 random batches, convert, and look at the three stages side by side.
const { model, ex, gm, prepared } = state;
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
for (let i = 0; i < 4; i++) prepared.forward(pt.randn([4, ...model.input_shape]));
const converted = pt.convert_pt2e(prepared);
show.view('graph', { title: tr('the stem: export, prepare_pt2e, convert_pt2e', 'stem：export、prepare_pt2e、convert_pt2e'),
  stages: [{ title: 'export', ...gm.graph_view() }, { title: 'prepare_pt2e', ...prepared.graph_view() }, { title: 'convert_pt2e', ...converted.graph_view() }] });
show.table(['op', 'prepare', 'convert', 'delta'], pt.diff_ops(prepared, converted).map((r) => [r.op, r.a, r.b, r.delta]));
const table = pt.observer_placement_table(prepared);
show.table(table.headers, table.rows);
const snr = pt.sqnr(gm.forward(ex), converted.forward(ex));
show.text(tr(`output SQNR against the float graph: ${snr.toFixed(1)} dB`, `對浮點圖的輸出 SQNR：${snr.toFixed(1)} dB`));

const quantizes = converted.nodes.filter((n) => n.kind === 'quantize');
const qOut = quantizes.find((n) => n.args[0]?.node === 'relu');
const ops = pt.count_ops(converted);
check(quantizes.length === table.rows.filter((r) => r[1] === 'HistogramObserver').length && ops.quantize_per_tensor === quantizes.length && ops.dequantize_per_channel === 1,
  tr('each activation observer became one quantize; the weight observer a dequantize_per_channel', '每個 activation observer 變成一個 quantize；weight observer 變成一個 dequantize_per_channel'));
check(qOut && qOut.args[2] === qOut.args[3], tr('the quantize after relu puts its zero point at quant_min: relu outputs are never negative', 'relu 後面的 quantize 把 zero point 放在 quant_min：relu 的輸出不會是負的'));
check((pt.count_ops(converted).batch_norm ?? 0) === 0 && converted.node('conv2d').users.join() === 'relu',
  tr('after convert there is still no batch_norm, and still nothing between conv2d and relu', 'convert 之後依然沒有 batch_norm，conv2d 與 relu 之間也依然什麼都沒有'));
check(snr > 20, tr('the converted stem stays close to the float one (SQNR above 20 dB)', 'convert 後的 stem 仍接近浮點版本（SQNR 高於 20 dB）'));
