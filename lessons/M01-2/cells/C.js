// C. A model with cat, max_pool2d and mean. annotate() only writes labels; run it on a copy and read them.
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
const gm2 = pt.export(pt.get_model('cat_pool'), pt.example_inputs(4));
const q2 = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
const annotated = gm2.clone();
q2.annotate(annotated);
const tbl = pt.annotation_table(annotated);
show.table(tbl.headers, tbl.rows);
const left = pt.unannotated_ops(annotated);
show.text(tr(`ops with no label: ${left.join(', ')}`, `沒有標註的 op：${left.join('、')}`));
const cat = gm2.node('cat');
show.text(tr(`meta keys of cat: ${Object.keys(cat.meta).sort().join(', ')}`, `cat 的 meta 欄位：${Object.keys(cat.meta).sort().join('、')}`));
Object.assign(state, { gm2, q2 });

check(!('source_fn_stack' in cat.meta), tr('no source_fn_stack in cat\'s meta: the key the test copy looks cat up by (the seed notebook\'s own assert)', 'cat 的 meta 裡沒有 source_fn_stack：測試版正是靠這個欄位找 cat（原本 notebook 自己的 assert）'));
check([...left].sort().join() === 'cat,max_pool2d', tr('exactly cat and max_pool2d are left unannotated', '沒被標註的恰好是 cat 和 max_pool2d'));
check(!tbl.rows.some((r) => left.includes(r[0])) && ['conv2d', 'relu', 'add', 'mean'].every((n) => tbl.rows.some((r) => r[0] === n)),
  tr('the table lists conv, relu, mean and add, but neither of the two', '表上有 conv、relu、mean、add，卻沒有那兩個'));
// The same graph under ExecuTorch's XNNPACKQuantizer, which matches cat by node.target.
const et = gm2.clone();
new pt.executorch.XNNPACKQuantizer().set_global(pt.executorch.get_symmetric_quantization_config({ is_per_channel: true })).annotate(et);
const etRows = pt.annotation_table(et).rows.filter((r) => left.includes(r[0]));
show.table(['ExecuTorch: node', 'target', 'input_qspec_map', 'output_qspec'], etRows);
check(pt.unannotated_ops(et).length === 0 && etRows.length === left.length,
  tr('ExecuTorch\'s XNNPACKQuantizer labels both on the same graph: the gap is the test copy\'s', 'ExecuTorch 的 XNNPACKQuantizer 在同一張圖上兩個都有標：缺口出在測試版'));
check(tbl.rows.find((r) => r[0] === 'conv2d')?.[3] === 'NoneType' && tbl.rows.find((r) => r[0] === 'relu')?.[3] === 'Spec',
  tr('conv2d\'s output has no spec; the relu after it has one (conv + relu is one pattern)', 'conv2d 的輸出沒有規格，後面的 relu 有（conv + relu 是一組）'));
