// C. Keep layers float, most sensitive first (sqnr_vs_layers_kept_float), and compare with keeping one layer alone
// float, and with the rule of thumb "keep the first and the last layer float".
state.kept = pt.keep_one_layer_float(state.gm, state.quantizer_for, state.layers, state.data);
state.curve = pt.sqnr_vs_layers_kept_float(state.gm, state.quantizer_for, state.ranking, state.data);
const finite = state.curve.filter((p) => Number.isFinite(p.model_sqnr));  // every layer float: exact (inf dB)
show.view('line', { title: t('curve_title'), x_label: t('layers_kept_float'), y_label: 'SQNR (dB)',
  series: [{ name: t('most_sensitive_first'), x: finite.map((p) => p.kept_float.length), y: finite.map((p) => p.model_sqnr) }] });
const ends = [state.layers[0], state.layers.at(-1)];
const rule = pt.quantize_and_compare(state.gm, state.quantizer_for(ends), state.data).model_sqnr;
show.table([t('kept_float'), 'SQNR (dB)'], [
  ...state.curve.map((p) => [p.kept_float.join(', ') || t('none'), p.model_sqnr.toFixed(2)]),
  [`${ends.join(', ')} (${t('first_and_last')})`, rule.toFixed(2)],
  ...state.kept.map((p) => [`${p.layer} (${t('alone')})`, p.model_sqnr.toFixed(2)])]);
check(Math.abs(state.curve[0].model_sqnr - state.model_sqnr) < 1e-3, t('curve_starts_at_a'));
check(state.curve.every((p, i) => i === 0 || p.model_sqnr > state.curve[i - 1].model_sqnr), t('curve_rises'));
check(state.curve.at(-1).model_sqnr === Infinity, t('all_float_exact'));
