// E. Which activation class each XNNPACK setting asks for. The config names a class (with extra keyword
// arguments); prepare_pt2e builds it with the spec's dtype / range / qscheme — done here by hand, as E.py does.
const x = state.x, xv = x.data();                       // A's data: no new random numbers are drawn here
const res = [['PTQ', {}], ['QAT (is_qat)', { is_qat: true }], ['dynamic (is_dynamic)', { is_dynamic: true }]].map(([label, kw]) => {
  const spec = pt.get_symmetric_quantization_config({ is_per_channel: true, ...kw }).input_activation;
  const ctr = spec.observer_or_fake_quant_ctr;          // { name, kwargs }
  const obj = new pt[ctr.name]({ dtype: spec.dtype, qscheme: spec.qscheme, quant_min: spec.quant_min, quant_max: spec.quant_max, ...(spec.is_dynamic ? { is_dynamic: true } : {}), ...ctr.kwargs });
  const y = obj.forward(x).data();
  return { label, cls: ctr.name, inner: obj.config.activation_post_process ?? '—', dynamic: String(spec.is_dynamic), changes: y.some((v, i) => v !== xv[i]) };
});
show.table([t('setting'), t('act_class'), t('inside'), 'is_dynamic', t('changes')], res.map((r) => [r.label, r.cls, r.inner, r.dynamic, t(r.changes ? 'yes' : 'no')]));
const [ptq, qat, dyn] = res;
check(res.map((r) => r.cls).join() === 'HistogramObserver,FusedMovingAvgObsFakeQuantize,PlaceholderObserver', t('classes'));
check(qat.inner === 'MovingAverageMinMaxObserver', t('qat_inner'));
check(!ptq.changes && !dyn.changes && qat.changes, t('only_fake_quant'));
