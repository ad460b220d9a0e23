// qat_fake_quantize.test.js — the QAT pieces issue #13 added, under torchao's names in JS:
// FixedQParamsFakeQuantize (torchao fake_quantize.py) and FakeQuantize with
// per_channel_affine_float_qparams (float zero points, ATen's float zero-point fake quant).
// Their numbers are checked against torch 1.13 in tests/engine/quant/test_golden_fidelity.cpp.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();

test('pt.FixedQParamsFakeQuantize keeps the scale and zero point it was given, whatever it sees', () => {
  const fq = new pt.FixedQParamsFakeQuantize({ scale: 1 / 256, zero_point: 0, dtype: 'uint8', quant_min: 0, quant_max: 255 });
  assert.ok(pt.observer_classes.includes('FixedQParamsFakeQuantize'));
  const y = fq.forward(pt.tensor([0.1, 0.5, 2.0, -1.0]));
  assert.deepEqual(Array.from(y.data()), [Math.fround(26 / 256), 0.5, Math.fround(255 / 256), 0]);
  assert.equal(fq.calculate_qparams().scale[0], 1 / 256);
  assert.throws(() => new pt.FixedQParamsFakeQuantize({ observer: 'MinMaxObserver', scale: 0.1 }), (e) => e.name === 'TypeError');
});

test('pt.FakeQuantize with per_channel_affine_float_qparams keeps float zero points', () => {
  pt.manual_seed(0);
  const fq = new pt.FakeQuantize({ observer: 'PerChannelMinMaxObserver', qscheme: 'per_channel_affine_float_qparams',
    dtype: 'uint8', quant_min: 0, quant_max: 255, ch_axis: 0 });
  fq.forward(pt.randn([3, 4]));
  assert.equal(fq.config.qscheme, 'per_channel_affine_float_qparams');
  assert.equal(fq.zero_point.dtype, 'float32');
  assert.ok(Array.from(fq.zero_point.data()).some((z) => !Number.isInteger(z)));
});
