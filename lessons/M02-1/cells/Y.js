// Grading: the page measures every candidate itself and compares with state.choice.
const act = state.act;
const scores = {};
for (const [name, make] of Object.entries(state.candidates)) {
  const obs = make();
  obs.forward(act);
  const { scale, zero_point } = obs.calculate_qparams();
  scores[name] = pt.sqnr(act, pt.tensor(state.qdq(act.data(), scale[0], zero_point[0]).values, act.shape));
}
const ranked = Object.keys(scores).sort((a, b) => scores[b] - scores[a]);
const best = ranked[0];
show.table(['observer', 'SQNR (dB)', ''], ranked.map((n) => [n, scores[n].toFixed(2),
  (n === best ? '★ ' : '') + (n === state.choice ? ctx.tr({ en: '← your choice', 'zh-TW': '← 你的選擇' }) : '')]));
const choice = state.choice;
let message;
if (!(choice in scores)) {
  message = { en: `no valid choice: state.choice is ${JSON.stringify(choice ?? null)}; set it to one of ${ranked.map((n) => `'${n}'`).join(', ')}`,
    'zh-TW': `沒有有效的選擇：state.choice 是 ${JSON.stringify(choice ?? null)}；請設成 ${ranked.map((n) => `'${n}'`).join('、')} 之一` };
} else if (choice !== best) {
  const gap = (scores[best] - scores[choice]).toFixed(2);
  message = { en: `wrong: you chose '${choice}' (${scores[choice].toFixed(2)} dB), but '${best}' gives ${scores[best].toFixed(2)} dB, ${gap} dB more`,
    'zh-TW': `不對：你選了 '${choice}'（${scores[choice].toFixed(2)} dB），但 '${best}' 有 ${scores[best].toFixed(2)} dB，多了 ${gap} dB` };
} else {
  message = { en: `right: '${best}' has the best SQNR on this data`, 'zh-TW': `答對了：'${best}' 在這份資料上 SQNR 最高` };
}
check(choice === best, message);
check(scores[best] - scores[ranked[1]] > 0.1, { en: 'the best candidate wins by a clear margin (> 0.1 dB), so the question has one answer', 'zh-TW': '第一名領先明顯（> 0.1 dB），所以答案唯一' });
