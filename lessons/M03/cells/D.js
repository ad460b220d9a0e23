// D. Label the output of every relu, and nothing else. The rule names an op, never a node or a model.
const act = () => new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) });
class ReluOutputQuantizer extends pt.Quantizer {
  annotate(gm) {
    for (const node of gm.nodes) {
      if (node.op === 'call_function' && node.target === 'aten.relu.default') {
        // one label with both fields (the Python twin: annotate_output_qspec, then _annotated = True on that label)
        gm.annotate(node, new pt.QuantizationAnnotation({ output_qspec: act(), _annotated: true }));
      }
    }
    return gm;
  }
  validate(gm) {}
}
const rows = [], counts = {};
for (const name of ['conv_relu', 'residual', 'tiny']) {
  const prepared = pt.prepare_pt2e(state.ex(name), new ReluOutputQuantizer());
  const relus = prepared.nodes.filter((n) => state.isOp(n, 'relu')).length;
  const observers = pt.observer_nodes(prepared).length;
  counts[name] = { relus, observers };
  rows.push([name, relus, observers]);
  check(observers === relus, { en: `${name}: observers (${observers}) = relu nodes (${relus})`, 'zh-TW': `${name}：observer 數（${observers}）= relu 數（${relus}）` });
}
show.table([ctx.tr({ en: 'model', 'zh-TW': '模型' }), 'relu', 'observer'], rows);
show.view('bar', { title: ctx.tr({ en: 'relu nodes and observers per model', 'zh-TW': '各模型的 relu 數與 observer 數' }),
  labels: rows.map((r) => r[0]), series: [{ name: 'relu', values: rows.map((r) => r[1]) }, { name: 'observer', values: rows.map((r) => r[2]) }],
  y_label: ctx.tr({ en: 'count', 'zh-TW': '個數' }) });
check(new Set(Object.values(counts).map((c) => c.relus)).size === 3,
  { en: 'the three models have different numbers of relu, and the one quantizer follows each', 'zh-TW': '三個模型的 relu 數各不相同，同一個 Quantizer 都跟得上' });
state.ReluOutputQuantizer = ReluOutputQuantizer;
