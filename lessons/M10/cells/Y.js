// Grading: your validate() against the VPU's own on every zoo model: the same verdict, the same node named.
const Q = state.MyVPUQuantizer;
const results = kit.models.map((name) => kit.grade(Q, name));
for (const r of results) check(r.ok, r.message);
show.table([t('model'), t('vpu_verdict'), t('your_verdict'), ''], results.map((r) => r.row));
