// B. The partition of ExecuTorch's lowering: which nodes of the converted graph XNNPACK runs (one delegate call
// per connected group) and which stay in the float graph around it, each with its reason.
const { converted, lowered, held } = state;
const info = lowered.delegation_info;
kit.draw_partition(t('partition_title'), converted, info, 'xnnpack', { show_params: false });
show.table([t('subgraphs'), t('delegated'), t('not_delegated')], [[info.num_delegated_subgraphs, info.num_delegated_nodes, info.num_non_delegated_nodes]]);
show.table([t('node'), t('reason')], info.nodes.filter((n) => !n.delegated).map((n) => [n.name, n.reason]));
show.text(lowered.code);
// The float add at the end reads two int8 values and is quantized again: one code apart on each input and one on
// its output is at most the sum of the three scales.
const add = converted.node('add');
const bound = add.args.reduce((sum, a) => sum + converted.node(a.node).args[1], converted.node(add.users[0]).args[1]);
const ya = converted.forward(held).data(), yb = lowered.forward(held).data();
const worst = ya.reduce((w, v, i) => Math.max(w, Math.abs(v - yb[i])), 0);
show.text(t('gap', { worst: worst.toExponential(2), bound: bound.toExponential(2) }));

const ops = (kind) => info.nodes.filter((n) => n.target.endsWith(`.${kind}.default`));
check(['conv2d', 'relu', 'cat', 'max_pool2d'].every((op) => ops(op).length > 0 && ops(op).every((n) => n.delegated)), t('ops_delegated'));
check(info.nodes.filter((n) => !n.delegated).every((n) => n.reason) && info.nodes.filter((n) => n.delegated).length === info.num_delegated_nodes, t('report_consistent'));
check(lowered.nodes.filter((n) => n.kind === 'delegate').length > 0 && !lowered.nodes.some((n) => kit.is_op(n, 'conv2d')), t('no_float_conv'));
check(worst <= bound * (1 + 1e-6), t('within_one'));
reveal(info.num_delegated_subgraphs);
