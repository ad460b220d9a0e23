// A. The graph prepare_pt2e hands to annotate() is the BN-folded one, so fold first, then annotate, then read.
pt.manual_seed(0);
const gm = kit.export_zoo('tiny');
pt.fold_bn(gm);
kit.get_xnnpack_quantizer({ is_per_channel: true }).annotate(gm);
kit.table(pt.annotation_table(gm));
kit.draw(gm, t('graph_title'), { stage: 'annotate', show_params: false, focus: ['add'], hops: 1 });
state.tiny = gm;
const ann = (n) => gm.annotation(n), user = (n) => gm.node(n.users[0]);
const fused = gm.nodes.filter((n) => (kit.is_op(n, 'conv2d') || kit.is_op(n, 'add')) && n.users.length === 1 && kit.is_op(user(n), 'relu'));
const layers = gm.nodes.filter((n) => kit.is_op(n, 'conv2d') || kit.is_op(n, 'linear'));
const unfused = layers.filter((n) => kit.is_op(n, 'conv2d') && !fused.some((f) => f.name === n.name)), add = gm.nodes.find((n) => kit.is_op(n, 'add'));
check(fused.length >= 2 && fused.every((n) => ann(n).output_qspec === null && ann(user(n)).output_qspec !== null), t('fusion_absence', { n: fused.length }));
check(gm.nodes.filter((n) => n.op === 'get_attr').every((n) => ann(n)?._annotated && ann(n).input_qspec_map.length === 0 && ann(n).output_qspec === null), t('claimed'));
check(layers.every((n) => { const m = ann(n).input_qspec_map; return m.length === 3 && m[2][1] === null && m[1][1].qscheme === 'per_channel_symmetric'; }), t('three_edges'));
check(unfused.length > 0 && unfused.every((n) => ann(n).output_qspec !== null) && ann(add).input_qspec_map.length === 2, t('unfused_and_add'));
