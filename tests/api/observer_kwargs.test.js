// observer_kwargs.test.js — observer and fake-quantize keyword arguments are read one way: a class's
// constructor and its Class.with_args({...}) accept exactly the same keywords, refuse the same ones with
// the same TypeError, and a spec keeps every keyword it was given (engine/quant/observer_kwargs.h,
// web/bindings/kwargs.h). Every keyword of the engine's table is tried on every class.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();

// A value of each C++ type of the table, so a keyword added to the table is tried too.
const sampleOfType = { DType: 'int8', QScheme: 'per_tensor_affine', bool: false, int64_t: 1, float: 0.5, double: 0.5, 'std::string': 'MinMaxObserver' };
const sample = Object.fromEntries(pt.observer_kwargs.map((k) => [k.name, sampleOfType[k.type]]));
const outcome = (fn) => {
  try {
    pt.scope(fn);
    return null;
  } catch (e) {
    return { name: e.name, message: e.message };
  }
};
const refused = (r) => r !== null && r.name === 'TypeError' && /unexpected keyword argument/.test(r.message);

test('the keyword table lists torchao\'s keywords, each with a type this test has a value of and a doc line', () => {
  for (const name of ['dtype', 'qscheme', 'reduce_range', 'quant_min', 'quant_max', 'eps', 'is_dynamic', 'ch_axis',
    'averaging_constant', 'bins', 'scale', 'zero_point', 'observer']) assert.ok(name in sample, name);
  for (const k of pt.observer_kwargs) {
    assert.notEqual(sample[k.name], undefined, `a sample value for ${k.name} (${k.type})`);
    assert.ok(k.doc.length > 0, `${k.name} has a doc line`);
  }
});

test('with_args accepts every keyword the constructor accepts, refuses the others with the same TypeError', () => {
  const accepted = {};
  for (const cls of pt.observer_classes) {
    accepted[cls] = [];
    for (const key of [...Object.keys(sample), 'binz']) {
      const kwargs = { [key]: sample[key] ?? 1 };  // binz: not in the table
      const ctor = outcome(() => new pt[cls](kwargs));
      const bound = outcome(() => pt[cls].with_args(kwargs));
      if (refused(ctor)) {
        assert.deepEqual(bound, ctor, `${cls}: with_args({ ${key} }) fails as the constructor does`);
        assert.ok(ctor.message.includes(`'${key}'`), `${cls}: the message names '${key}': ${ctor.message}`);
      } else {
        // The constructor may still refuse the value (a per-tensor qscheme for a per-channel class,
        // FixedQParamsObserver without scale): not the keyword. with_args binds without constructing.
        assert.equal(bound, null, `${cls}: with_args({ ${key} }) accepted as the constructor accepts it (${JSON.stringify(ctor)})`);
        accepted[cls].push(key);
      }
    }
  }
  // The check has teeth: classes differ, as torchao's signatures do.
  assert.ok(accepted.HistogramObserver.includes('bins') && !accepted.MinMaxObserver.includes('bins'));
  assert.ok(accepted.PerChannelMinMaxObserver.includes('ch_axis') && !accepted.MinMaxObserver.includes('ch_axis'));
  assert.ok(accepted.FixedQParamsObserver.includes('scale') && !accepted.HistogramObserver.includes('scale'));
  assert.ok(accepted.FakeQuantize.includes('averaging_constant'), 'FakeQuantize forwards to MovingAverageMinMaxObserver');
  assert.ok(!accepted.FakeQuantize.includes('bins'), '... which takes no bins');
  for (const cls of pt.observer_classes) assert.ok(!accepted[cls].includes('binz'), cls);
});

test('a typo is the same TypeError, naming the key, in the constructor, in with_args and in a spec', () => {
  const ctor = outcome(() => new pt.HistogramObserver({ binz: 1 }));
  assert.deepEqual(ctor, { name: 'TypeError', message: "HistogramObserver.__init__() got an unexpected keyword argument 'binz'" });
  assert.deepEqual(outcome(() => pt.HistogramObserver.with_args({ binz: 1 })), ctor);
  // A constructor written by hand ({ name, kwargs }) is checked when the spec is built.
  const spec = () => new pt.QuantizationSpec({ dtype: 'int8', observer_or_fake_quant_ctr: { name: 'HistogramObserver', kwargs: { binz: 1 } } });
  assert.deepEqual(outcome(spec), ctor);
  // A keyword of the table that the class does not take: the same text the constructor gives.
  const bins = outcome(() => new pt.MinMaxObserver({ bins: 1 }));
  assert.equal(bins.message, "MinMaxObserver.__init__() got an unexpected keyword argument 'bins'");
  assert.deepEqual(outcome(() => pt.MinMaxObserver.with_args({ bins: 1 })), bins);
  // A fake-quantize class forwards keywords to its observer, which refuses them by its own name.
  const fq = outcome(() => new pt.FakeQuantize({ bins: 1 }));
  assert.equal(fq.message, "MovingAverageMinMaxObserver.__init__() got an unexpected keyword argument 'bins'");
  assert.deepEqual(outcome(() => pt.FakeQuantize.with_args({ bins: 1 })), fq);
  assert.equal(outcome(() => pt.FakeQuantize.with_args({ observer: 'HistogramObserver', bins: 1 })), null);
  // Wrong value types are the reader's TypeError, in both places.
  const eps = outcome(() => new pt.MinMaxObserver({ eps: '0.1' }));
  assert.equal(eps.name, 'TypeError');
  assert.deepEqual(outcome(() => pt.MinMaxObserver.with_args({ eps: '0.1' })), eps);
});

test('with_args keywords reach the observer prepare_pt2e builds, scale and zero_point included', () => {
  pt.manual_seed(0);
  const model = pt.get_model('linear_sigmoid');
  const gm = pt.export(model, [pt.randn([2, ...model.input_shape])]);
  const fixed = new pt.QuantizationSpec({
    dtype: 'uint8', quant_min: 0, quant_max: 255, qscheme: 'per_tensor_affine',
    observer_or_fake_quant_ctr: pt.FixedQParamsObserver.with_args({ scale: 1 / 256, zero_point: 0 }),
  });
  const hist = new pt.QuantizationSpec({
    dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
    observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ bins: 64, eps: 2 ** -12 }),
  });
  class SigmoidFixed extends pt.Quantizer {
    annotate(g) {
      const sigmoid = g.nodes.find((n) => n.target === 'aten.sigmoid.default');
      const linear = g.nodes.find((n) => n.target === 'aten.linear.default');
      g.annotate(linear, new pt.QuantizationAnnotation({ input_qspec_map: [[linear.args[0].node, hist]], _annotated: true }));
      g.annotate(sigmoid, new pt.QuantizationAnnotation({ output_qspec: fixed, _annotated: true }));
    }
    validate() {}
  }
  const annotated = gm.clone();
  new SigmoidFixed().annotate(annotated);
  const sigmoid = annotated.nodes.find((n) => n.target === 'aten.sigmoid.default');
  const shown = annotated.annotation(sigmoid).output_qspec.observer_or_fake_quant_ctr;
  assert.deepEqual(shown, { name: 'FixedQParamsObserver', kwargs: { scale: 1 / 256, zero_point: 0 } }, 'the engine shows what the spec was given');

  const prepared = pt.prepare_pt2e(gm, new SigmoidFixed());
  const observers = pt.observer_nodes(prepared).map((n) => prepared.observer(n));
  const byType = Object.fromEntries(observers.map((o) => [o.config.type, o]));
  assert.deepEqual(Object.keys(byType).sort(), ['FixedQParamsObserver', 'HistogramObserver']);
  const { scale, zero_point } = byType.FixedQParamsObserver.calculate_qparams();
  assert.deepEqual([scale[0], zero_point[0]], [1 / 256, 0]);
  assert.equal(byType.HistogramObserver.buffer('histogram').numel, 64, 'bins: 64 reached the HistogramObserver');
});

test('dtype keeps its spelling: reduce_range with a symmetric scheme raises for torch.quint8 only, and prints as given', () => {
  // torchao v0.18.0 observer.py MinMaxObserver.__init__ / PerChannelMinMaxObserver.__init__ compare the dtype with
  // torch.quint8; torch.uint8 (one engine dtype with quint8) is accepted.
  const sym = { qscheme: 'per_tensor_symmetric', reduce_range: true };
  for (const dtype of [undefined, 'quint8', 'torch.quint8']) {
    assert.throws(() => new pt.MinMaxObserver({ ...sym, ...(dtype ? { dtype } : {}) }),
      (e) => e.name === 'NotImplementedError' && /Cannot reduce range for symmetric quantization for quint8/.test(e.message), String(dtype));
  }
  assert.throws(() => new pt.PerChannelMinMaxObserver({ qscheme: 'per_channel_symmetric', reduce_range: true, dtype: 'quint8' }),
    (e) => e.name === 'NotImplementedError');
  pt.scope(() => {
    const o = new pt.MinMaxObserver({ ...sym, dtype: 'uint8' });
    assert.equal(o.quant_max, 127);
    new pt.PerChannelMinMaxObserver({ qscheme: 'per_channel_symmetric', reduce_range: true, dtype: 'torch.uint8' });
    // A fake-quantize module prints the dtype as written (torchao FakeQuantize.extra_repr).
    const spelled = (dtype) => String(new pt.FakeQuantize({ observer: 'MinMaxObserver', ...(dtype ? { dtype } : {}) })).match(/, dtype=torch\.(\w+), qscheme/)[1];
    assert.deepEqual([spelled(undefined), spelled('quint8'), spelled('uint8'), spelled('qint8'), spelled('int8')],
      ['quint8', 'quint8', 'uint8', 'qint8', 'int8']);
    // A spec keeps the spelling of its dtype, as torchao's dataclass holds the torch.dtype it was given.
    const spec = (dtype) => new pt.QuantizationSpec({ dtype, observer_or_fake_quant_ctr: pt.MinMaxObserver.with_args({}) }).dtype;
    assert.deepEqual([spec('quint8'), spec('torch.uint8'), spec('qint8'), spec('int8')], ['quint8', 'uint8', 'qint8', 'int8']);
  });
});
