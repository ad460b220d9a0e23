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
  rows.push([label, into.map((r) => `${r[2]}: ${r[4]}`).join(' ; '), out.map((r) => r[4]).join('') || ctx.tr({ en: '(none: fp32)', 'zh-TW': '（沒有：fp32）' })]);
}
show.table(['quantizer', ctx.tr({ en: 'into cat', 'zh-TW': '進入 cat' }), ctx.tr({ en: 'cat output', 'zh-TW': 'cat 輸出' })], rows);
const ao = res['torchao XNNPACKQuantizer'], et = res['executorch XNNPACKQuantizer'];
check(!ao.labelled && ao.out.length === 0 && ao.into[0][4] !== ao.into[1][4],
  { en: 'torchao copy: cat unlabelled (fp32), and its two inputs keep two different scales', 'zh-TW': 'torchao 版：cat 沒被標（fp32），兩個輸入保留兩個不同的 scale' });
check(et.labelled && et.out.length === 1 && new Set([...et.into, ...et.out].map((r) => r[4])).size === 1,
  { en: 'ExecuTorch: cat labelled with shared specs, so both inputs and the output show one scale', 'zh-TW': 'ExecuTorch 版：cat 用共用規格標籤，兩個輸入和輸出只有一個 scale' });
