// E. The activation observer of each XNNPACK setting, built directly from the classes the config names
// (PTQ: HistogramObserver; QAT: FusedMovingAvgObsFakeQuantize; dynamic: PlaceholderObserver), with
// the arguments get_symmetric_quantization_config passes: int8, [-128, 127], affine, eps = 2^-12.
const act = { dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: -128, quant_max: 127, eps: 2 ** -12 };
const settings = [
  ['PTQ', new pt.HistogramObserver(act)],
  ['QAT (is_qat)', new pt.FusedMovingAvgObsFakeQuantize(act)],
  ['dynamic (is_dynamic)', new pt.PlaceholderObserver({ ...act, is_dynamic: true })],
];
const x = state.x;                      // A's data: no new random numbers are drawn here
const xv = x.data();
const rows = [];
const changes = {};
for (const [label, obj] of settings) {
  const y = obj.forward(x).data();
  changes[label] = y.some((v, i) => v !== xv[i]);
  rows.push([label, obj.config.type, obj.config.activation_post_process ?? '—',
    ctx.tr(changes[label] ? { en: 'yes', 'zh-TW': '會' } : { en: 'no', 'zh-TW': '不會' })]);
}
show.table([ctx.tr({ en: 'setting', 'zh-TW': '設定' }), ctx.tr({ en: 'activation class', 'zh-TW': 'activation 用的類別' }),
  ctx.tr({ en: 'observer inside', 'zh-TW': '裡面包的 observer' }), ctx.tr({ en: 'forward changes values?', 'zh-TW': 'forward 會改數值？' })], rows);
check(settings[1][1].config.activation_post_process === 'MovingAverageMinMaxObserver',
  { en: 'QAT: the fake-quant class wraps a MovingAverageMinMaxObserver (section C)', 'zh-TW': 'QAT：fake quant 類別裡包的是 MovingAverageMinMaxObserver（C 段）' });
check(!changes['PTQ'] && !changes['dynamic (is_dynamic)'] && changes['QAT (is_qat)'],
  { en: 'observers pass values through; only the fake-quant class changes them (M02-2)', 'zh-TW': 'observer 原樣傳出；只有 fake quant 類別會改數值（M02-2）' });
