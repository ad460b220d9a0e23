// C. What lowering buys: output SQNR against the float model, and the time per batch of 32 held-out images in
// this browser (the median of a few runs, measured now) — float, the q/dq graph run in float, the int8 kernels.
const { gm, converted, lowered, held } = state;
const yFloat = gm.forward(held);
const rows = [['float', gm], ['convert_pt2e (q/dq in float)', converted], ['XNNPACK (int8 kernels)', lowered]].map(([name, g]) => {
  const ms = kit.time_forward((x) => g.forward(x), held, 5);
  return { name, sqnr: g === gm ? Infinity : pt.sqnr(yFloat, g.forward(held)), ms };
});
show.table([t('graph'), t('sqnr'), t('ms'), t('speedup')],
  rows.map((r) => [r.name, r === rows[0] ? '—' : r.sqnr.toFixed(2), r.ms.toFixed(1), (rows[0].ms / r.ms).toFixed(2) + '×']));
show.view('bar', { title: t('ms_title'), labels: rows.map((r) => r.name), series: [{ name: 'ms', values: rows.map((r) => r.ms) }], y_label: 'ms' });

const [, qdq, int8] = rows;
check(int8.sqnr > 25, t('sqnr_high'));
check(Math.abs(int8.sqnr - qdq.sqnr) < 0.5, t('same_sqnr'));
