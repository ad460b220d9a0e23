// B. "Keep fc2 in fp32" as its own quantizer, composed with XNNPACKQuantizer(global) — first, then second.
// KeepFp32 follows the convention: it claims (empty label, _annotated) only nodes nobody has labelled yet.
// ClearFc2 runs second and edits XNNPACK's labels on fc2 in place through the helpers, setting each spec to None.
const inFc2 = (n) => n.meta.nn_module_stack.some((m) => m.fqn === 'fc2');
class KeepFp32 extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (inFc2(n) && !gm.annotation(n)?._annotated) gm.annotate(n, new pt.QuantizationAnnotation({ _annotated: true }));
    }
  }
  validate() {}
}
class ClearFc2 extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      const a = inFc2(n) ? gm.annotation(n) : null;
      if (!a) continue;
      for (const [input] of a.input_qspec_map) pt.annotate_input_qspec_map(gm, n, input, null);
      if (a.output_qspec) pt.annotate_output_qspec(gm, n, null);
    }
  }
  validate() {}
}
const xnn = () => kit.get_xnnpack_quantizer({ is_per_channel: true });
const orders = {
  '[KeepFp32, XNNPACK]': () => new pt.ComposableQuantizer([new KeepFp32(), xnn()]),
  '[XNNPACK, KeepFp32]': () => new pt.ComposableQuantizer([xnn(), new KeepFp32()]),
  '[XNNPACK, ClearFc2]': () => new pt.ComposableQuantizer([xnn(), new ClearFc2()]),
};
const rows = [], res = {};
for (const [label, make] of Object.entries(orders)) {
  const tbl = pt.observer_placement_table(pt.prepare_pt2e(kit.export_zoo('mlp'), make())).rows;
  res[label] = tbl;
  rows.push([label, tbl.length, tbl.map((r) => `${r[2]} → ${r[3]}`).join('; ')]);
}
show.table(['ComposableQuantizer', t('observers'), t('observed')], rows);
const [first, second, cleared] = Object.values(res);
const sameAs = (a, b) => JSON.stringify(a.map((r) => r.slice(1, 4))) === JSON.stringify(b.map((r) => r.slice(1, 4)));
const observes = (rowsOf, from) => rowsOf.some((r) => r[2] === from);
check(!observes(first, state.weightOf.fc2) && observes(first, state.weightOf.fc1),
t('keep_first'));
check(sameAs(second, state.global),
t('keep_second'));
check(!observes(cleared, state.weightOf.fc2) && observes(cleared, state.weightOf.fc1) && cleared.length < state.global.length,
t('clear_second'));
reveal(sameAs(second, state.global) ? 'same' : 'fp32');   // the value your prediction is marked against
