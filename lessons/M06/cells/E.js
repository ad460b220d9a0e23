// E. convert_pt2e folds BN back into the convs and turns the fake quantizers into quantize / dequantize pairs;
// the QAT model against PTQ at the same 4 bits.
pt.move_exported_model_to_eval(state.prepared);
const quantized = pt.convert_pt2e(state.prepared);
state.qat_4bit = pt.evaluate_accuracy(quantized, state.test);
const rows = [['float', state.float_accuracy], ['int8 PTQ', state.ptq_int8], ['4-bit PTQ', state.ptq_4bit], ['4-bit QAT', state.qat_4bit]];
show.view('bar', { title: t('compare_title'), labels: rows.map((r) => r[0]), y_label: t('test_accuracy'),
  series: [{ name: t('test_accuracy'), values: rows.map((r) => r[1]) }] });
show.table([t('model'), t('test_accuracy')], rows.map(([m, a]) => [m, a.toFixed(1)]));
check(!quantized.nodes.some((n) => kit.is_op(n, 'batch_norm')) && quantized.nodes.some(kit.is_quantize), t('converted'));
check(state.qat_4bit > state.ptq_4bit, t('qat_recovers', { qat: state.qat_4bit.toFixed(1), ptq: state.ptq_4bit.toFixed(1) }));
