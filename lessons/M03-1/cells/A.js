// A. In the residual block, x feeds conv2d and the add (the skip connection). Label x two ways, by name (fine for an
// experiment): an output label on x, or an edge label x -> conv2d stored on conv2d.
pt.manual_seed(0);
const ACT = new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }) });
class ByName extends pt.Quantizer {
  constructor(edge) { super(); this.edge = edge; }
  annotate(gm) {
    if (this.edge) gm.annotate('conv2d', new pt.QuantizationAnnotation({ input_qspec_map: [['x', ACT]], _annotated: true }));
    else gm.annotate('x', new pt.QuantizationAnnotation({ output_qspec: ACT, _annotated: true }));
  }
  validate() {}
}
const res = [false, true].map((edge) => {
  const p = pt.prepare_pt2e(kit.export_zoo('residual'), new ByName(edge));
  return { label: t(edge ? 'edge_label' : 'output_label'), p, rows: pt.observer_placement_table(p).rows, addReads: p.nodes.find((n) => kit.is_op(n, 'add')).args.map((a) => a.node) };
});
show.table([t('label'), t('observers'), t('from_to'), t('add_reads')], res.map((r) => [r.label, r.rows.length, r.rows.map((o) => `${o[0]}: ${o[2]} → ${o[3]}`).join('; '), r.addReads.join(', ')]));
kit.draw_stages(t('graph_title'), res.map((r) => [r.p, r.label]), { focus: ['x'], hops: 2, show_params: false });
const [out, edge] = res, obs = (r) => r.rows.map((o) => o[0]);
check(out.rows.length === 1 && out.rows[0][3].split(', ').length === 2 && out.addReads.some((a) => obs(out).includes(a)), t('output_both'));
check(edge.rows.length === 1 && edge.rows[0][3] === 'conv2d' && !edge.addReads.some((a) => obs(edge).includes(a)), t('edge_only_conv'));
