// C. Every zoo model through both XNNPACK quantizers: the compute ops left without any label.
const rows = [], res = {};
for (const name of pt.model_names()) {
  res[name] = {};
  for (const [k, Q] of [['ao', pt.XNNPACKQuantizer], ['et', pt.executorch.XNNPACKQuantizer]]) {
    const g = state.ex(name);
    pt.fold_bn(g);
    new Q().set_global(state.cfg).annotate(g);
    res[name][k] = [...pt.unannotated_ops(g)].sort();
    if (name === 'cat_pool' && k === 'ao') state.catPool = g;
  }
  rows.push([name, res[name].ao.join(', ') || '—', res[name].et.join(', ') || '—']);
}
show.table([ctx.tr({ en: 'model', 'zh-TW': '模型' }), ctx.tr({ en: 'unlabelled: torchao copy', 'zh-TW': '沒被標：torchao 版' }), ctx.tr({ en: 'unlabelled: ExecuTorch', 'zh-TW': '沒被標：ExecuTorch 版' })], rows);
const g = state.catPool;
const pool = g.nodes.find((n) => n.target === 'aten.max_pool2d.default');
check(res.cat_pool.ao.includes('cat') && !res.cat_pool.et.includes('cat'),
  { en: 'cat: missed by the torchao copy (it looks for source_fn_stack), labelled by ExecuTorch (it matches node.target)', 'zh-TW': 'cat：torchao 版漏掉（它找 source_fn_stack），ExecuTorch 版標到了（它比對 node.target）' });
check(res.cat_pool.ao.includes('max_pool2d') && g.annotation(pool.args[0].node) === null,
  { en: 'max_pool2d is missed too: propagation needs a labelled producer, and its producer is the unlabelled cat', 'zh-TW': 'max_pool2d 也跟著漏掉：標籤傳遞需要上游有標籤，而它的上游正是沒被標的 cat' });
check(Object.values(res).every((r) => r.et.every((op) => r.ao.includes(op))),
  { en: 'ExecuTorch\'s quantizer never leaves an op that the torchao copy labels', 'zh-TW': 'torchao 版標到的 op，ExecuTorch 版也都標到' });
