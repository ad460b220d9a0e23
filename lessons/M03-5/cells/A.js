// A. conv_relu with a per-channel int32 bias: scale_bias[c] = scale_x * scale_w[c], zero point 0.
pt.manual_seed(0);
state.ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
state.isOp = (n, op) => n?.op === 'call_function' && n.target === `aten.${op}.default`;
state.act = () => new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) });
const weight = pt.get_symmetric_quantization_config({ is_per_channel: true }).weight;
const got = {};
class DerivedBias extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (!state.isOp(n, 'conv2d')) continue;
      const [x, w, b] = n.args.map((a) => a.node);
      const bias = new pt.DerivedQuantizationSpec({
        derived_from: [[x, n.name], [w, n.name]], dtype: 'int32', quant_min: -(2 ** 31), quant_max: 2 ** 31 - 1,
        qscheme: 'per_channel_symmetric', ch_axis: 0,
        derive_qparams_fn: ([xo, wo]) => {
          Object.assign(got, { xType: xo.type, wType: wo.type, sx: xo.scale[0], sw: Array.from(wo.scale) });
          got.sb = got.sw.map((s) => Math.fround(got.sx * s));        // float32, as torch multiplies
          return { scale: got.sb, zero_point: got.sb.map(() => 0) };
        } });
      gm.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[x, state.act()], [w, weight], [b, bias]], _annotated: true }));
    }
  }
  validate() {}
}
const gm = state.ex('conv_relu');
const p = pt.prepare_pt2e(gm, new DerivedBias());
p.forward(pt.randn([2, 3, 16, 16]));
const table = pt.observer_placement_table(p).rows;                     // asks every observer, so the derive fn runs
show.table(pt.observer_placement_table(p).headers, table);
const b = Array.from(gm.state_dict().find((e) => e.name === 'conv.bias').tensor.data());
const bmax = Math.max(...b.map(Math.abs));
const s8 = bmax / 127;                                                 // what an int8 bias with its own scale would get
const rows = b.map((v, c) => {
  const q = Math.round(v / got.sb[c]);
  return { c, v, q, err32: Math.abs(v - q * got.sb[c]), err8: Math.abs(v - Math.round(v / s8) * s8) };
});
show.table(['channel', 'scale_w', 'scale_x · scale_w', 'bias', 'int32', ctx.tr({ en: 'error (int32)', 'zh-TW': '誤差（int32）' }), ctx.tr({ en: 'error (int8, own scale)', 'zh-TW': '誤差（int8，自己的 scale）' })],
  rows.map((r) => [r.c, got.sw[r.c].toExponential(4), got.sb[r.c].toExponential(4), r.v.toFixed(6), r.q, r.err32.toExponential(2), r.err8.toExponential(2)]));
// convert_pt2e quantizes the bias once, ahead of time: an int32 constant and a dequantize_per_channel.
const c = pt.convert_pt2e(p);
const conv = c.nodes.find((n) => state.isOp(n, 'conv2d'));
const bdq = c.node(conv.args[2].node);
const sd = Object.fromEntries(c.state_dict().map((e) => [e.name, e.tensor]));
const qb = sd[bdq.args[0].node], sbStored = Array.from(sd[bdq.args[1].node].data());
show.text(`${bdq.name}: ${bdq.target} (${qb.dtype} [${Array.from(qb.data()).join(', ')}], scale ${sd[bdq.args[1].node].dtype})`);
check(qb.dtype === 'int32' && Array.from(qb.data()).every((q, i) => q === rows[i].q) && sbStored.every((s, i) => s === got.sb[i]),
  { en: 'after convert_pt2e the bias is an int32 constant: the integers and scales of the table above, exactly', 'zh-TW': 'convert_pt2e 之後，bias 是 int32 常數：和上表的整數與 scale 完全相同' });
const rowX = table.find((r) => r[2] === 'x'), rowW = table.find((r) => r[1] === got.wType);
const scaleOf = (r) => p.observer(r[0]).calculate_qparams().scale;
check(got.xType === rowX[1] && scaleOf(rowX)[0] === got.sx && Array.from(scaleOf(rowW)).every((s, c) => s === got.sw[c]),
  { en: 'the derive function received the observers of x and of the weight, in the order of derived_from', 'zh-TW': '推導函式收到的正是 x 與 weight 的 observer，順序和 derived_from 一致' });
check(rows.every((r) => r.err32 <= got.sb[r.c] / 2 * (1 + 1e-6) && Math.abs(r.q) < 2 ** 31),
  { en: 'every int32 bias is within half a step of the float bias, far inside the int32 range', 'zh-TW': '每個 int32 bias 與浮點 bias 相差不到半格，且遠在 int32 範圍內' });
check(Math.max(...rows.map((r) => r.err32)) < Math.min(...rows.filter((r) => r.err8 > 0).map((r) => r.err8)),
  { en: 'the worst int32 error is below the smallest non-zero error of an int8 bias', 'zh-TW': 'int32 最大的誤差，比 int8 bias 最小的非零誤差還小' });
