// E. Calibrate the prepared conv_relu of cell A on one batch, then convert: every observer becomes
// quantize -> dequantize with the qparams it computed (weights: stored as int8, only the dequantize is left).
const p = state.prepared;
const x = pt.randn([2, 3, 16, 16]);
p.forward(x);
const placed = pt.observer_placement_table(p).rows;
const scaleOf = (name) => p.observer(name).calculate_qparams().scale[0];   // read before convert replaces the observers
const scales = Object.fromEntries(placed.map((r) => [r[2], scaleOf(r[0])]));
const c = pt.convert_pt2e(p);
const qdq = c.nodes.filter((n) => n.kind === 'quantize' || n.kind === 'dequantize');
show.table(['node', 'target', ctx.tr({ en: 'reads', 'zh-TW': '讀取' }), 'scale', 'zero_point'],
  qdq.map((n) => [n.name, n.target.replace('quantized_decomposed.', ''), n.args[0].node,
    typeof n.args[1] === 'number' ? n.args[1].toPrecision(6) : n.args[1].node, typeof n.args[2] === 'number' ? n.args[2] : n.args[2].node]));
const sd = Object.fromEntries(c.state_dict().map((e) => [e.name, e.tensor]));
const deq = qdq.filter((n) => n.kind === 'dequantize');
const conv = c.nodes.find((n) => state.isOp(n, 'conv2d'));
const db = pt.sqnr(state.exported.forward(x), c.forward(x));
show.text(ctx.tr({ en: `SQNR of the converted graph against the float one on this batch: ${db.toFixed(2)} dB`, 'zh-TW': `這批資料上，轉換後的圖相對浮點圖的 SQNR：${db.toFixed(2)} dB` }));
const perTensor = qdq.filter((n) => n.kind === 'quantize');   // the weight's quantize was folded: these are the activations'
check(deq.length === placed.length, { en: `one dequantize per observer (${deq.length} and ${placed.length})`, 'zh-TW': `每個 observer 一個 dequantize（${deq.length} 與 ${placed.length}）` });
check(perTensor.length > 0 && perTensor.every((q) => Math.fround(q.args[1]) === scales[q.args[0].node]),
  { en: 'each activation quantize carries the scale its observer computed', 'zh-TW': '每個 activation 的 quantize 帶的就是它的 observer 算出的 scale' });
const wq = deq.find((n) => c.node(n.args[0].node).kind === 'get_attr');   // the weight's: it reads a stored constant
check(wq && sd[wq.args[0].node].dtype === 'int8' && sd[wq.args[1].node].shape[0] === sd[wq.args[0].node].shape[0],
  { en: 'the weight is stored as int8, with one scale per output channel', 'zh-TW': 'weight 以 int8 儲存，每個 output channel 一個 scale' });
check(conv.users.length === 1 && state.isOp(c.node(conv.users[0]), 'relu') && db > 25,
  { en: 'still nothing between conv2d and relu, and the int8 graph stays close to the float one (> 25 dB)', 'zh-TW': 'conv2d 與 relu 之間仍然沒有東西，int8 的圖也和浮點圖很接近（> 25 dB）' });
