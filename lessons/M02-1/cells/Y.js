// Grading: the page measures every candidate itself (this lesson's kit) and compares with state.choice.
const g = kit.grade(state.choice, state);
show.table(['observer', 'SQNR (dB)', ''], g.ranked.map((n) => [n, g.scores[n].toFixed(2),
  (n === g.best ? '★ ' : '') + (n === state.choice ? t('your_choice') : '')]));
check(g.ok, g.message);
check(g.scores[g.best] - g.scores[g.ranked[1]] > 0.1, t('the_best_candidate_wins'));
