// B. Sensitivity: quantize one layer at a time (every other layer stays float) and measure the model's output SQNR.
// The layer whose quantization alone costs the most SQNR is the most sensitive.
state.layers = pt.layer_names(state.gm);
state.alone = pt.quantize_one_layer_alone(state.gm, state.quantizer_for, state.layers, state.data);
state.ranking = pt.rank_by_sensitivity(state.alone);                 // most sensitive first
show.view('bar', { title: t('alone_title'), labels: state.alone.map((p) => p.layer), y_label: 'SQNR (dB)',
  series: [{ name: t('only_this_layer_quantized'), values: state.alone.map((p) => p.model_sqnr) }] });
show.table([t('rank'), t('layer'), t('sqnr_alone')], state.ranking.map((layer, i) =>
  [i + 1, layer, state.alone.find((p) => p.layer === layer).model_sqnr.toFixed(2)]));
reveal(state.ranking[0]);
const sqnrOf = (layer) => state.alone.find((p) => p.layer === layer).model_sqnr;
check(state.alone.every((p) => p.model_sqnr > state.model_sqnr), t('one_layer_less_noise', { all: state.model_sqnr.toFixed(2) }));
check(state.ranking.every((layer, i) => i === 0 || sqnrOf(state.ranking[i - 1]) <= sqnrOf(layer)), t('ranking_ordered'));
