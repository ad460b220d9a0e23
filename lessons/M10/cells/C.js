// C. validate(): prepare_pt2e calls it after annotate; the VPU refuses a graph it cannot run, naming the node.
const rows = [];
const verdicts = {};
for (const name of pt.model_names()) {
  try {
    pt.prepare_pt2e(kit.export_zoo(name), state.vpu());
    verdicts[name] = null;
    rows.push([name, '✓', t('runs_on_vpu')]);
  } catch (e) {
    verdicts[name] = e;
    rows.push([name, e.name, e.message]);
  }
}
show.table([t('model'), t('verdict'), t('why')], rows);
state.verdicts = verdicts;
const names = (name, node, target) => verdicts[name] instanceof pt.NotImplementedError && verdicts[name].message.includes(`node ${node} (${target})`);
check(names('linear_sigmoid', 'sigmoid', 'aten.sigmoid.default'), t('rejects_sigmoid'));
check(names('cat_pool', 'add', 'aten.add.Tensor'), t('rejects_broadcast'));
check(names('conv_relu_add', 'relu', 'aten.relu.default'), t('rejects_unfused_relu'));
check(['conv_relu', 'stem', 'residual', 'tiny', 'mlp'].every((n) => verdicts[n] === null), t('accepts_the_rest'));
