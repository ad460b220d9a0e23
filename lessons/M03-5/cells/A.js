// A. conv_relu with a per-channel int32 bias: scale_bias[c] = scale_x · scale_w[c], zero point 0 (A.py's order).
pt.manual_seed(0);
const { input_activation: act, weight } = pt.get_symmetric_quantization_config({ is_per_channel: true });
class DerivedBias extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes.filter((m) => kit.is_op(m, 'conv2d'))) {
      const [x, w, b] = n.args.map((a) => a.node);
      const bias = new pt.DerivedQuantizationSpec({ derived_from: [[x, n.name], [w, n.name]], dtype: 'int32', quant_min: -(2 ** 31), quant_max: 2 ** 31 - 1,
        qscheme: 'per_channel_symmetric', ch_axis: 0,   // float32 products, as torch multiplies
        derive_qparams_fn: ([xo, wo]) => ({ scale: Array.from(wo.scale, (s) => Math.fround(xo.scale[0] * s)), zero_point: Array.from(wo.scale, () => 0) }) });
      gm.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[x, act], [w, weight], [b, bias]], _annotated: true }));
    }
  }
  validate() {}
}
const gm = kit.export_zoo('conv_relu');
const p = kit.calibrate(pt.prepare_pt2e(gm, new DerivedBias()), [pt.randn([2, 3, 16, 16])]);
const table = kit.table(pt.observer_placement_table(p)).rows;                 // the derived observer reads the other two here
const scales = (from) => Array.from(p.observer(table.find((r) => r[2] === from)[0]).calculate_qparams().scale);
const [[sx], sw, sb] = ['x', 'conv_weight', 'conv_bias'].map(scales);
const b = Array.from(gm.state_dict().find((e) => e.name === 'conv.bias').tensor.data());
const s8 = Math.max(...b.map(Math.abs)) / 127;                                   // an int8 bias with a scale of its own
const rows = b.map((v, c) => { const q = Math.round(v / sb[c]); return { c, v, q, err32: Math.abs(v - q * sb[c]), err8: Math.abs(v - Math.round(v / s8) * s8) }; });
show.table(['channel', 'scale_w', 'scale_x · scale_w', 'bias', 'int32', t('err32'), t('err8')], rows.map((r) => [r.c, sw[r.c], sb[r.c], r.v, r.q, r.err32, r.err8]));
// convert_pt2e quantizes the bias once, ahead of time: an int32 constant and a dequantize_per_channel.
const c = pt.convert_pt2e(p), bdq = c.node(c.nodes.find((n) => kit.is_op(n, 'conv2d')).args[2].node);
// a get_attr node reads the buffer its target names (a folded constant's node keeps its quantize node's name)
const sd = Object.fromEntries(c.state_dict().map((e) => [e.name, e.tensor])), attr = (name) => sd[c.node(name).target], qb = attr(bdq.args[0].node);
show.text(t('bias_node', { name: bdq.name, target: bdq.target, dtype: qb.dtype, values: Array.from(qb.data()).join(', ') }));
check(sb.every((s, i) => s === Math.fround(sx * sw[i])), t('derived_from_graph'));
check(qb.dtype === 'int32' && Array.from(qb.data()).every((q, i) => q === rows[i].q) && Array.from(attr(bdq.args[1].node).data()).every((s, i) => s === sb[i]), t('int32_constant'));
check(rows.every((r) => r.err32 <= sb[r.c] / 2 * (1 + 1e-6) && Math.abs(r.q) < 2 ** 31), t('half_step'));
check(Math.max(...rows.map((r) => r.err32)) < Math.min(...rows.filter((r) => r.err8 > 0).map((r) => r.err8)), t('int32_better'));
