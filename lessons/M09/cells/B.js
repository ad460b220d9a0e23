// B. Inputs-only annotation: X86InductorQuantizer labels a conv's inputs and leaves its output to whoever reads
// it; XNNPACKQuantizer labels the output too. The annotation tables side by side, and what convert makes of it.
const { prepared, converted } = state;
const annotations = (name) => Object.fromEntries(pt.annotation_table(prepared[name]).rows.map((r) => [r[0], r[3]]));
const [xnn, x86] = [annotations('xnnpack'), annotations('x86')];
const ops = pt.annotation_table(prepared.xnnpack).rows.filter((r) => !r[1].includes('.')).map((r) => r[0]);   // ops, not parameters
show.table([t('node'), t('xnnpack_output'), t('x86_output')], ops.map((n) => [n, xnn[n] ?? '-', x86[n] ?? '-']));
show.table([t('quantizer'), t('observers')], Object.keys(prepared).map((name) => [name, pt.observer_nodes(prepared[name]).length]));

const convs = ops.filter((n) => kit.is_op(prepared.x86.node(n), 'conv2d'));
const quantizedOutput = (g, name) => g.node(name).users.some((u) => kit.is_quantize(g.node(u)));
// The value a conv hands on: its own output, or its relu's when relu follows (conv + relu is one pattern).
const handed = (g, n) => { const u = g.node(g.node(n).users[0]); return kit.is_op(u, 'relu') ? u.name : n; };
check(convs.every((n) => x86[handed(prepared.x86, n)] === 'NoneType' && xnn[handed(prepared.xnnpack, n)] !== 'NoneType'), t('inputs_only'));
check(!quantizedOutput(converted.x86, 'conv2d_2') && quantizedOutput(converted.xnnpack, 'conv2d_2'), t('last_conv_float_out'));
check(pt.observer_nodes(prepared.x86).length < pt.observer_nodes(prepared.xnnpack).length, t('fewer_observers'));
