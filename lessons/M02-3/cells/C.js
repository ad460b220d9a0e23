// C. Lowering: a rewriter may replace "dequantize -> op -> quantize" by one integer kernel only if nothing outside the
// group reads a node it removes. The rule on B's graphs; then an integer add next to the float dq -> add -> q.
const { x, qx, converted, shared } = state;
function canLower(g, opName) {                  // every dequantize feeding the op must belong to it alone
  const outside = g.node(opName).args.flat().filter((a) => a?.node && kit.is_dequantize(g.node(a.node)))
    .flatMap((a) => g.node(a.node).users.filter((u) => u !== opName).map((u) => `${a.node} → ${u}`));
  return outside.length ? t('no_because', { why: outside.join(', ') }) : t('yes');
}
const verdict = [[t('after_pass'), converted], [t('shared_dq'), shared]].flatMap(([label, g]) => ['conv2d', 'add'].map((op) => [label, op, canLower(g, op)]));
show.table([t('graph'), 'op', t('lower')], verdict);
// The integer add reads int8 q_x and a second int8 input q_r, with one float multiplier per input (kit.int_add).
pt.manual_seed(1);
const r = pt.randn(x.shape).mul(0.5);
const { exact, total, worst } = kit.int_add(x, qx, r);
show.text(t('int_add', { worst, exact, total }));
check(verdict.slice(0, 2).every((v) => v[2] === t('yes')), t('after_both'));
check(verdict.slice(2).every((v) => v[2] !== t('yes')), t('shared_neither'));
check(exact === total, t('every_element'));
