// Measure every candidate on the data and keep the best SQNR.
const act = state.act;
const rows = [];
let best = null, bestDb = -Infinity;
for (const [name, make] of Object.entries(state.candidates)) {
  const obs = make();
  obs.forward(act);
  const { scale, zero_point } = obs.calculate_qparams();
  const db = pt.sqnr(act, pt.tensor(kit.qdq(act.data(), scale[0], zero_point[0]).values, act.shape));
  rows.push([name, db.toFixed(2)]);
  if (db > bestDb) { best = name; bestDb = db; }
}
show.table(['observer', 'SQNR (dB)'], rows);
state.choice = best;
show.text(`choice: ${state.choice}`);
const g = kit.grade(state.choice, state);   // the grading cell's check
check(g.ok, g.message);
