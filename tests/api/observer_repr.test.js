// observer_repr.test.js — observers and fake-quant modules print as torch prints them: toString() against torch 1.13's
// repr() of the same object after the same inputs (tests/golden/gen_observer_repr.py); torchao v0.18.0's PT2E classes
// print the same fields (torchao/quantization/pt2e/observer.py, fake_quantize.py: each class's extra_repr).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();
const golden = JSON.parse(readFileSync(new URL('../golden/repr/observer_repr.json', import.meta.url)));

for (const c of golden.cases) {
  test(`toString() prints as torch: ${c.name}`, () => pt.scope(() => {
    const obs = new pt[c.class](c.kwargs);
    for (const x of c.inputs) obs.forward(pt.tensor(x.values, x.shape));
    if (c.disable_fake_quant) obs.disable_fake_quant();
    assert.equal(obs.toString(), c.repr);
    assert.equal(inspect(obs), c.repr);
    obs.delete();
  }));
}

// torchao's PlaceholderObserver.extra_repr (torchao/quantization/pt2e/observer.py) prints its dtype and is_dynamic;
// torch 1.13's prints nothing, so this one is stated from torchao's source.
test("PlaceholderObserver prints torchao's extra_repr: dtype and is_dynamic", () => {
  const p = new pt.PlaceholderObserver({ dtype: 'float32', is_dynamic: false });
  assert.equal(String(p), 'PlaceholderObserver(dtype=torch.float32, is_dynamic=False)');
  const q = new pt.PlaceholderObserver({ dtype: 'qint8', is_dynamic: true });
  assert.equal(String(q), 'PlaceholderObserver(dtype=torch.qint8, is_dynamic=True)');
  p.delete(); q.delete();
});

// An observer prepare_pt2e made from a QuantizationSpec prints the spec's dtype as torchao's configs write it
// (torch.int8 in get_symmetric_quantization_config), and a JS subclass prints its own class name, as type(self).__name__.
test('observers made by prepare_qat_pt2e print the spec dtype; a JS subclass prints its own name', () => pt.scope(() => {
  pt.manual_seed(0);
  const gm = pt.export(pt.get_model('conv_relu'), [pt.randn([2, 3, 16, 16])]);
  const q = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_qat: true }));
  const prepared = pt.prepare_qat_pt2e(gm, q);
  const [name] = pt.observer_nodes(prepared);
  const fq = prepared.observer(name);
  assert.match(String(fq), /^FusedMovingAvgObsFakeQuantize\(\n  fake_quant_enabled=tensor\(\[1\]\), .*, dtype=torch\.int8, quant_min=-12[78], quant_max=127, qscheme=torch\.per_tensor_(affine|symmetric), reduce_range=False\n  \(activation_post_process\): MovingAverageMinMaxObserver\(min_val=inf, max_val=-inf\)\n\)$/);
  class MyObserver extends pt.MinMaxObserver {}
  const mine = new MyObserver();
  mine.forward(pt.tensor([-1, 2], [2]));
  assert.equal(String(mine), 'MyObserver(min_val=-1.0, max_val=2.0)');
}));
