// A. XNNPACKQuantizer on conv -> relu: first the labels it writes (on a copy), then the observers prepare_pt2e inserts.
pt.manual_seed(0);
const gm = kit.export_zoo('conv_relu');
const quantizer = kit.get_xnnpack_quantizer({ is_per_channel: true });
const labelled = gm.clone();                            // annotate a copy: we want to read the labels
quantizer.annotate(labelled);
const specName = (s) => (s === null ? t('no_quantization') : `${s.kind} (${s.dtype}, ${s.observer_or_fake_quant_ctr?.name ?? '—'})`);
const rows = labelled.nodes.filter((n) => labelled.annotation(n)).flatMap((n) => {
  const a = labelled.annotation(n);
  return [...a.input_qspec_map.map(([inp, s]) => [n.name, `${inp} → ${n.name}`, specName(s)]), ...(a.output_qspec ? [[n.name, t('output'), specName(a.output_qspec)]] : [])];
});
show.table(['node', t('label_on'), t('spec')], rows, t('labels_caption'));
const prepared = pt.prepare_pt2e(gm, quantizer);
kit.table(pt.observer_placement_table(prepared));
kit.draw_stages(t('graph_title'), [[labelled, 'annotate'], [prepared, 'prepare_pt2e']]);
const observers = pt.observer_nodes(prepared), conv = prepared.nodes.find((n) => kit.is_op(n, 'conv2d'));
const specs = rows.filter((r) => r[2] !== t('no_quantization')).length;
check(observers.length === specs, t('one_per_label', { observers: observers.length, specs }));
check(conv.users.length === 1 && kit.is_op(prepared.node(conv.users[0]), 'relu'), t('only_relu'));
check(prepared.node(conv.args[2].node).users.every((u) => !observers.includes(u)), t('bias_none'));
check(pt.observer_nodes(gm).length === 0, t('new_graph'));
Object.assign(state, { prepared, exported: gm, cfg: pt.get_symmetric_quantization_config({ is_per_channel: true }) });
