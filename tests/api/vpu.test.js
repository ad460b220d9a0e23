// vpu.test.js — the fictional VPU from JS (lessons M10, M10-1): pt.VPUQuantizer and its config from the registry,
// pt.simulate_vpu bit-exact against the fake-quant graph, and observer classes written in JS plugged into a
// QuantizationSpec (engine/quant/js_observer.h): they reach prepare / convert, and a bad one (throwing, returning
// the wrong count or a non-finite scale, taking an engine class's name) is a typed error naming the class, with
// the prepared graph left usable.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();

function convert(model, config = pt.get_vpu_quantization_config()) {
  pt.manual_seed(0);
  const m = pt.get_model(model);
  const prepared = pt.prepare_pt2e(pt.export(m, [pt.randn([4, ...m.input_shape])]), new pt.VPUQuantizer().set_global(config));
  for (const x of inputs(model, 4)) prepared.forward(x);
  return { prepared, converted: pt.convert_pt2e(prepared) };
}
// Calibration inputs: the image set for 3-channel image models, randn of the model's input shape otherwise.
function inputs(model, count, batch = 4) {
  const shape = pt.get_model(model).input_shape;
  if (shape.join() === '3,16,16') return pt.calibration_batches({ n: count * batch, batch_size: batch }).map((b) => b.x);
  return Array.from({ length: count }, () => pt.randn([batch, ...shape]));
}
const scales = (g) => g.nodes.filter((n) => n.kind === 'dequantize').map((n) => [n.name, n.args[1]]);
const bits = (t) => { const d = t.data(); return Array.from(new Uint32Array(d.buffer, d.byteOffset, d.length)); };

// The learner's observer of lesson M10-1, with switches for the ways it can go wrong.
const broken = { how: null };
class PowerOfTwoObserver extends pt.MinMaxObserver {
  calculate_qparams() {
    if (broken.how === 'throws') throw new Error('no qparams today');
    const amax = Math.max(-this.min_val.item(), this.max_val.item(), 0);
    const s = 2 ** Math.ceil(Math.log2(Math.max(amax / this.quant_max, this.config.eps)));
    if (broken.how === 'two') return { scale: [s, s], zero_point: [0, 0] };
    if (broken.how === 'inf') return { scale: [Infinity], zero_point: [0] };
    if (broken.how === 'string') return 'scale';
    if (broken.how === 'half') return { scale: [s], zero_point: [0.5] };
    return { scale: [s], zero_point: [0] };
  }
}
function configWith(Cls) {
  const c = pt.get_vpu_quantization_config();
  const spec = (s) => new pt.QuantizationSpec({ dtype: s.dtype, quant_min: s.quant_min, quant_max: s.quant_max, qscheme: s.qscheme, observer_or_fake_quant_ctr: Cls.with_args({ eps: 2 ** -12 }) });
  return { ...c, input_activation: spec(c.input_activation), output_activation: spec(c.output_activation), weight: spec(c.weight) };
}

test('VPUQuantizer and get_vpu_quantization_config come from the registry; the config holds power-of-two specs', () => {
  assert.equal(typeof pt.VPUQuantizer, 'function');
  const c = pt.get_vpu_quantization_config();
  assert.equal(c.input_activation.observer_or_fake_quant_ctr.name, 'PowerOfTwoMinMaxObserver');
  assert.equal(c.weight.qscheme, 'per_tensor_symmetric');
  assert.equal(c.weight.quant_min, -127);
  assert.ok(pt.observer_classes.includes('PowerOfTwoMinMaxObserver'));
});

test('simulate_vpu: every op an integer op, the output bit-exact against the fake-quant graph', () => {
  for (const model of ['residual', 'tiny']) {
    const { converted } = convert(model);
    for (const [, s] of scales(converted)) assert.ok(Number.isInteger(Math.log2(s)), `${model}: scale ${s}`);
    const sim = pt.simulate_vpu(converted);
    assert.equal(sim.delegation_info.num_non_delegated_nodes, 2);
    assert.equal(sim.nodes.filter((n) => n.kind === 'op').length, 0);
    const x = inputs(model, 1, 8)[0];
    assert.deepEqual(bits(sim.forward(x)), bits(converted.forward(x)), model);
  }
});

test('validate() refuses a model the VPU cannot run, naming the node and its target', () => {
  const m = pt.get_model('linear_sigmoid');
  assert.throws(() => pt.prepare_pt2e(pt.export(m, [pt.randn([2, ...m.input_shape])]), new pt.VPUQuantizer().set_global(pt.get_vpu_quantization_config())),
    (e) => e instanceof pt.NotImplementedError && /node sigmoid \(aten\.sigmoid\.default\)/.test(e.message));
  const { prepared } = convert('conv_relu');
  assert.throws(() => pt.simulate_vpu(prepared), (e) => e instanceof pt.ValueError && /convert_pt2e/.test(e.message));
});

test('an observer class written in JS plugs into a spec: the same scales as the engine\'s class, bit-exact simulation', () => {
  broken.how = null;
  const want = convert('tiny').converted;
  const { converted } = convert('tiny', configWith(PowerOfTwoObserver));
  assert.deepEqual(scales(converted), scales(want));
  const x = inputs('tiny', 3, 8)[2];
  assert.deepEqual(bits(pt.simulate_vpu(converted).forward(x)), bits(want.forward(x)));
  // The class itself, as a spec's ctr (no with_args), and inside the prepared graph.
  const spec = new pt.QuantizationSpec({ dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_symmetric', observer_or_fake_quant_ctr: PowerOfTwoObserver });
  assert.equal(spec.observer_or_fake_quant_ctr.name, 'PowerOfTwoObserver');
  const { prepared } = convert('mlp', configWith(PowerOfTwoObserver));
  const obs = prepared.nodes.find((n) => n.kind === 'observer');
  assert.equal(prepared.observer(obs).config.type, 'PowerOfTwoObserver');
});

test('a bad JS observer is a typed error naming its class; the prepared graph stays usable', () => {
  broken.how = null;
  const { prepared } = convert('mlp', configWith(PowerOfTwoObserver));
  const cases = [
    ['throws', /PowerOfTwoObserver\.calculate_qparams\(\): .*no qparams today/],
    ['two', /PowerOfTwoObserver\.calculate_qparams\(\) returned 2 scales/],
    ['inf', /PowerOfTwoObserver\.calculate_qparams\(\) returned scale\[0\] = inf/],
    ['string', /PowerOfTwoObserver\.calculate_qparams\(\): must return \{ scale, zero_point \}/],
    ['half', /PowerOfTwoObserver\.calculate_qparams\(\): returned zero_point\[0\] = 0\.5;/],
  ];
  for (const [how, message] of cases) {
    broken.how = how;
    assert.throws(() => pt.convert_pt2e(prepared), (e) => e instanceof pt.errors[e.name] && e.name !== 'Error' && message.test(e.message), how);
  }
  broken.how = null;
  assert.ok(pt.convert_pt2e(prepared).nodes.some((n) => n.kind === 'quantize'));   // nothing half-changed
  // forward throwing during calibration.
  class Loud extends pt.MinMaxObserver { forward() { throw new RangeError('too loud'); } }
  const m = pt.get_model('mlp');
  const p2 = pt.prepare_pt2e(pt.export(m, [pt.randn([2, 16])]), new pt.VPUQuantizer().set_global(configWith(Loud)));
  assert.throws(() => p2.forward(pt.randn([2, 16])), (e) => /Loud\.forward\(\): .*too loud/.test(e.message) && e instanceof pt.RuntimeError);
  // A JS class cannot take an engine class's name.
  const Fake = { MinMaxObserver: class extends pt.MinMaxObserver {} }.MinMaxObserver;
  assert.throws(() => new pt.QuantizationSpec({ dtype: 'int8', observer_or_fake_quant_ctr: Fake }), (e) => e instanceof pt.TypeError && /name of its own/.test(e.message));
});
