// train.test.js — the public JS API of engine/train: gm.forward records, loss.backward() fills p.grad,
// pt.optim.SGD / Adam step, TrainLoop runs N steps per call; three SGD-momentum steps of tiny match
// torch 1.13 (tests/golden/grad/tiny_sgd, written by tests/golden/gen_grad.py); bad input raises typed
// errors and leaves the model trainable.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();
const F = pt.nn.functional;

// tests/golden/grad/<name>.{json,bin}: float32 tensors by name.
function golden(name) {
  const base = new URL(`../golden/grad/${name}`, import.meta.url);
  const meta = JSON.parse(readFileSync(new URL(`${base}.json`)));
  const bin = readFileSync(new URL(`${base}.bin`));
  const floats = new Float32Array(bin.buffer, bin.byteOffset, bin.byteLength / 4);
  const byName = Object.fromEntries(meta.tensors.map((t) => [t.name, t]));
  return (n, dtype = 'float32') => {
    const t = byName[n];
    const size = t.shape.reduce((a, b) => a * b, 1);
    const values = floats.slice(t.offset, t.offset + size);
    return pt.tensor(dtype === 'int32' ? Array.from(values) : values, t.shape, dtype);
  };
}

function maxRel(ours, torch) {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < torch.length; i++) {
    diff = Math.max(diff, Math.abs(ours[i] - torch[i]));
    scale = Math.max(scale, Math.abs(torch[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

function mlp() {
  pt.manual_seed(0);
  const gm = pt.export(pt.get_model('mlp'), [pt.randn([4, 16])]);
  return gm.train();
}

test('loss.backward() fills p.grad; zero_grad clears it; SGD moves the parameters', () => pt.scope(() => {
  const gm = mlp();
  const params = gm.named_parameters();
  assert.deepEqual(params.map(([n]) => n), ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']);
  assert.equal(params[0][1].grad, null, 'grad is None before backward');
  const opt = new pt.optim.SGD(gm.parameters(), { lr: 0.1, momentum: 0.9 });
  const x = pt.randn([4, 16]);
  const out = gm.forward(x);
  assert.ok(out.requires_grad && out.grad_fn);
  const loss = F.cross_entropy(out, [0, 1, 2, 3]);
  assert.equal(loss.grad_fn.name, 'NllLossBackward0');
  assert.deepEqual(loss.shape, []);
  loss.backward();
  const g = params[0][1].grad;
  assert.deepEqual(g.shape, [32, 16]);
  assert.ok(g.data().some((v) => v !== 0));
  const before = params[0][1].data.tolist();
  opt.step();
  const after = params[0][1].data.tolist();  // data shares storage with the module
  assert.notDeepEqual(after, before);
  opt.zero_grad();
  assert.equal(params[0][1].grad, null);
  // The next step's loss is lower on the same batch.
  const loss2 = F.cross_entropy(gm.forward(x), [0, 1, 2, 3]);
  assert.ok(loss2.item() < loss.item(), `${loss2.item()} < ${loss.item()}`);
}));

test('three SGD-momentum steps of tiny match torch 1.13 (losses, parameters, BN running statistics)', () => pt.scope(() => {
  const g = golden('tiny_sgd');
  pt.manual_seed(0);
  const gm = pt.export(pt.get_model('tiny'), [g('x1')]);
  pt.move_exported_model_to_train(gm);
  // foreach=False as gen_grad.py passes it: an implementation switch that changes no number
  const opt = new pt.optim.SGD(gm.parameters(), { lr: 0.05, momentum: 0.9, dampening: 0.1, weight_decay: 1e-3, foreach: false });
  for (let k = 1; k <= 3; k++) {
    opt.zero_grad();
    const loss = F.cross_entropy(gm.forward(g(`x${k}`)), g(`labels${k}`, 'int32'));
    loss.backward();
    opt.step();
    assert.ok(maxRel(loss.data(), g(`loss${k}`).data()) <= 1e-4, `loss ${k}`);
    for (const { name, tensor } of gm.state_dict()) {
      const rel = maxRel(tensor.data(), g(`step${k}.${name}`).data());
      assert.ok(rel <= 1e-4, `step ${k} ${name}: ${rel}`);
    }
  }
}));

test('Adam and a TrainLoop: N steps per call, losses as a Float32Array, position and epoch', () => pt.scope(() => {
  const gm = mlp();
  const opt = new pt.optim.Adam(gm.parameters(), { lr: 1e-2, betas: [0.9, 0.99], weight_decay: 1e-4 });
  const batches = [0, 1, 2].map(() => ({ x: pt.randn([8, 16]), labels: pt.tensor([0, 1, 2, 3, 0, 1, 2, 3], [8], 'int32') }));
  const loop = new pt.TrainLoop(gm, opt, { loss: 'cross_entropy', batches });
  const first = loop.run(2);
  assert.ok(first instanceof Float32Array && first.length === 2);
  assert.deepEqual([loop.position, loop.epoch], [2, 0]);
  const more = loop.run(7);
  assert.deepEqual([loop.position, loop.epoch], [0, 3]);
  assert.ok(more[6] < first[0], `loss falls: ${first[0]} -> ${more[6]}`);
  assert.equal(loop.run(0).length, 0);
  assert.throws(() => loop.run(-1), pt.errors.ValueError);
}));

test('out.backward(cotangent) for a model whose output is not a class score; mse_loss', () => pt.scope(() => {
  pt.manual_seed(0);
  const gm = pt.export(pt.get_model('conv_relu'), [pt.randn([2, 3, 16, 16])]);
  const out = gm.forward(pt.randn([2, 3, 16, 16]));
  out.backward(pt.randn(out.shape));
  const grads = gm.named_parameters().map(([, p]) => p.grad);
  assert.ok(grads.every((t) => t && t.data().some((v) => v !== 0)));
  const y = gm.forward(pt.randn([2, 3, 16, 16]));
  const loss = F.mse_loss(y, pt.randn(y.shape));
  loss.backward();
  assert.equal(loss.grad_fn.name, 'MseLossBackward0');
}));

test('cross_entropy / mse_loss keyword arguments: values as torch 1.13; reduction none takes a cotangent', () => pt.scope(() => {
  const g = golden('losses');
  // tests/golden/gen_grad.py gen_losses (engine/train/test_losses.cpp checks the gradients too)
  const cases = {
    ce_weight: { weight: g('ce_weight.weight') },
    ce_sum: { reduction: 'sum' },
    ce_none: { weight: g('ce_none.weight'), ignore_index: 2, reduction: 'none' },
    ce_smooth_weight: { weight: g('ce_smooth_weight.weight'), ignore_index: 3, label_smoothing: 0.25 },
    ce_smooth_none: { weight: g('ce_smooth_none.weight'), label_smoothing: 0.3, reduction: 'none' },
  };
  for (const [c, kw] of Object.entries(cases)) {
    const loss = F.cross_entropy(g(`${c}.x`), g(`${c}.labels`, 'int32'), kw);
    assert.deepEqual(loss.shape, g(`${c}.loss`).shape, c);
    assert.ok(maxRel(loss.data(), g(`${c}.loss`).data()) <= 1e-4, c);
  }
  // class probabilities: a float target of the input's shape
  const soft = F.cross_entropy(g('ce_prob_smooth_weight.x'), g('ce_prob_smooth_weight.t'), { weight: g('ce_prob_smooth_weight.weight'), label_smoothing: 0.2 });
  assert.ok(maxRel(soft.data(), g('ce_prob_smooth_weight.loss').data()) <= 1e-4, 'ce_prob_smooth_weight');
  const mse = F.mse_loss(g('mse_none.x'), g('mse_none.t'), { reduction: 'none' });
  assert.ok(maxRel(mse.data(), g('mse_none.loss').data()) <= 1e-4);
  assert.ok(Number.isNaN(F.cross_entropy(g('ce_all_ignored.x'), g('ce_all_ignored.labels', 'int32')).item()));

  // Through a model: backward(cotangent) of the per-sample losses gives the gradient of their weighted sum.
  const gm = mlp();
  const x = pt.randn([4, 16]);
  const labels = [0, 1, 2, 3];
  const none = F.cross_entropy(gm.forward(x), labels, { reduction: 'none', label_smoothing: 0.1 });
  assert.deepEqual(none.shape, [4]);
  assert.throws(() => none.backward(), (e) => e instanceof pt.RuntimeError && /only for scalar outputs/.test(e.message));
  assert.throws(() => none.backward(pt.tensor([1, 1, 1], [3])), (e) => e instanceof pt.RuntimeError && /Mismatch in shape/.test(e.message));
  none.backward(pt.tensor([2, 2, 2, 2], [4]));
  const viaNone = gm.named_parameters()[0][1].grad.data();
  gm.zero_grad();
  F.cross_entropy(gm.forward(x), labels, { reduction: 'sum', label_smoothing: 0.1 }).backward(pt.tensor([2], []));
  const viaSum = gm.named_parameters()[0][1].grad.data();
  assert.ok(maxRel(viaNone, viaSum) <= 1e-6, 'none with cotangent 2 = 2 x sum');
  assert.ok(viaSum.some((v) => v !== 0));

  // Typed errors naming the argument, as torch's.
  const out = gm.forward(x);
  const bad = [
    [{ reduction: 'avg' }, pt.ValueError, /avg is not a valid value for reduction/],
    [{ size_average: true }, pt.TypeError, /unexpected keyword argument 'size_average'/],
    [{ label_smoothing: 2 }, pt.RuntimeError, /label_smoothing must be between 0.0 and 1.0/],
    [{ label_smoothing: '0.1' }, pt.TypeError, /label_smoothing/],
    [{ weight: pt.tensor([1, 1, 1], [3]) }, pt.RuntimeError, /for all 4 classes or no classes/],
    [{ weight: [1, 2, 3, 4] }, pt.TypeError, /weight/],
    [{ ignore_index: 1.5 }, pt.TypeError, /ignore_index/],
    [{ ignore_index: 2 ** 60 }, pt.ValueError, /ignore_index/],
    ['sum', pt.TypeError, /options/],
  ];
  for (const [kw, E, re] of bad) {
    assert.throws(() => F.cross_entropy(out, labels, kw), (e) => e instanceof E && re.test(e.message), JSON.stringify(kw));
  }
  assert.throws(() => F.mse_loss(out, out, { label_smoothing: 0.1 }), (e) => e instanceof pt.TypeError && /unexpected keyword argument 'label_smoothing'/.test(e.message));
  assert.ok(Number.isFinite(F.cross_entropy(gm.forward(x), labels).item()), 'the model still computes');
}));

test('state_dict / load_state_dict round trip between two models; strict=false reports keys', () => pt.scope(() => {
  pt.manual_seed(1);
  const a = pt.export(pt.get_model('stem'), [pt.randn([2, 3, 16, 16])]);
  pt.manual_seed(2);
  const b = pt.export(pt.get_model('stem'), [pt.randn([2, 3, 16, 16])]);
  const x = pt.randn([2, 3, 16, 16]);
  assert.notDeepEqual(a.forward(x).tolist(), b.forward(x).tolist());
  assert.deepEqual(b.load_state_dict(a.state_dict()), { missing_keys: [], unexpected_keys: [] });
  assert.deepEqual(a.forward(x).tolist(), b.forward(x).tolist());
  const sd = Object.fromEntries(a.state_dict().map((e) => [e.name, e.tensor]));
  delete sd['bn.bias'];
  sd.extra = pt.tensor([0], [1]);
  assert.deepEqual(b.load_state_dict(sd, false), { missing_keys: ['bn.bias'], unexpected_keys: ['extra'] });
}));

test('bad input: typed errors with torch messages, and the model still trains afterwards', () => pt.scope(() => {
  const gm = mlp();
  const opt = new pt.optim.SGD(gm.parameters(), { lr: 0.1 });
  const x = pt.randn([4, 16]);
  // backward without a loss / on a tensor that did not come from a recorded forward
  assert.throws(() => pt.randn([1]).backward(), { name: 'RuntimeError', message: /does not require grad/ });
  assert.throws(() => gm.forward(x).backward(), { name: 'RuntimeError', message: /only for scalar outputs/ });
  // backward twice; an older forward after a newer one
  const loss = F.cross_entropy(gm.forward(x), [0, 1, 2, 3]);
  loss.backward();
  assert.throws(() => loss.backward(), pt.errors.RuntimeError);
  const old = F.cross_entropy(gm.forward(x), [0, 1, 2, 3]);
  gm.forward(x);
  assert.throws(() => old.backward(), { name: 'RuntimeError', message: /freed/ });
  // labels that do not match the batch
  assert.throws(() => F.cross_entropy(gm.forward(x), [0, 1, 2]), { name: 'ValueError', message: 'Expected input batch_size (4) to match target batch_size (3).' });
  assert.throws(() => F.cross_entropy(gm.forward(x), [0, 1, 2, 9]), { name: 'IndexError', message: 'Target 9 is out of bounds.' });
  // invalid hyper-parameters
  assert.throws(() => new pt.optim.SGD(gm.parameters(), { lr: NaN }), { name: 'ValueError', message: 'Invalid learning rate: nan' });
  assert.throws(() => new pt.optim.Adam(gm.parameters(), { lr: -1 }), { name: 'ValueError', message: 'Invalid learning rate: -1' });
  assert.throws(() => new pt.optim.SGD(gm.parameters(), { lr: 0.1, momentum: 'x' }), pt.errors.TypeError);
  assert.throws(() => new pt.optim.SGD(gm.parameters(), { lr: 0.1, foo: 1 }), { name: 'TypeError', message: /unexpected keyword argument 'foo'/ });
  assert.throws(() => new pt.optim.SGD([], { lr: 0.1 }), { name: 'ValueError', message: 'optimizer got an empty parameter list' });
  // load_state_dict: a name that does not exist, a wrong shape
  const before = gm.state_dict().map((e) => e.tensor.tolist());
  const sd = gm.state_dict();
  assert.throws(() => gm.load_state_dict([...sd, { name: 'fc3.weight', tensor: pt.randn([2]) }]),
    { name: 'RuntimeError', message: /Unexpected key\(s\) in state_dict: "fc3.weight"/ });
  assert.throws(() => gm.load_state_dict(sd.map((e) => (e.name === 'fc1.bias' ? { name: e.name, tensor: pt.randn([31]) } : e))),
    { name: 'RuntimeError', message: /size mismatch for fc1.bias/ });
  assert.throws(() => gm.load_state_dict(42), pt.errors.TypeError);
  assert.deepEqual(gm.state_dict().map((e) => e.tensor.tolist()), before, 'nothing changed');
  // still trains
  opt.zero_grad();
  const l = F.cross_entropy(gm.forward(x), [0, 1, 2, 3]);
  l.backward();
  opt.step();
  assert.ok(Number.isFinite(l.item()));
}));

test('engine objects are freed by pt.scope and .delete()', () => {
  const gm = mlp();
  const { opt, loop } = pt.scope(() => {
    const o = new pt.optim.SGD(gm.parameters(), { lr: 0.1 });
    const lp = new pt.TrainLoop(gm, o, { batches: [{ x: pt.randn([4, 16]), labels: pt.tensor([0, 1, 2, 3], [4], 'int32') }] });
    const out = gm.forward(pt.randn([4, 16]));
    void out;
    return { opt: o, loop: lp };
  });
  assert.equal(loop.run(2).length, 2);
  loop.delete();
  opt.delete();
  assert.ok(opt.isDeleted() && loop.isDeleted());
  assert.throws(() => opt.step(), pt.errors.RuntimeError);
  gm.delete();
});

test('bool keywords by position or by name: load_state_dict strict, zero_grad set_to_none, calculate_qmin_qmax reduce_range', () => pt.scope(() => {
  const a = mlp();
  const b = mlp();
  const partial = a.state_dict().slice(1);  // fc1.weight left out
  assert.throws(() => b.load_state_dict(partial), (e) => e instanceof pt.RuntimeError && /Missing key/.test(e.message));
  assert.deepEqual(b.load_state_dict(partial, { strict: false }).missing_keys, ['fc1.weight'], 'an options object is not a truthy strict');
  assert.deepEqual(b.load_state_dict(partial, false).missing_keys, ['fc1.weight']);
  assert.throws(() => b.load_state_dict(partial, 'no'), (e) => e instanceof pt.TypeError && /'strict' must be a bool/.test(e.message));
  assert.throws(() => b.load_state_dict(partial, { strictly: false }), (e) => e instanceof pt.TypeError && /unexpected keyword argument 'strictly'/.test(e.message));
  assert.deepEqual(pt.calculate_qmin_qmax(null, null, 'uint8', { reduce_range: true }), { quant_min: 0, quant_max: 127 });
  assert.deepEqual(pt.calculate_qmin_qmax(null, null, 'uint8', false), { quant_min: 0, quant_max: 255 });
  const fq = new pt.FakeQuantize();
  fq.enable_observer({ enabled: false });
  assert.deepEqual(fq.buffer('observer_enabled').tolist(), [0]);
  fq.enable_observer();
  assert.deepEqual(fq.buffer('observer_enabled').tolist(), [1]);
}));

test('opt.param_groups[0]: hyper-parameters read and changed between steps (engine/train/test_optim.cpp checks the steps against torch)', () => pt.scope(() => {
  const gm = mlp();
  const opt = new pt.optim.SGD(gm.parameters(), { lr: 0.1, momentum: 0.9, foreach: false });
  const [group] = opt.param_groups;
  assert.equal(group.lr, 0.1);
  assert.equal(group.momentum, 0.9);
  assert.equal(group.nesterov, false);
  assert.equal(group.params.length, 4);
  group.lr = 0.02;
  assert.equal(opt.param_groups[0].lr, 0.02, 'the engine keeps the new value');
  assert.throws(() => { group.lr = -1; }, (e) => e instanceof pt.ValueError && /Invalid learning rate: -1/.test(e.message));
  assert.throws(() => { group.lr = '0.1'; }, (e) => e instanceof pt.TypeError && /lr must be a number/.test(e.message));
  group.nesterov = true;  // momentum 0.9, dampening 0: allowed
  assert.throws(() => { group.momentum = 0; }, (e) => e instanceof pt.ValueError && /Nesterov/.test(e.message));
  assert.equal(group.momentum, 0.9);
  group.nesterov = false;
  assert.equal(opt.param_groups[0].lr, 0.02, 'a refused value leaves the old one');
  const adam = new pt.optim.Adam(gm.parameters(), { lr: 0.1 });
  adam.param_groups[0].betas = [0.5, 0.9];
  assert.deepEqual(adam.param_groups[0].betas, [0.5, 0.9]);
  assert.throws(() => { adam.param_groups[0].betas = [1, 0.9]; }, (e) => e instanceof pt.ValueError && /beta parameter at index 0/.test(e.message));
  // The step uses the new rate: a learning rate of 0 leaves the parameters where they are.
  const x = pt.randn([4, 16]);
  opt.param_groups[0].lr = 0;
  const before = gm.parameters()[0].data.tolist();
  F.cross_entropy(gm.forward(x), [0, 1, 2, 3]).backward();
  opt.step();
  assert.deepEqual(gm.parameters()[0].data.tolist(), before);
}));
