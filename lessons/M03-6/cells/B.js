// B. "Keep fc2 in fp32" as its own quantizer: it claims every node of module fc2 with an empty label.
// Composed with XNNPACKQuantizer(global), first and then second.
class KeepFp32 extends pt.Quantizer {
  constructor(module) { super(); this.module = module; }
  annotate(gm) {
    for (const n of gm.nodes) {
      if (n.meta.nn_module_stack.some((m) => m.fqn === this.module)) gm.annotate(n, new pt.QuantizationAnnotation({ _annotated: true }));
    }
  }
  validate() {}
}
const xnn = () => new pt.XNNPACKQuantizer().set_global(state.cfg);
const orders = {
  '[KeepFp32(fc2), XNNPACK]': () => new pt.ComposableQuantizer([new KeepFp32('fc2'), xnn()]),
  '[XNNPACK, KeepFp32(fc2)]': () => new pt.ComposableQuantizer([xnn(), new KeepFp32('fc2')]),
};
const rows = [], res = {};
for (const [label, make] of Object.entries(orders)) {
  const p = pt.prepare_pt2e(state.ex('mlp'), make());
  const t = pt.observer_placement_table(p).rows;
  const fc2 = p.nodes.find((n) => n.target === 'aten.linear.default' && n.meta.nn_module_stack.some((m) => m.fqn === 'fc2'));
  res[label] = { t, fc2 };
  rows.push([label, t.length, t.map((r) => `${r[2]} → ${r[3]}`).join('; ')]);
}
show.table(['ComposableQuantizer', ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' }), ctx.tr({ en: 'observed: from → to', 'zh-TW': '有 observer 的位置：從 → 到' })], rows);
const [first, second] = Object.values(res);
const sameAs = (a, b) => JSON.stringify(a.map((r) => r.slice(1, 4))) === JSON.stringify(b.map((r) => r.slice(1, 4)));
check(!first.t.some((r) => r[2] === state.weightOf.fc2) && first.t.some((r) => r[2] === state.weightOf.fc1),
  { en: 'KeepFp32 first: XNNPACK skips the claimed fc2 (its weight has no observer) and still quantizes fc1', 'zh-TW': 'KeepFp32 在前：XNNPACK 跳過已被認領的 fc2（weight 沒有 observer），fc1 照樣量化' });
check(sameAs(second.t, state.global),
  { en: 'KeepFp32 second: too late — the result is the same as XNNPACK alone (section A, global)', 'zh-TW': 'KeepFp32 在後：太遲了——結果和單獨使用 XNNPACK（A 段的全域設定）完全相同' });
