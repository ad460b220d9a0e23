// B. The copies DuplicateDQPass made inside convert_pt2e (cell A2's graph): the same op on the same int8 tensor
// with the same qparams, so they cannot change a value. And the pass copies a dequantize only for users that carry
// a label: prepare the same block with labels that leave conv2d and add unlabelled, and convert again.
const { gm, converted } = state;
const isQ = (n) => n.target.startsWith('quantized_decomposed.quantize_per_tensor');
const qOfX = (g) => g.nodes.find((n) => isQ(n) && n.args[0]?.node === 'x');
const dqsOf = (g, q) => q.users.map((u) => g.node(u));
// A quantizer that labels x's output only (conv2d and add carry no label), and one that also labels conv2d.
const act = () => pt.get_symmetric_quantization_config({ is_per_channel: true }).input_activation;
const labels = (alsoConv) => class extends pt.Quantizer {
  annotate(g) {
    g.annotate('x', new pt.QuantizationAnnotation({ output_qspec: act(), _annotated: true }));
    if (alsoConv) g.annotate('conv2d', new pt.QuantizationAnnotation({ output_qspec: act(), _annotated: true }));
  }
  validate() {}
};
const graphs = {
  'XNNPACKQuantizer': converted,
  [ctx.tr({ en: 'x output only', 'zh-TW': '只標 x 的輸出' })]: pt.convert_pt2e(pt.prepare_pt2e(gm, new (labels(false))())),
  [ctx.tr({ en: 'x output + conv2d', 'zh-TW': 'x 的輸出 + conv2d' })]: pt.convert_pt2e(pt.prepare_pt2e(gm, new (labels(true))())),
};
const rows = [], dqs = {};
for (const [label, g] of Object.entries(graphs)) {
  dqs[label] = dqsOf(g, qOfX(g));
  for (const d of dqs[label]) rows.push([label, d.name, d.users.join(', '), d.users.map((u) => (g.annotation(u) ? '✓' : '—')).join(', ')]);
}
show.table([ctx.tr({ en: 'labels', 'zh-TW': '標籤' }), ctx.tr({ en: 'dequantize of x', 'zh-TW': 'x 的 dequantize' }), 'users', ctx.tr({ en: 'user labelled?', 'zh-TW': '使用者有標籤？' })], rows);
state.shared = graphs[Object.keys(graphs)[1]];

const [xnn, none, conv] = Object.values(dqs);
const sameArgs = (a, b) => JSON.stringify(a.args) === JSON.stringify(b.args) && a.target === b.target;
check(xnn.length === 2 && xnn.every((d) => d.users.length === 1) && sameArgs(xnn[0], xnn[1]),
  { en: 'XNNPACK: one dequantize per user, and the two are the same op with the same arguments (same int8 input, scale, zero point): the copy changes no value', 'zh-TW': 'XNNPACK：每個使用者一個 dequantize，兩者是同一個 op、引數完全相同（同一個 int8 輸入、scale、zero point）：複製不會改變任何數值' });
check(none.length === 1 && none[0].users.length === 2,
  { en: 'no label on conv2d or add: the pass makes no copy, one dequantize keeps both users', 'zh-TW': 'conv2d 與 add 都沒有標籤：pass 不複製，一個 dequantize 保留兩個使用者' });
check(conv.length === 2 && conv.some((d) => d.users.join() === 'conv2d') && conv.some((d) => d.users.join() === 'add'),
  { en: 'conv2d labelled: it gets its own copy; add, unlabelled, keeps reading the original', 'zh-TW': 'conv2d 有標籤：它拿到自己的複本；沒有標籤的 add 繼續讀原本那個' });
