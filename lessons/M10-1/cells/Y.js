// Grading: your observer alone on six tensors against the VPU's PowerOfTwoMinMaxObserver, then plugged into the
// VPU's config on two models (the same scales everywhere, and the integer simulation bit-exact).
const Q = state.PowerOfTwoObserver;
const results = [...kit.tensors.map((c) => kit.gradeAlone(Q, c)), ...['mlp', 'tiny'].map((name) => kit.gradePlugged(Q, name))];
for (const r of results) check(r.ok, r.message);
show.table([t('case'), t('expected'), t('yours'), ''], results.map((r) => r.row));
