// kit.js — M02-1's shared plumbing: the page's quantize -> dequantize helpers (float32 as torch computes them,
// dividing by the scale as the seed notebook's qdq does), the MinMax observers it builds, and the grader of the
// observer exercise (it measures every candidate on state.act itself and compares with the choice).
const tr = (pair) => pair[lang] ?? pair.en;
const QMIN = -128, QMAX = 127, f32 = Math.fround;
// round half to even, as torch.round (Math.round rounds halves up)
const rne = (v) => { const r = Math.round(v); return r - v === 0.5 && (r & 1) ? r - 1 : r; };
// q = round(x / s) + zp, clamped to [qmin, qmax], then (q - zp) * s; with how many elements the clamp changed.
function qdq(values, scale, zp, qmin = QMIN, qmax = QMAX) {
  const out = new Float32Array(values.length), s = f32(scale);
  let clipped = 0;
  for (let i = 0; i < values.length; i++) {
    const q = f32(rne(f32(values[i] / s)) + zp), qc = Math.min(Math.max(q, qmin), qmax);
    if (qc !== q) clipped++;
    out[i] = f32(f32(qc - zp) * s);
  }
  return { values: out, clipped };
}
// The same per channel: scales[c] and zero_points[c] for the element's channel c along `axis`.
function qdqPerChannel(values, shape, axis, scales, zeroPoints, qmin, qmax) {
  const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  return Float32Array.from(values, (v, i) => {
    const c = Math.floor(i / inner) % shape[axis];
    return qdq([v], scales[c], zeroPoints[c], qmin, qmax).values[0];
  });
}
const minmax = (symmetric = false) => new pt.MinMaxObserver({ dtype: 'int8', qscheme: symmetric ? 'per_tensor_symmetric' : 'per_tensor_affine', quant_min: QMIN, quant_max: QMAX });
function measure(state) {
  const scores = {};
  for (const [name, make] of Object.entries(state.candidates)) {
    const obs = make();
    obs.forward(state.act);
    const { scale, zero_point } = obs.calculate_qparams();
    scores[name] = pt.sqnr(state.act, pt.tensor(qdq(state.act.data(), scale[0], zero_point[0]).values, state.act.shape));
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
return { QMIN, QMAX, f32, qdq, qdqPerChannel, minmax, measure, grade };
