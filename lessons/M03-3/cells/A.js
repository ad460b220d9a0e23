// A. The residual block after BN folding: what annotate() receives. Ops are matched on node.target.
pt.manual_seed(0);
state.ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
state.isOp = (n, op) => n?.op === 'call_function' && n.target === `aten.${op}.default`;
state.act = () => new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) });
state.weight = () => new pt.QuantizationSpec({ dtype: 'int8', quant_min: -127, quant_max: 127, qscheme: 'per_channel_symmetric', ch_axis: 0,
  observer_or_fake_quant_ctr: pt.PerChannelMinMaxObserver.with_args({ eps: 2 ** -12 }) });

const seen = [];
class Look extends pt.Quantizer {                        // annotate() only records the graph it is given
  annotate(gm) { for (const n of gm.nodes) seen.push(n); }
  validate() {}
}
pt.prepare_pt2e(state.ex('residual'), new Look());
const argText = (a) => (Array.isArray(a) && a.some((v) => v?.node) ? `[${a.map(argText).join(', ')}]`
  : a && typeof a === 'object' && 'node' in a ? a.node : JSON.stringify(a));
show.table(['name', 'op', 'target', 'args', 'users'],
  seen.map((n) => [n.name, n.op, n.target, n.args.map(argText).join(', '), n.users.join(', ')]));
const byName = Object.fromEntries(seen.map((n) => [n.name, n]));
const convs = seen.filter((n) => state.isOp(n, 'conv2d'));
const fused = convs.filter((c) => c.users.length === 1 && state.isOp(byName[c.users[0]], 'relu'));
check(!seen.some((n) => state.isOp(n, 'batch_norm')), t('annotate_sees_no_batch'));
check(fused.length >= 1 && fused.length < convs.length,
  t('rule_holds', { fused: fused.length, convs: convs.length }));
