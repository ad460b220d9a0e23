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
    // gm.annotate replaces a label (Python's node.meta[...] = ...): pass XNNPACK's fields on, the flag off.
    for (const c of convs.slice(0, noShare)) gm.annotate(c, new pt.QuantizationAnnotation({ ...gm.annotation(c), allow_implicit_sharing: false }));
  }
  validate() {}
};
const xObservers = {};
const rows = [];
for (const [k, label] of [[0, t('xnnpack_as_is')], [1, t('flag_off_on_conv2d')], [2, t('flag_off_on_both')]]) {
  const p = pt.prepare_pt2e(state.ex('cat_pool'), new (variant(k))());
  const fromX = pt.observer_placement_table(p).rows.filter((r) => r[2] === 'x');
  xObservers[k] = fromX.length;
  rows.push([label, fromX.length, fromX.map((r) => `${r[0]} → ${r[3]}`).join('; '), pt.observer_nodes(p).length]);
}
show.table([t('labels'), t('observers_on_x'), t('which'), t('observers_in_all')], rows);
check(xObservers[0] === 1, t('two_edges_with_matching'));
check(xObservers[1] === xObservers[0], t('the_flag_on_one'));
check(xObservers[2] === xObservers[0] + 1, t('with_the_flag_off'));
