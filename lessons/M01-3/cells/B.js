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
check(rows.every(([, w, full]) => w.sqnr > full.sqnr + 20),
  tr('for both granularities, weights alone score more than 20 dB above the full setting (the notebook\'s own assert): the activations dominate',
    '兩種粒度下，僅量化 weight 的 SQNR 比完整量化高出 20 dB 以上（notebook 自己的 assert）：誤差主要來自 activation'));
state.weightOnly = rows.map(([name, w]) => [name, w.sqnr]);

// Which activation? Start at the first one: the observer on the input x, in the per-tensor setting of A.
const full = results['per-tensor weight'];
const xObserver = pt.observer_placement_table(full.prepared).rows.find((r) => r[2] === 'x')[0];
const { scale, zero_point } = full.prepared.observer(xObserver).calculate_qparams();
const act = pt.get_symmetric_quantization_config({ is_per_channel: false }).output_activation;
const [lo, hi] = [(act.quant_min - zero_point[0]) * scale[0], (act.quant_max - zero_point[0]) * scale[0]];
const held = pt.calibration_batches({ n: 264, batch_size: 32 }).at(-1).x;  // samples 256..263: never calibrated on
const outside = (t) => { const d = t.data(); let k = 0; for (const v of d) k += v < lo || v > hi; return k / d.length; };
const inputs = [[tr('8 randn example inputs (ex)', '8 個 randn 範例輸入（ex）'), ex, full.sqnr],
  [tr('8 held-out images of the calibration set', '校準資料集裡另外 8 張沒校準過的影像'), held, pt.sqnr(gm.forward(held), full.converted.forward(held))]];
show.table([tr('input', '輸入'), tr('x values outside the calibrated range', 'x 落在校準範圍外的比例'), tr('full: SQNR (dB)', '完整量化：SQNR (dB)')],
  inputs.map(([name, x, db]) => [name, `${(100 * outside(x)).toFixed(1)} %`, db.toFixed(1)]),
  tr(`x's observer, calibrated on the images, represents [${lo.toFixed(2)}, ${hi.toFixed(2)}]; quantize clamps everything else to its ends`,
    `x 的 observer 用影像校準，能表示的範圍是 [${lo.toFixed(2)}, ${hi.toFixed(2)}]；超出的值在 quantize 時被截到兩端`));
const [[, , exDb], [, , heldDb]] = inputs;
check(outside(ex) > 2 * outside(held),
  tr('more of the randn inputs than of the held-out images fall outside the range x was calibrated to', 'randn 輸入落在 x 校準範圍外的比例，比沒校準過的影像高'));
check(heldDb > exDb + 10,
  tr('on images like the calibration set, the same quantized model scores more than 10 dB higher than on randn', '在和校準資料相像的影像上，同一個量化模型的 SQNR 比在 randn 上高 10 dB 以上'));
reveal(rows.every(([, w, full]) => w.sqnr > full.sqnr + 3) ? 'activations' : 'weights');   // the value your prediction is marked against
