// Wrong: three layers kept float; the exercise allows two.
state.keep_float = state.ranking.slice(0, 3);
const r = kit.grade(state, state.keep_float);
check(r.ok, r.message);
