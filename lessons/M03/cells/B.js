// B. The activation and weight specs of that config, field by field.
const { input_activation: a, weight: w, output_activation, bias } = state.cfg;
const fields = ['dtype', 'quant_min', 'quant_max', 'qscheme', 'ch_axis', 'observer_or_fake_quant_ctr'];
const value = (spec, f) => (f === 'observer_or_fake_quant_ctr' ? spec[f].name : String(spec[f] ?? 'None'));   // Class.with_args({...}): the class
show.table([t('field'), 'activation', 'weight'], fields.map((f) => [f, value(a, f), value(w, f)]));
check(a.quant_max - a.quant_min === 255 && a.qscheme.startsWith('per_tensor'), t('activation_spec'));
check(w.qscheme === 'per_channel_symmetric' && w.quant_min === -w.quant_max && w.ch_axis === 0, t('weight_spec'));
check(JSON.stringify(output_activation) === JSON.stringify(a) && bias === null, t('output_bias'));
