// C. validate() runs after annotate(). This made-up backend has no linear kernel, so it refuses such graphs.
class NoLinear extends pt.Quantizer {
  annotate(gm) {}
  validate(gm) {
    const bad = gm.nodes.filter((n) => state.isOp(n, 'linear')).map((n) => n.name);
    if (bad.length) throw new pt.ValueError(`unsupported op linear at ${bad.join(', ')}`);
  }
}
const rows = [], res = {};
for (const name of ['residual', 'tiny']) {
  try { pt.prepare_pt2e(state.ex(name), new NoLinear()); res[name] = 'ok'; } catch (e) { res[name] = `${e.name}: ${e.message}`; }
  rows.push([name, res[name]]);
}
show.table([t('model'), 'prepare_pt2e'], rows);
const hasLinear = (name) => state.ex(name).nodes.some((n) => state.isOp(n, 'linear'));
check((res.residual === 'ok') === !hasLinear('residual') && (res.tiny === 'ok') === !hasLinear('tiny') && res.residual !== res.tiny && [res.residual, res.tiny].some((r) => r.includes('unsupported op linear')),
  t('prepare_pt2e_fails_exactly'));
