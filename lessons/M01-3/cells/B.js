// B. Quantize the weights only, activations stay fp32: a small quantizer that labels just the weight edge of
// every conv2d / linear with the config's own weight spec. convert then stores int8 weights, nothing else.
const { gm, ex, ref, results } = state;
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
class WeightOnlyQuantizer extends pt.Quantizer {
  constructor(is_per_channel) { super(); this.spec = pt.get_symmetric_quantization_config({ is_per_channel }).weight; }
  annotate(g) {
    for (const n of g.nodes) {
      if (n.op !== 'call_function' || !['aten.conv2d.default', 'aten.linear.default'].includes(n.target)) continue;
      g.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[n.args[1].node, this.spec]], _annotated: true }));
    }
    return g;
  }
  validate(g) {}
}
function weightOnly(is_per_channel) {
  const prepared = pt.prepare_pt2e(gm, new WeightOnlyQuantizer(is_per_channel));
  prepared.forward(ex);                                      // weight observers see the (constant) weights
  const converted = pt.convert_pt2e(prepared);
  return { sqnr: pt.sqnr(ref, converted.forward(ex)), n_qdq: pt.qdq_nodes(converted).length };
}
const rows = [['per-tensor', weightOnly(false), results['per-tensor weight']], ['per-channel', weightOnly(true), results['per-channel weight']]];
show.table([tr('weight granularity', 'weight 粒度'), tr('weights only: SQNR (dB)', '只量化 weight：SQNR (dB)'), tr('full: SQNR (dB)', '完整量化：SQNR (dB)'), tr('gap (dB)', '差距 (dB)')],
  rows.map(([name, w, full]) => [name, w.sqnr.toFixed(1), full.sqnr.toFixed(1), (w.sqnr - full.sqnr).toFixed(1)]));
const layers = gm.nodes.filter((n) => ['aten.conv2d.default', 'aten.linear.default'].includes(n.target)).length;
check(rows.every(([, w]) => w.n_qdq === layers), tr('weight-only convert leaves exactly one dequantize per conv / linear weight', '只量化 weight 時，convert 後每個 conv / linear 的 weight 恰好一個 dequantize'));
check(rows.every(([, w, full]) => w.sqnr > full.sqnr + 3),
  tr('weights alone cost less than half the error of the full setting (> 3 dB apart): the activations dominate', '只量化 weight 的誤差不到完整量化的一半（相差 > 3 dB）：誤差主要來自 activation'));
state.weightOnly = rows.map(([name, w]) => [name, w.sqnr]);
