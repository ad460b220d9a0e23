// C. The mlp's output goes to a DSP that reads int16 in Q3.12: value = q · 2^-12, so [-8, 8) in steps of 2^-12.
// The format is a contract: label the model output with those qparams, whatever the data says.
const q312 = new pt.FixedQParamsQuantizationSpec({ dtype: 'int16', scale: 2 ** -12, zero_point: 0, quant_min: -32768, quant_max: 32767, qscheme: 'per_tensor_symmetric' });
class DspOutput extends pt.Quantizer {
  annotate(gm) { for (const a of gm.nodes.find((n) => n.op === 'output').args[0]) gm.annotate(a.node, new pt.QuantizationAnnotation({ output_qspec: q312, _annotated: true })); }
  validate() {}
}
const p = pt.prepare_pt2e(kit.export_zoo('mlp'), new DspOutput());
const x = pt.randn([64, ...pt.get_model('mlp').input_shape]);
const tbl = kit.table(pt.observer_placement_table(p)).rows;
const s = p.observer(tbl[0][0]).calculate_qparams().scale[0], [lo, hi] = [-32768 * s, 32767 * s];
const stats = [1, 40].map((k) => {                        // outputs for inputs × 1 and × 40, through the engine's int16 q / dq
  const y = p.forward(x.mul(k)), yv = y.data(), back = pt.dequantize_per_tensor(pt.quantize_per_tensor(y, s, 0, -32768, 32767, 'int16'), s, 0, -32768, 32767, 'int16').data();
  const inside = (v) => v >= lo && v <= hi;
  return { k, min: Math.min(...yv), max: Math.max(...yv), out: yv.filter((v) => !inside(v)).length, n: yv.length,
    inErr: yv.reduce((m, v, i) => (inside(v) ? Math.max(m, Math.abs(v - back[i])) : m), 0), outOk: yv.every((v, i) => inside(v) || back[i] === (v < lo ? lo : hi)) };
});
show.table([t('input_x'), t('output_range'), t('outside'), t('worst_inside')], stats.map((r) => [r.k, `[${r.min.toFixed(3)}, ${r.max.toFixed(3)}]`, `${r.out} / ${r.n}`, r.inErr.toExponential(2)]));
const q = pt.convert_pt2e(p).nodes.find((n) => kit.is_quantize(n));
show.text(`convert_pt2e: ${q.name}(${q.args[0].node}, ${q.args.slice(1).join(', ')})`);
check(tbl.length === 1 && s === q312.scale, t('one_observer'));
check(stats.every((r) => r.inErr <= s / 2), t('q312_half'));
check(stats[1].out > stats[0].out && stats[1].outOk, t('clip_ends'));
check(q.args[1] === q312.scale && q.args[2] === q312.zero_point && q.args[3] === q312.quant_min && q.args[4] === q312.quant_max, t('contract_numbers'));
