// Grading: the page's grader (this lesson's kit) on five models, then rule 3 twice.
const Q = state.MyQuantizer;
const results = [...kit.models.map((name) => kit.grade(Q, name)), kit.claimedFirst(Q)];
for (const r of results) check(r.ok, r.message);
const m = kit.marked(Q);
check(m.ok, m.message);
show.table([ctx.tr({ en: 'case', 'zh-TW': '情況' }), ctx.tr({ en: 'edges the rules quantize', 'zh-TW': '規則要量化的邊' }), ctx.tr({ en: 'edges with an observer', 'zh-TW': '有 observer 的邊' }), ''], results.map((r) => r.row));
