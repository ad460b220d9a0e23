// B. The relu output of the residual block is labelled (int8 act). conv2d_1 also labels its input edge from relu.
// Same fields -> the two places merge into one observer. Different fields -> the edge gets a second observer
// after the first one (a chain: at convert, q -> dq -> q -> dq, a requantization).
const minmax = (fields) => new pt.QuantizationSpec({ ...fields, observer_or_fake_quant_ctr: pt.MinMaxObserver.with_args({ eps: 2 ** -12 }) });
const edgeSpecs = {
  'int8 affine, MinMaxObserver': () => minmax({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine' }),
  'uint8 affine, MinMaxObserver': () => minmax({ dtype: 'uint8', quant_min: 0, quant_max: 255, qscheme: 'per_tensor_affine' }),
};
const rows = [], path = {}, stages = [];
for (const [label, spec] of Object.entries(edgeSpecs)) {
  class Q extends pt.Quantizer {
    annotate(gm) {
      for (const n of gm.nodes) {
        if (!state.isOp(n, 'conv2d')) continue;
        const prev = gm.node(n.args[0].node);
        if (!state.isOp(prev, 'relu')) continue;                    // the conv that reads the relu
        gm.annotate(prev, new pt.QuantizationAnnotation({ output_qspec: state.act(), _annotated: true }));
        gm.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[prev, spec()]], _annotated: true }));
      }
    }
    validate() {}
  }
  const p = pt.prepare_pt2e(state.ex('residual'), new Q());
  p.forward(pt.randn([2, 8, 16, 16]));
  const tbl = pt.observer_placement_table(p).rows;
  stages.push({ title: label.split(',')[0], ...p.graph_view() });
  path[label] = tbl;
  rows.push([label, tbl.length, tbl.map((r) => `${r[2]} → ${r[0]} (${r[1]}, ${r[4]}) → ${r[3]}`).join(' ; ')]);
}
show.table([t('edge_spec_on_relu'), t('observers'), t('path_relu_conv2d_1')], rows);
show.view('graph', { title: t('relu_conv2d_1_merged'), stages, focus: ['relu'], hops: 3, show_params: false });
const [same, other] = Object.values(path);
check(same.length === 1 && same[0][1] === 'HistogramObserver',
  t('matching_fields_merge_one'));
check(other.length === 2 && other[1][2] === other[0][0],
  t('a_different_dtype_chains'));
