// Grading: the page's grader (this lesson's kit) on six models, then rule 3 twice.
const Q = state.MyQuantizer;
const results = [...kit.models.map((name) => kit.grade(Q, name)), kit.claimedFirst(Q)];
for (const r of results) check(r.ok, r.message);
const m = kit.marked(Q);
check(m.ok, m.message);
show.table([t('case'), t('edges_the_rules_quantize'), t('edges_with_an_observer'), ''], results.map((r) => r.row));
