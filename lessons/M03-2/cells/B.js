// B. max_pool2d, adaptive_avg_pool2d and flatten get their labels from propagate_annotation: Shared specs pointing
// back to their producer. After prepare + one batch, each one's observer is its producer's observer.
const gm = state.tiny;
const shared = gm.nodes.flatMap((n) => {
  const a = gm.annotation(n);
  return a ? [...a.input_qspec_map.map(([p, s]) => [n, `${p} → ${n.name}`, s]), [n, t('output'), a.output_qspec]].filter(([, , s]) => s?.kind === 'SharedQuantizationSpec') : [];
});
show.table(['node', t('label_on'), t('shares_with')], shared.map(([n, where, s]) => [n.name, where, JSON.stringify(s.edge_or_node)]));
const p = kit.calibrate(pt.prepare_pt2e(kit.export_zoo('tiny'), kit.get_xnnpack_quantizer({ is_per_channel: true })), [pt.randn([2, 3, 16, 16])]);
const rows = pt.observer_placement_table(p).rows, after = (from) => rows.find((r) => r[2] === from);
const pairs = [...new Set(shared.map(([n]) => n))].map((n) => [after(n.name), after(n.args[0].node)]);
show.table([t('observer_after'), 'qparams', t('producer'), 'qparams'], pairs.map(([a, b]) => [a?.[2], a?.[4], b?.[2], b?.[4]]));
const specs = gm.nodes.map((n) => gm.annotation(n)).filter(Boolean).reduce((k, a) => k + a.input_qspec_map.filter(([, s]) => s).length + (a.output_qspec ? 1 : 0), 0);
check(shared.length > 0 && shared.every(([n, , s]) => s.edge_or_node === n.args[0].node), t('points_back'));
check(pairs.every(([a, b]) => a && b && p.observer(a[0]).is(p.observer(b[0]))), t('same_object'));
check(pt.observer_nodes(p).length < specs, t('sharing_saves', { specs, observers: pt.observer_nodes(p).length }));
reveal(pairs.every(([a, b]) => a?.[4] === b?.[4]) ? 'same' : 'different');   // the value your prediction is marked against
