// B. The copies DuplicateDQPass made inside convert_pt2e (A2's graph): the same op on the same int8 tensor with the
// same qparams. And the pass copies a dequantize only for users that carry a label: prepare the same block with
// labels that leave conv2d and add unlabelled (then label conv2d too), and convert again.
const { gm, converted } = state;
const dqsOfX = (g) => g.nodes.find((n) => kit.is_quantize(n) && n.args[0]?.node === 'x').users.map((u) => g.node(u));
const act = pt.get_symmetric_quantization_config({ is_per_channel: true }).input_activation;
const labels = (names) => class extends pt.Quantizer {           // output labels on the named nodes, nothing else
  annotate(g) { for (const name of names) g.annotate(name, new pt.QuantizationAnnotation({ output_qspec: act, _annotated: true })); }
  validate() {}
};
const graphs = [['XNNPACKQuantizer', converted], [t('x_only'), pt.convert_pt2e(pt.prepare_pt2e(gm, new (labels(['x']))()))],
  [t('x_and_conv'), pt.convert_pt2e(pt.prepare_pt2e(gm, new (labels(['x', 'conv2d']))()))]];
const [xnn, none, conv] = graphs.map(([, g]) => dqsOfX(g));
show.table([t('labels'), t('dq_of_x'), t('users'), t('labelled')], graphs.flatMap(([label, g], k) => [xnn, none, conv][k].map((d) =>
  [label, d.name, d.users.join(', '), d.users.map((u) => (g.annotation(u) ? '✓' : '—')).join(', ')])));
state.shared = graphs[1][1];
check(xnn.length === 2 && xnn.every((d) => d.users.length === 1) && JSON.stringify(xnn[0].args) === JSON.stringify(xnn[1].args) && xnn[0].target === xnn[1].target, t('same_copies'));
check(none.length === 1 && none[0].users.length === 2, t('no_copy'));
check(conv.length === 2 && conv.some((d) => d.users.join() === 'conv2d') && conv.some((d) => d.users.join() === 'add'), t('copy_for_conv'));
