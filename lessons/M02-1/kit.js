// kit.js — M02-1's grader for the observer exercise, shared by the exercise cell and the grading cell: it measures
// every candidate on state.act itself (the engine's observer, then the page's qdq) and compares with the choice.
const tr = (pair) => pair[lang] ?? pair.en;
function measure(state) {
  const scores = {};
  for (const [name, make] of Object.entries(state.candidates)) {
    const obs = make();
    obs.forward(state.act);
    const { scale, zero_point } = obs.calculate_qparams();
    scores[name] = pt.sqnr(state.act, pt.tensor(state.qdq(state.act.data(), scale[0], zero_point[0]).values, state.act.shape));
  }
  const ranked = Object.keys(scores).sort((a, b) => scores[b] - scores[a]);
  return { scores, ranked, best: ranked[0] };
}
function grade(choice, state) {
  const { scores, ranked, best } = measure(state);
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
  return { ok: choice === best, message: tr(message), scores, ranked, best };
}
return { measure, grade };
