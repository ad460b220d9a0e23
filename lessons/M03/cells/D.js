// D. Label the output of every relu, and nothing else. The rule names an op, never a node or a model.
const act = () => new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) });
class ReluOutputQuantizer extends pt.Quantizer {
  annotate(gm) {
    for (const node of gm.nodes) {
      if (!kit.is_op(node, 'relu')) continue;
      pt.annotate_output_qspec(gm, node, act());        // creates the annotation if needed
      pt.mark_nodes_as_annotated(gm, [node]);           // _annotated = True on that same annotation
    }
    return gm;
  }
  validate(gm) {}
}
const rows = ['conv_relu', 'residual', 'tiny'].map((name) => {
  const prepared = pt.prepare_pt2e(kit.export_zoo(name), new ReluOutputQuantizer());
  return [name, prepared.nodes.filter((n) => kit.is_op(n, 'relu')).length, pt.observer_nodes(prepared).length];
});
show.table([t('model'), 'relu', 'observer'], rows);
show.view('bar', { title: t('bar_title'), labels: rows.map((r) => r[0]), series: [{ name: 'relu', values: rows.map((r) => r[1]) }, { name: 'observer', values: rows.map((r) => r[2]) }], y_label: t('count') });
for (const [name, relus, observers] of rows) check(observers === relus, t('observers_equal', { name, observers, relus }));
check(new Set(rows.map((r) => r[1])).size === 3, t('three_models'));
