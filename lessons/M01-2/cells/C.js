// C. A model with cat, max_pool2d and mean. annotate() only writes labels; run it on a copy and read them.
const gm2 = pt.export(pt.get_model('cat_pool'), pt.example_inputs(4));
const q2 = kit.get_xnnpack_quantizer({ is_per_channel: true });
const annotated = gm2.clone();
q2.annotate(annotated);
const tbl = kit.table(pt.annotation_table(annotated));
const left = [...pt.unannotated_ops(annotated)].sort();
const cat = gm2.node('cat');
show.text(t('left_and_meta', { left: left.join(', '), meta: Object.keys(cat.meta).sort().join(', ') }));
Object.assign(state, { gm2, q2 });
// The same graph under ExecuTorch's XNNPACKQuantizer, which matches cat by node.target.
const et = gm2.clone();
new pt.executorch.XNNPACKQuantizer().set_global(pt.executorch.get_symmetric_quantization_config({ is_per_channel: true })).annotate(et);
const etRows = pt.annotation_table(et).rows.filter((r) => left.includes(r[0]));
show.table(['ExecuTorch: node', 'target', 'input_qspec_map', 'output_qspec'], etRows);
const spec = (name) => tbl.rows.find((r) => r[0] === name)?.[3];
check(!('source_fn_stack' in cat.meta), t('no_source_fn_stack'));
check(left.join() === 'cat,max_pool2d', t('exactly_two'));
check(!tbl.rows.some((r) => left.includes(r[0])) && ['conv2d', 'relu', 'add', 'mean'].every((n) => spec(n) !== undefined), t('table_lists'));
check(pt.unannotated_ops(et).length === 0 && etRows.length === left.length, t('executorch_labels'));
check(spec('conv2d') === 'NoneType' && spec('relu') === 'Spec', t('conv_relu_pattern'));
