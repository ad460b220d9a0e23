// C. cat_pool through both XNNPACK quantizers, two calibration batches: the scales around cat.
const batches = [pt.randn([2, 3, 16, 16]), pt.randn([2, 3, 16, 16])];
state.batches = batches;
state.around = (p, cat = 'cat') => {                         // qparams of the observers feeding and following cat
  const tbl = pt.observer_placement_table(p).rows;
  const into = tbl.filter((r) => r[3].split(', ').includes(cat)), out = tbl.filter((r) => r[2] === cat);
  return { into, out };
};
const rows = [], res = {};
for (const [label, Q] of [['torchao XNNPACKQuantizer', pt.XNNPACKQuantizer], ['executorch XNNPACKQuantizer', pt.executorch.XNNPACKQuantizer]]) {
  const p = pt.prepare_pt2e(state.ex('cat_pool'), new Q().set_global(state.cfg));
  for (const b of batches) p.forward(b);
  const { into, out } = state.around(p);
  res[label] = { into, out, labelled: p.annotation('cat') !== null };
  rows.push([label, into.map((r) => `${r[2]}: ${r[4]}`).join(' ; '), out.map((r) => r[4]).join('') || t('none_fp32')]);
}
show.table(['quantizer', t('into_cat'), t('cat_output')], rows);
const ao = res['torchao XNNPACKQuantizer'], et = res['executorch XNNPACKQuantizer'];
check(!ao.labelled && ao.out.length === 0 && ao.into[0][4] !== ao.into[1][4],
  t('torchao_copy_cat_unlabelled'));
check(et.labelled && et.out.length === 1 && new Set([...et.into, ...et.out].map((r) => r[4])).size === 1,
  t('executorch_cat_labelled_with'));
