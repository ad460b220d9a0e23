// E. Which activation class each XNNPACK setting asks for. The config names a class (with extra keyword
// arguments); prepare_pt2e builds it with the spec's dtype / range / qscheme — done here by hand.
const settings = [
  ['PTQ', {}],
  ['QAT (is_qat)', { is_qat: true }],
  ['dynamic (is_dynamic)', { is_dynamic: true }],
];
const x = state.x;                      // A's data: no new random numbers are drawn here
const xv = x.data();
const rows = [], built = {}, changes = {};
for (const [label, kw] of settings) {
  const config = pt.get_symmetric_quantization_config({ is_per_channel: true, ...kw });
  const spec = config.input_activation;
  const ctr = spec.observer_or_fake_quant_ctr;          // { name, kwargs }
  const obj = new pt[ctr.name]({ dtype: spec.dtype, qscheme: spec.qscheme, quant_min: spec.quant_min, quant_max: spec.quant_max,
    ...(spec.is_dynamic ? { is_dynamic: true } : {}), ...ctr.kwargs });
  const y = obj.forward(x).data();
  built[label] = obj;
  changes[label] = y.some((v, i) => v !== xv[i]);
  rows.push([label, ctr.name, obj.config.activation_post_process ?? '—', String(spec.is_dynamic),
    ctx.tr(changes[label] ? { en: 'yes', 'zh-TW': '會' } : { en: 'no', 'zh-TW': '不會' })]);
}
show.table([ctx.tr({ en: 'setting', 'zh-TW': '設定' }), ctx.tr({ en: 'activation class', 'zh-TW': 'activation 用的類別' }),
  ctx.tr({ en: 'observer inside', 'zh-TW': '內部包的 observer' }), 'is_dynamic', ctx.tr({ en: 'forward changes values?', 'zh-TW': 'forward 會改數值？' })], rows);
check(rows.map((r) => r[1]).join() === 'HistogramObserver,FusedMovingAvgObsFakeQuantize,PlaceholderObserver',
  { en: 'PTQ → HistogramObserver, QAT → FusedMovingAvgObsFakeQuantize, dynamic → PlaceholderObserver', 'zh-TW': 'PTQ → HistogramObserver、QAT → FusedMovingAvgObsFakeQuantize、dynamic → PlaceholderObserver' });
check(built['QAT (is_qat)'].config.activation_post_process === 'MovingAverageMinMaxObserver',
  { en: 'QAT: the fake-quant class wraps a MovingAverageMinMaxObserver (section C)', 'zh-TW': 'QAT：fake quant 類別裡包的是 MovingAverageMinMaxObserver（C 段）' });
check(!changes['PTQ'] && !changes['dynamic (is_dynamic)'] && changes['QAT (is_qat)'],
  { en: 'observers pass values through; only the fake-quant class changes them (M02-2)', 'zh-TW': 'observer 原樣傳出；只有 fake quant 類別會改數值（M02-2）' });
