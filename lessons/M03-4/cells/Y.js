// Grading: the page's grader (this lesson's kit) on cat_pool, calibrated on cell C's batches.
const g = kit.grade(state.CatQuantizer, state);
show.table(g.headers, g.rows);
for (const r of g.results) check(r.ok, r.message);
