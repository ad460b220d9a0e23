// B. The activation and weight specs of that config, field by field.
const cfg = state.cfg;
const fields = ['dtype', 'quant_min', 'quant_max', 'qscheme', 'ch_axis', 'observer_or_fake_quant_ctr'];
const value = (spec, f) => {
  const v = spec[f];
  if (f === 'observer_or_fake_quant_ctr') return v.name;            // Class.with_args({...}): show the class
  return v === null || v === undefined ? 'None' : String(v);
};
show.table([ctx.tr({ en: 'field', 'zh-TW': '欄位' }), 'activation', 'weight'],
  fields.map((f) => [f, value(cfg.input_activation, f), value(cfg.weight, f)]));
const a = cfg.input_activation, w = cfg.weight;
check(a.quant_max - a.quant_min === 255 && a.qscheme.startsWith('per_tensor'),
  { en: 'activation: one scale for the whole tensor, all 256 int8 steps', 'zh-TW': 'activation：整個 tensor 一個 scale，用滿 int8 的 256 格' });
check(w.qscheme === 'per_channel_symmetric' && w.quant_min === -w.quant_max && w.ch_axis === 0,
  { en: 'weight: symmetric (quant_min = -quant_max), one scale per output channel (ch_axis 0)', 'zh-TW': 'weight：對稱（quant_min = -quant_max），每個 output channel 一個 scale（ch_axis 0）' });
check(JSON.stringify(cfg.output_activation) === JSON.stringify(a) && cfg.bias === null,
  { en: 'the output spec is the activation spec; the bias spec is None (not quantized)', 'zh-TW': '輸出規格就是 activation 規格；bias 規格是 None（不量化）' });
