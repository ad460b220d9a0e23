// Wrong: only the most sensitive layer kept float; one is not enough for the bar.
state.keep_float = state.ranking.slice(0, 1);
const r = kit.grade(state, state.keep_float);
check(r.ok, r.message);
