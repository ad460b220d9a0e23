// A. In cat_pool the input x feeds two convs. XNNPACKQuantizer labels both edges (x -> conv2d, x -> conv2d_1)
// with the same spec. How many observers does x get? Then turn allow_implicit_sharing off on one conv, then on both.
pt.manual_seed(0);
state.ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
state.isOp = (n, op) => n?.op === 'call_function' && n.target === `aten.${op}.default`;
state.act = () => new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) });
state.cfg = pt.get_symmetric_quantization_config({ is_per_channel: true });
const xnn = new pt.XNNPACKQuantizer().set_global(state.cfg);

const variant = (noShare) => class extends pt.Quantizer {     // XNNPACK's labels, then the flag off on some convs
  annotate(gm) {
    xnn.annotate(gm);
    const convs = gm.nodes.filter((n) => state.isOp(n, 'conv2d') && n.args[0].node === 'x');
    for (const c of convs.slice(0, noShare)) gm.annotate(c, new pt.QuantizationAnnotation({ allow_implicit_sharing: false, _annotated: true }));
  }
  validate() {}
};
const xObservers = {};
const rows = [];
for (const [k, label] of [[0, { en: 'XNNPACK as is', 'zh-TW': 'XNNPACK 原樣' }], [1, { en: 'flag off on conv2d only', 'zh-TW': '只有 conv2d 關掉' }], [2, { en: 'flag off on both convs', 'zh-TW': '兩個 conv 都關掉' }]]) {
  const p = pt.prepare_pt2e(state.ex('cat_pool'), new (variant(k))());
  const fromX = pt.observer_placement_table(p).rows.filter((r) => r[2] === 'x');
  xObservers[k] = fromX.length;
  rows.push([ctx.tr(label), fromX.length, fromX.map((r) => `${r[0]} → ${r[3]}`).join('; '), pt.observer_nodes(p).length]);
}
show.table([ctx.tr({ en: 'labels', 'zh-TW': '標籤' }), ctx.tr({ en: 'observers on x', 'zh-TW': 'x 上的 observer' }), ctx.tr({ en: 'which', 'zh-TW': '哪些' }), ctx.tr({ en: 'observers in all', 'zh-TW': 'observer 總數' })], rows);
check(xObservers[0] === 1, { en: 'two edges with matching specs from one producer: one observer serves both', 'zh-TW': '同一個上游、規格相符的兩條邊：由一個 observer 同時服務' });
check(xObservers[1] === xObservers[0], { en: 'the flag on one consumer is not enough: the other consumer still pulls its edge into the group', 'zh-TW': '只在一個使用者上關掉不夠：另一個使用者仍會把它的邊拉進同一組' });
check(xObservers[2] === xObservers[0] + 1, { en: 'with the flag off on both, each edge gets its own observer', 'zh-TW': '兩邊都關掉，每條邊才各有自己的 observer' });
