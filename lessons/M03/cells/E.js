// E. Calibrate the prepared conv_relu of cell A on one batch, then convert: every observer becomes
// quantize -> dequantize with the qparams it computed (weights: stored as int8, only the dequantize is left).
const p = state.prepared;
const x = pt.randn([2, 3, 16, 16]);
p.forward(x);
const placed = pt.observer_placement_table(p).rows;
const scales = Object.fromEntries(placed.map((r) => [r[2], p.observer(r[0]).calculate_qparams().scale[0]]));   // before convert replaces them
const c = pt.convert_pt2e(p);
const qdq = c.nodes.filter((n) => kit.is_quantize(n) || kit.is_dequantize(n));
const arg = (a) => (typeof a === 'number' ? a : a.node);
show.table(['node', 'target', t('reads'), 'scale', 'zero_point'], qdq.map((n) => [n.name, n.target, n.args[0].node, arg(n.args[1]), arg(n.args[2])]));
// a get_attr node reads the buffer its target names (a folded constant's node keeps its quantize node's name)
const sd = Object.fromEntries(c.state_dict().map((e) => [e.name, e.tensor])), attr = (name) => sd[c.node(name).target];
const dqs = qdq.filter((n) => kit.is_dequantize(n)), conv = c.nodes.find((n) => kit.is_op(n, 'conv2d'));
const perTensor = qdq.filter((n) => kit.is_quantize(n) && typeof n.args[1] === 'number');
const wq = dqs.find((n) => typeof n.args[1] !== 'number');                 // per channel: scales in a buffer
const db = pt.sqnr(state.exported.forward(x), c.forward(x));
show.text(t('sqnr', { db: db.toFixed(2) }));
check(dqs.length === placed.length, t('one_dq', { dqs: dqs.length, observers: placed.length }));
check(perTensor.length > 0 && perTensor.every((q) => Math.fround(q.args[1]) === scales[q.args[0].node]), t('carries_scale'));
check(wq && attr(wq.args[0].node).dtype === 'int8' && attr(wq.args[1].node).shape[0] === attr(wq.args[0].node).shape[0], t('weight_int8'));
check(conv.users.length === 1 && kit.is_op(c.node(conv.users[0]), 'relu') && db > 25, t('still_nothing'));
