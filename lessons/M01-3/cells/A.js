// A. One model, one calibration set, four configs: export → prepare → calibrate → convert, then compare (A.py's order).
pt.manual_seed(0);
const model = pt.get_model('tiny');                            // TinyConvNet, untrained
const [ex] = pt.example_inputs(8);
const gm = pt.export(model, [ex]);
const ref = gm.forward(ex);                                     // the float output we compare against
const calibration = pt.calibration_batches({ n: 256, batch_size: 32 });
function runOne(cfg) {
  const prepared = pt.prepare_pt2e(gm, kit.get_xnnpack_quantizer(cfg));   // is_qat too: the config alone picks the observer type
  const observers = pt.observer_nodes(prepared);
  const types = [...new Set(observers.map((name) => prepared.node(name).module_type))].sort();
  kit.calibrate(prepared, cfg.is_dynamic ? calibration.slice(0, 1) : calibration);   // dynamic: one pass for the weight observer
  const converted = pt.convert_pt2e(prepared);
  return { n_obs: observers.length, types, n_qdq: pt.qdq_nodes(converted).length, sqnr: pt.sqnr(ref, converted.forward(ex)), prepared, converted };
}
const configs = { 'per-tensor weight': { is_per_channel: false }, 'per-channel weight': { is_per_channel: true },
  'per-channel + is_qat': { is_per_channel: true, is_qat: true }, 'per-channel + is_dynamic': { is_per_channel: true, is_dynamic: true } };
const results = Object.fromEntries(Object.entries(configs).map(([name, cfg]) => [name, runOne(cfg)]));
show.table([t('setting'), '#observer', t('observer_types'), '#q/dq', t('sqnr_db')], Object.entries(results).map(([name, r]) => [name, r.n_obs, r.types.join(', '), r.n_qdq, r.sqnr.toFixed(1)]));
show.view('bar', { title: t('bar_title'), labels: Object.keys(results), series: [{ name: 'SQNR', values: Object.values(results).map((r) => r.sqnr) }], y_label: 'dB' });
Object.assign(state, { model, ex, gm, ref, results });
const [pT, pC, qat, dyn] = Object.values(results);
check([pC, qat].every((r) => r.n_obs === pT.n_obs && r.n_qdq === pT.n_qdq), t('same_counts'));
check(pT.types.includes('MinMaxObserver') && pC.types.includes('PerChannelMinMaxObserver') && !pC.types.includes('MinMaxObserver'), t('per_channel_swaps'));
check(qat.types.join() === 'FusedMovingAvgObsFakeQuantize', t('qat_everywhere'));
check(dyn.n_obs === dyn.types.length && dyn.types.join() === 'PerChannelMinMaxObserver,PlaceholderObserver' && dyn.n_qdq < pC.n_qdq, t('dynamic_two'));
check(Math.abs(pT.sqnr - pC.sqnr) < 0.5, t('granularity_close'));
check(dyn.sqnr > pC.sqnr, t('dynamic_highest'));
reveal(Object.entries(results).reduce((a, b) => (b[1].sqnr > a[1].sqnr ? b : a))[0]);   // the value your prediction is marked against
