// Grading: the page measures every candidate itself (this lesson's kit) and compares with state.choice.
const g = kit.grade(state.choice, state);
show.table(['observer', 'SQNR (dB)', ''], g.ranked.map((n) => [n, g.scores[n].toFixed(2),
  (n === g.best ? '★ ' : '') + (n === state.choice ? ctx.tr({ en: '← your choice', 'zh-TW': '← 你的選擇' }) : '')]));
check(g.ok, g.message);
check(g.scores[g.best] - g.scores[g.ranked[1]] > 0.1, { en: 'the best candidate wins by a clear margin (> 0.1 dB), so the question has one answer', 'zh-TW': '第一名領先明顯（> 0.1 dB），所以答案唯一' });
