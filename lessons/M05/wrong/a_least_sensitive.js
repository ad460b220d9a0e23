// Wrong: keeps the two layers that cost the least when quantized (the bottom of the ranking).
state.keep_float = state.ranking.slice(-2);
const r = kit.grade(state, state.keep_float);
check(r.ok, r.message);
