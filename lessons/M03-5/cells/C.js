// C. The mlp's output goes to a DSP that reads int16 in Q3.12: value = q * 2^-12, so [-8, 8) in steps of 2^-12.
// The format is a contract: label the model output with those qparams, whatever the data says.
const q312 = new pt.FixedQParamsQuantizationSpec({ dtype: 'int16', scale: 2 ** -12, zero_point: 0, quant_min: -32768, quant_max: 32767, qscheme: 'per_tensor_symmetric' });
class DspOutput extends pt.Quantizer {
  annotate(gm) {
    const out = gm.nodes.find((n) => n.op === 'output');
    for (const a of out.args[0]) gm.annotate(a.node, new pt.QuantizationAnnotation({ output_qspec: q312, _annotated: true }));
  }
  validate() {}
}
const shape = pt.get_model('mlp').input_shape;
const p = pt.prepare_pt2e(state.ex('mlp'), new DspOutput());
const x = pt.randn([64, ...shape]);
const ys = [1, 40].map((k) => p.forward(pt.tensor(x.data().map((v) => k * v), x.shape)).data());
const t = pt.observer_placement_table(p).rows;
const fobs = new pt.FixedQParamsObserver({ dtype: 'int16', scale: 2 ** -12, zero_point: 0, quant_min: -32768, quant_max: 32767, qscheme: 'per_tensor_symmetric' });
const { scale } = fobs.calculate_qparams();
const s = scale[0], lo = -32768 * s, hi = 32767 * s;
const stats = ys.map((y) => {
  let inErr = 0, out = 0, outOk = true;
  for (const v of y) {
    const q = Math.min(32767, Math.max(-32768, Math.round(v / s))), dq = q * s;
    if (v < lo || v > hi) { out += 1; outOk &&= dq === (v < lo ? lo : hi); } else inErr = Math.max(inErr, Math.abs(v - dq));
  }
  return { min: Math.min(...y), max: Math.max(...y), inErr, out, outOk };
});
show.table([ctx.tr({ en: 'input ×', 'zh-TW': '輸入 ×' }), ctx.tr({ en: 'output range', 'zh-TW': '輸出範圍' }), ctx.tr({ en: 'outside [-8, 8)', 'zh-TW': '超出 [-8, 8)' }), ctx.tr({ en: 'worst error inside', 'zh-TW': '範圍內最大誤差' })],
  stats.map((r, i) => [[1, 40][i], `[${r.min.toFixed(3)}, ${r.max.toFixed(3)}]`, `${r.out} / ${ys[i].length}`, r.inErr.toExponential(2)]));
show.text(`${t[0][0]} (${t[0][1]}) ${t[0][2]} → ${t[0][3]}: ${t[0][4]}`);
check(t.length === 1 && p.observer(t[0][0]).calculate_qparams().scale[0] === s, { en: 'one observer, on the model output, with the contract\'s scale', 'zh-TW': '只有一個 observer，在模型輸出上，scale 就是約定的值' });
check(stats.every((r) => r.inErr <= s / 2), { en: 'inside the Q3.12 range every output is within half a step (2^-13)', 'zh-TW': '在 Q3.12 範圍內，每個輸出的誤差都不超過半格（2^-13）' });
check(stats[1].out > stats[0].out && stats[1].outOk, { en: 'outputs beyond the contract clip to its ends, they do not stretch the scale', 'zh-TW': '超出約定範圍的輸出被截在兩端，而不是把 scale 撐大' });
const c = pt.convert_pt2e(p);
const q = c.nodes.find((n) => n.kind === 'quantize');
show.text(`convert_pt2e: ${q.name}(${q.args[0].node}, ${q.args.slice(1).join(', ')})`);
check(q.args[1] === q312.scale && q.args[2] === q312.zero_point && q.args[3] === q312.quant_min && q.args[4] === q312.quant_max,
  { en: 'after convert the output is quantized with exactly the contract\'s numbers', 'zh-TW': 'convert 之後，輸出用的正是約定的那組數字量化' });
