// F. PlaceholderObserver next to MinMaxObserver on the same 1000 values.
const y = pt.randn([1000]), yv = y.data();
const qparamsOrError = (obs) => {
  try { const { scale: [s], zero_point: [z] } = obs.calculate_qparams(); return { ok: true, text: `scale=${s.toFixed(4)}, zp=${z}` }; } catch (e) { return { ok: false, text: `${e.name}: ${e.message}` }; }
};
const [mm, ph] = [['MinMaxObserver', kit.minmax()], ['PlaceholderObserver', new pt.PlaceholderObserver({ dtype: 'float32' })]].map(([name, obs]) => {
  const out = obs.forward(y).data();
  return { name, obs, same: out.every((v, i) => Object.is(v, yv[i])), buffers: obs.named_buffers().map(([n]) => n), qp: qparamsOrError(obs) };
});
show.table(['observer', t('passes_through'), t('buffers'), 'calculate_qparams()'], [mm, ph].map((r) => [r.name, String(r.same), r.buffers.join(', ') || t('none'), r.qp.text]));
check(mm.buffers.includes('min_val') && mm.obs.min_val.item() === yv.reduce((a, v) => Math.min(a, v)), t('mm_records'));
check(ph.buffers.length === 0, t('ph_nothing'));
check(mm.qp.ok && !ph.qp.ok, t('ph_raises'));
