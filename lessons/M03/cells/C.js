// C. One small quantizer that uses all four kinds of spec on linear -> sigmoid, then two batches, the second 10× wider.
const spec = (observer, qscheme, [quant_min, quant_max]) => new pt.QuantizationSpec({ dtype: 'int8', quant_min, quant_max, qscheme, observer_or_fake_quant_ctr: observer.with_args({ eps: 2 ** -12 }) });
class FourSpecs extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes.filter((m) => kit.is_op(m, 'linear'))) {
      const [x, w, b] = n.args.map((a) => a.node);
      const bias = new pt.DerivedQuantizationSpec({ derived_from: [[x, n.name], [w, n.name]], dtype: 'int32', quant_min: -(2 ** 31), quant_max: 2 ** 31 - 1,
        qscheme: 'per_tensor_symmetric', derive_qparams_fn: ([xo, wo]) => ({ scale: [xo.scale[0] * wo.scale[0]], zero_point: [0] }) });   // s_b = s_x · s_w
      gm.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[x, spec(pt.HistogramObserver, 'per_tensor_affine', [-128, 127])],
        [w, spec(pt.MinMaxObserver, 'per_tensor_symmetric', [-127, 127])], [b, bias]], output_qspec: spec(pt.HistogramObserver, 'per_tensor_affine', [-128, 127]), _annotated: true }));
    }
    for (const n of gm.nodes.filter((m) => kit.is_op(m, 'sigmoid'))) {
      const prev = n.args[0].node;                                   // the sigmoid's input reuses linear's output observer
      gm.annotate(n, new pt.QuantizationAnnotation({ input_qspec_map: [[prev, new pt.SharedQuantizationSpec(prev)]], _annotated: true,
        output_qspec: new pt.FixedQParamsQuantizationSpec({ dtype: 'uint8', scale: 1 / 256, zero_point: 0, quant_min: 0, quant_max: 255, qscheme: 'per_tensor_affine' }) }));
    }
  }
  validate() {}
}
const prepared = pt.prepare_pt2e(kit.export_zoo('linear_sigmoid'), new FourSpecs());
const x = pt.randn([8, ...pt.get_model('linear_sigmoid').input_shape]);
const t1 = kit.table(pt.observer_placement_table(kit.calibrate(prepared, [x])));
const t2 = pt.observer_placement_table(kit.calibrate(prepared, [x.mul(10)]));       // a batch ten times wider
const qp = (tbl, type) => tbl.rows.find((r) => r[1] === type)[4];
const kinds = [['QuantizationSpec (x)', 'HistogramObserver'], ['DerivedQuantizationSpec (bias)', 'DerivedObserverOrFakeQuantize'], ['FixedQParamsQuantizationSpec (sigmoid)', 'FixedQParamsObserver']];
show.table([t('spec_kind'), 'observer', t('after_1'), t('after_2')], kinds.map(([k, type]) => [k, type, qp(t1, type), qp(t2, type)]));
const specs = prepared.nodes.map((n) => prepared.annotation(n)).filter(Boolean).flatMap((a) => [...a.input_qspec_map.map(([, s]) => s), a.output_qspec]).filter(Boolean);
const shared = specs.filter((s) => s.kind === 'SharedQuantizationSpec').length, observers = pt.observer_nodes(prepared).length;
// The bias observer's qparams against the product of the two observers it derives from, all read from the graph.
const scaleOf = (type, from) => prepared.observer(t2.rows.find((r) => r[1] === type && r[2] === from)[0]).calculate_qparams().scale[0];
const [sx, sw, sb] = [scaleOf('HistogramObserver', 'x'), scaleOf('MinMaxObserver', 'fc_weight'), scaleOf('DerivedObserverOrFakeQuantize', 'fc_bias')];
check(observers === specs.length - shared, t('shared_adds_none', { labels: specs.length, shared, observers }));
check(sb === Math.fround(sx * sw) && sb < sx, t('bias_product', { sb: sb.toExponential(4), sx: sx.toPrecision(4), sw: sw.toPrecision(4) }));
check(qp(t1, 'FixedQParamsObserver') === qp(t2, 'FixedQParamsObserver') && qp(t1, 'HistogramObserver') !== qp(t2, 'HistogramObserver'), t('fixed_stays'));
