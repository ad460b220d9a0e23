// B. The whole pipeline on the smallest zoo model, conv → relu.
pt.manual_seed(0);
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
const model = pt.get_model('conv_relu');
const shape = [4, ...model.input_shape];
const ex = pt.randn(shape);
const gm = pt.export(model, [ex]);                                       // 1. export: an aten graph
const quantizer = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
const prepared = pt.prepare_pt2e(gm, quantizer);                         // 2. prepare: observers in
const calib = [0, 1, 2, 3].map(() => pt.randn(shape));
for (const b of calib) prepared.forward(b);                              // 3. calibrate: observers record
const converted = pt.convert_pt2e(prepared);                             // 4. convert: observers → q / dq
show.view('graph', { title: tr('conv → relu at each stage', '各階段的 conv → relu'),
  stages: [{ title: 'export', ...gm.graph_view() }, { title: 'prepare_pt2e', ...prepared.graph_view() }, { title: 'convert_pt2e', ...converted.graph_view() }] });
show.text(converted.code);
const table = pt.observer_placement_table(prepared);
show.table(table.headers, table.rows);

const y = gm.forward(ex), yq = converted.forward(ex);
const snr = pt.sqnr(y, yq);
const dqOut = converted.node(converted.nodes.find((n) => n.op === 'output').args.flat()[0].node);
const [s, z] = [dqOut.args[1], dqOut.args[2]];
const codes = Array.from(yq.data(), (v) => v / s + z);
const offGrid = Math.max(...codes.map((c) => Math.abs(c - Math.round(c))));
show.text(tr(`SQNR of the converted output against the float graph: ${snr.toFixed(1)} dB; output scale ${s.toPrecision(6)}, zero point ${z}; ${new Set(codes.map(Math.round)).size} distinct output codes`,
  `convert 後的輸出對浮點圖的 SQNR：${snr.toFixed(1)} dB；輸出的 scale ${s.toPrecision(6)}、zero point ${z}；輸出共 ${new Set(codes.map(Math.round)).size} 個不同的碼`));

const isQ = (n) => n.kind === 'quantize' || n.kind === 'dequantize';
check(pt.observer_nodes(prepared).length === table.rows.length && table.rows.map((r) => r[2]).sort().join() === ['conv_weight', 'relu', 'x'].join(),
  tr('prepare puts observers on the conv\'s input, its weight and the relu\'s output — not between conv and relu', 'prepare 在 conv 的輸入、weight 與 relu 的輸出放 observer——conv 與 relu 之間沒有'));
check(pt.observer_nodes(converted).length === 0 && converted.nodes.filter(isQ).length === 2 * (table.rows.length - 1) + 1,
  tr('convert: each activation observer became a quantize + dequantize pair, the weight observer a dequantize of a stored int8 weight', 'convert：每個 activation observer 變成一對 quantize + dequantize，weight observer 變成存好的 int8 weight 加一個 dequantize'));
check(converted.nodes.some((n) => n.op === 'get_attr' && n.meta.dtype === 'int8' && n.users.some((u) => converted.node(u).kind === 'dequantize')),
  tr('the weight is now an int8 constant', 'weight 現在是 int8 常數'));
check(offGrid < 1e-3 && codes.every((c) => c > -128.5 && c < 127.5),
  tr('every output value is scale × (q − zero point) for an int8 q: the output lives on the grid of section A', '每個輸出值都是 scale × (q − zero point)，q 為 int8：輸出落在 A 段的格點上'));
check(snr > 20, tr('and it stays close to the float output (SQNR above 20 dB)', '而且仍接近浮點輸出（SQNR 高於 20 dB）'));
