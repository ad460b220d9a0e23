// C. One small quantizer that uses all four kinds of spec on linear -> sigmoid.
const act = () => new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) });
const weight = new pt.QuantizationSpec({ dtype: 'int8', quant_min: -127, quant_max: 127, qscheme: 'per_tensor_symmetric',
  observer_or_fake_quant_ctr: pt.MinMaxObserver.with_args({ eps: 2 ** -12 }) });
class FourSpecs extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (state.isOp(n, 'linear')) {
        const [x, w, b] = n.args.map((a) => a.node);
        const bias = new pt.DerivedQuantizationSpec({
          derived_from: [[x, n.name], [w, n.name]], dtype: 'int32', quant_min: -(2 ** 31), quant_max: 2 ** 31 - 1, qscheme: 'per_tensor_symmetric',
          derive_qparams_fn: ([xo, wo]) => ({ scale: [xo.scale[0] * wo.scale[0]], zero_point: [0] }),   // s_b = s_x · s_w
        });
        gm.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[x, act()], [w, weight], [b, bias]], output_qspec: act(), _annotated: true }));
      }
      if (state.isOp(n, 'sigmoid')) {
        const prev = n.args[0].node;
        gm.annotate(n, new pt.QuantizationAnnotation({
          input_qspec_map: [[prev, new pt.SharedQuantizationSpec(prev)]],          // reuse linear's output observer
          output_qspec: new pt.FixedQParamsQuantizationSpec({ dtype: 'uint8', scale: 1 / 256, zero_point: 0, quant_min: 0, quant_max: 255, qscheme: 'per_tensor_affine' }),
          _annotated: true }));
      }
    }
  }
  validate() {}
}
const gm = state.ex('linear_sigmoid');
const inShape = pt.get_model('linear_sigmoid').input_shape;
const prepared = pt.prepare_pt2e(gm, new FourSpecs());
const x = pt.randn([8, ...inShape]);
prepared.forward(x);
const t1 = pt.observer_placement_table(prepared);
show.table(t1.headers, t1.rows, ctx.tr({ en: 'After one calibration batch', 'zh-TW': '校準一批之後' }));
const byType = (t, type) => t.rows.find((r) => r[1] === type)[4];
const hist1 = byType(t1, 'HistogramObserver'), fixed1 = byType(t1, 'FixedQParamsObserver');
const derived1 = t1.rows.find((r) => r[1] === 'DerivedObserverOrFakeQuantize');
prepared.forward(pt.tensor(x.data().map((v) => 10 * v), x.shape));      // a batch ten times wider
const t2 = pt.observer_placement_table(prepared);

let labels = 0, shared = 0;
for (const n of prepared.nodes) {
  const a = prepared.annotation(n);
  if (!a) continue;
  for (const [, s] of a.input_qspec_map) if (s) { labels += 1; if (s.kind === 'SharedQuantizationSpec') shared += 1; }
  if (a.output_qspec) labels += 1;
}
show.table([ctx.tr({ en: 'spec kind', 'zh-TW': 'spec 種類' }), ctx.tr({ en: 'observer', 'zh-TW': 'observer' }), ctx.tr({ en: 'after batch 1', 'zh-TW': '第 1 批後' }), ctx.tr({ en: 'after a 10× wider batch 2', 'zh-TW': '寬 10 倍的第 2 批後' })], [
  ['QuantizationSpec (x)', 'HistogramObserver', hist1, byType(t2, 'HistogramObserver')],
  ['DerivedQuantizationSpec (bias)', derived1[1], derived1[4], byType(t2, 'DerivedObserverOrFakeQuantize')],
  ['FixedQParamsQuantizationSpec (sigmoid)', 'FixedQParamsObserver', fixed1, byType(t2, 'FixedQParamsObserver')],
]);
check(pt.observer_nodes(prepared).length === labels - shared,
  { en: `${labels} labels, ${shared} of them shared: ${pt.observer_nodes(prepared).length} observers (a shared label adds none)`, 'zh-TW': `${labels} 張標籤，其中 ${shared} 張共用：${pt.observer_nodes(prepared).length} 個 observer（共用的標籤不另外加）` });
// The bias observer's qparams, read from the prepared graph, against the product of the two observers it was
// derived from — read from the graph too, not from what the derive function saw.
const scaleOf = (type, from) => prepared.observer(t2.rows.find((r) => r[1] === type && r[2] === from)[0]).calculate_qparams().scale[0];
const [sx, sw, sb] = [scaleOf('HistogramObserver', 'x'), scaleOf('MinMaxObserver', 'fc_weight'), scaleOf('DerivedObserverOrFakeQuantize', 'fc_bias')];
check(sb === Math.fround(sx * sw) && sb < sx,
  { en: `bias scale ${sb.toExponential(4)} = activation scale ${sx.toPrecision(4)} × weight scale ${sw.toPrecision(4)}, the two observers in the graph`, 'zh-TW': `bias 的 scale ${sb.toExponential(4)} = activation scale ${sx.toPrecision(4)} × weight scale ${sw.toPrecision(4)}，也就是圖裡那兩個 observer 的乘積` });
check(fixed1 === byType(t2, 'FixedQParamsObserver') && hist1 !== byType(t2, 'HistogramObserver'),
  { en: 'a wider batch moves the Histogram observer; the fixed qparams stay exactly as written', 'zh-TW': '較寬的一批讓 Histogram observer 改變；固定的 qparams 維持原樣' });
