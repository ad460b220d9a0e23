// quant.test.js — the public JS API of engine/quant: observers by torchao name, keyword checks,
// qparams, fake quant switches, the q/dq ops and their errors. Numbers checked here are the ones the
// seed page M02-1 printed from real PyTorch (table A), compared at the printed digits.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();
const int8 = { dtype: 'int8', quant_min: -128, quant_max: 127 };

test('every observer class of torchao is a pt class', () => {
  for (const name of ['MinMaxObserver', 'MovingAverageMinMaxObserver', 'PerChannelMinMaxObserver',
    'MovingAveragePerChannelMinMaxObserver', 'HistogramObserver', 'PlaceholderObserver', 'FakeQuantize',
    'FusedMovingAvgObsFakeQuantize']) {
    assert.equal(typeof pt[name], 'function', name);
    assert.equal(new pt[name]().config.type, name);
  }
});

test('M02-1 table A: MinMaxObserver on randn(20000) after manual_seed(0)', () => {
  pt.manual_seed(0);
  const x = pt.randn([20000]);
  const aff = new pt.MinMaxObserver({ ...int8, qscheme: 'per_tensor_affine' });
  const sym = new pt.MinMaxObserver({ ...int8, qscheme: 'per_tensor_symmetric' });
  assert.equal(aff.forward(x), x, 'forward returns its input');
  sym.forward(x);
  const a = aff.calculate_qparams();
  const s = sym.calculate_qparams();
  assert.ok(a.scale instanceof Float32Array && a.zero_point instanceof Int32Array);
  assert.deepEqual([a.scale[0].toFixed(6), a.zero_point[0]], ['0.033117', 3]);
  assert.deepEqual([s.scale[0].toFixed(6), s.zero_point[0]], ['0.034065', 0]);
  // formula (1) of the page: max(|min|, max) / ((qmax - qmin) / 2), in float32
  const hand = Math.fround(Math.max(-aff.min_val.item(), aff.max_val.item()) / Math.fround(255 / 2));
  assert.equal(s.scale[0], hand);
  assert.deepEqual(aff.named_buffers().map(([n]) => n), ['eps', 'min_val', 'max_val']);
});

test('PlaceholderObserver: identity forward, no buffers, calculate_qparams raises', () => {
  const ph = new pt.PlaceholderObserver({ dtype: 'float32' });
  const y = pt.randn([10]);
  assert.equal(ph.forward(y), y);
  assert.deepEqual(ph.named_buffers(), []);
  assert.throws(() => ph.calculate_qparams(), /calculate_qparams should not be called for PlaceholderObserver/);
});

test('fake quantize: observer and fake-quant switches', () => {
  pt.manual_seed(1);
  const x = pt.randn([1000]);
  const fq = new pt.FakeQuantize({ ...int8 });
  assert.equal(fq.activation_post_process, 'MovingAverageMinMaxObserver');
  const y = fq.forward(x);
  assert.notEqual(y, x);
  assert.ok(y.data().some((v, i) => v !== x.data()[i]), 'fake quant changes values');
  const scale = fq.scale.item();
  fq.disable_fake_quant();
  assert.deepEqual(fq.forward(x).data(), x.data());
  fq.disable_observer();
  fq.enable_fake_quant();
  fq.forward(pt.tensor([100, -100], [2]));
  assert.equal(fq.scale.item(), scale, 'a disabled observer leaves the scale alone');
});

test('quantize / dequantize per tensor and per channel round-trip', () => {
  const x = pt.tensor([-1, -0.5, 0, 0.25, 1, 2], [2, 3]);
  const q = pt.quantize_per_tensor(x, 0.5, 1, -128, 127, 'int8');
  assert.deepEqual(Array.from(q.data()), [-1, 0, 1, 1, 3, 5]);  // rne(x/0.5) + 1: 0.25/0.5 = 0.5 rounds to 0 (half to even)
  assert.deepEqual(Array.from(pt.dequantize_per_tensor(q, 0.5, 1, -128, 127, 'int8').data()), [-1, -0.5, 0, 0, 1, 2]);
  const qc = pt.quantize_per_channel(x, new Float32Array([0.5, 0.25]), new Int32Array([0, 0]), 0, -127, 127, 'int8');
  assert.deepEqual(Array.from(qc.data()), [-2, -1, 0, 1, 4, 8]);
  assert.deepEqual(Array.from(pt.dequantize_per_channel(qc, new Float32Array([0.5, 0.25]), null, 0, -127, 127, 'int8').data()),
    [-1, -0.5, 0, 0.25, 1, 2]);
});

test('bad input gets the error PyTorch raises and leaves the engine usable', () => {
  assert.throws(() => new pt.MinMaxObserver({ bins: 10 }), (e) => e.name === 'TypeError' && /unexpected keyword argument 'bins'/.test(e.message));
  assert.throws(() => new pt.MinMaxObserver({ quant_min: 10, quant_max: 3 }), (e) => e.name === 'ValueError');
  assert.throws(() => new pt.MinMaxObserver({ qscheme: 'per_channel_affine' }), (e) => e.name === 'NotImplementedError');
  assert.throws(() => new pt.MinMaxObserver({ qscheme: 'per_banana' }), (e) => e.name === 'ValueError' && /per_banana/.test(e.message));
  assert.throws(() => new pt.MinMaxObserver({ quant_min: 1.5, quant_max: 3 }), (e) => e.name === 'TypeError' && /quant_min/.test(e.message));
  assert.throws(() => new pt.MinMaxObserver(7), (e) => e.name === 'TypeError');
  const pc = new pt.PerChannelMinMaxObserver({ ch_axis: 3 });
  assert.throws(() => pc.forward(pt.randn([2, 2])), (e) => e.name === 'IndexError');
  assert.throws(() => pt.quantize_per_tensor(pt.randn([3]), 0.1, 0, -128, 300, 'int8'), (e) => e.name === 'ValueError');
  assert.throws(() => pt.dequantize_per_tensor(pt.randn([3]), 0.1, 0, -128, 127, 'int8'), (e) => /dtype|int8/.test(e.message));
  assert.throws(() => pt.sqnr(pt.randn([3]), pt.randn([4])), (e) => e.name === 'ValueError');
  assert.throws(() => pt.sqnr([1], pt.randn([1])), (e) => e.name === 'TypeError' && /'x'/.test(e.message));
  const ok = new pt.MinMaxObserver({ ...int8 });
  ok.forward(pt.tensor([-2, 2], [2]));
  // (torch 1.13 prints zero_point -1 here: -128 - rne(-2 / f32(4/255)), the quotient is just above -127.5)
  assert.equal(ok.calculate_qparams().zero_point[0], -1);
});

test('observers are freed by pt.scope', () => {
  let o;
  pt.scope(() => { o = new pt.HistogramObserver(); o.forward(pt.randn([100])); });
  assert.ok(o.isDeleted());
  assert.throws(() => o.calculate_qparams(), (e) => e.name === 'RuntimeError' && /freed/.test(e.message));
});
