// core.test.js — the public JS API of engine/core in Node: loading, Tensor, generator, typed errors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();

test('loadEngine returns one shared engine', async () => {
  assert.equal(await loadEngine(), pt);
});

test('randn returns a float32 Tensor of the asked shape', () => {
  pt.manual_seed(0);
  const x = pt.randn([4, 8, 16, 16]);
  assert.deepEqual(x.shape, [4, 8, 16, 16]);
  assert.equal(x.dtype, 'float32');
  const d = x.data();
  assert.ok(d instanceof Float32Array);
  assert.equal(d.length, 4 * 8 * 16 * 16);
  x.delete();
  assert.throws(() => x.shape, pt.RuntimeError);
});

test('tensor() copies values in and data() copies them out', () => {
  const t = pt.tensor(new Float32Array([1.5, -2, 3]), [3]);
  assert.deepEqual(Array.from(t.data()), [1.5, -2, 3]);
  const q = pt.tensor([-128, 0, 127, 5], [2, 2], 'int8');
  assert.equal(q.dtype, 'int8');
  assert.ok(q.data() instanceof Int8Array);
  assert.deepEqual(Array.from(q.data()), [-128, 0, 127, 5]);
});

test('bad input raises a typed error naming the argument, and the module keeps working', () => {
  assert.throws(() => pt.randn([2, -3]), (e) => e instanceof pt.ValueError && /shape/.test(e.message));
  assert.throws(() => pt.randn([2.5]), (e) => e instanceof pt.TypeError && e.name === 'TypeError' && /'shape'/.test(e.message));
  assert.throws(() => pt.randn('3'), (e) => e.name === 'TypeError' && /'shape'/.test(e.message));
  assert.throws(() => pt.manual_seed(1.5), (e) => e.name === 'TypeError' && /'seed'/.test(e.message));
  assert.throws(() => pt.manual_seed('0'), (e) => e.name === 'TypeError' && /'seed'/.test(e.message));
  assert.throws(() => pt.manual_seed(2n ** 64n), (e) => e.name === 'RuntimeError' && /seed/.test(e.message));
  assert.throws(() => pt.tensor([1, 2], [2], 'complex64'), (e) => e.name === 'TypeError' && /'dtype'/.test(e.message));
  assert.throws(() => pt.tensor([1, 2, 3], [2]), (e) => e.name === 'ValueError' && /shape \[2\]/.test(e.message));
  // An error raised inside C++ reaches JS typed too (a shape too large for the engine).
  assert.throws(() => pt.randn([2 ** 20, 2 ** 20]), (e) => e.name === 'ValueError' && /too many elements/.test(e.message));
  // After all that, the generator still reproduces itself.
  pt.manual_seed(7);
  const a = pt.randn([100]).data();
  pt.manual_seed(7);
  const b = pt.randn([100]).data();
  assert.deepEqual(a, b);
});

test('negative seeds wrap into uint64 as torch does', () => {
  pt.manual_seed(-1);
  const a = pt.rand([5]).data();
  pt.manual_seed(2n ** 64n - 1n);
  const b = pt.rand([5]).data();
  assert.deepEqual(a, b);
});

test('pt.scope frees what it created, except what it returns', () => {
  let inner;
  const kept = pt.scope(() => {
    inner = pt.randn([3]);
    return pt.rand([2]);
  });
  assert.ok(inner.isDeleted());
  assert.ok(!kept.isDeleted());
  assert.equal(kept.data().length, 2);
});

test('pt.tensor takes torch.tensor\'s nested lists: the shape from the nesting, ragged lists refused in torch\'s words', () => pt.scope(() => {
  const t = pt.tensor([[1, 2, 3], [4, 5, 6]]);
  assert.deepEqual(t.shape, [2, 3]);
  assert.deepEqual(t.tolist(), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(pt.tensor([[[1], [2]], [[3], [4]]], undefined, 'int8').shape, [2, 2, 1]);
  assert.deepEqual(pt.tensor([[1, 2], [3, 4]], [4]).shape, [4], 'a shape given wins, as for flat values');
  assert.throws(() => pt.tensor([[1, 2], [3]]), (e) => e instanceof pt.ValueError && e.message === 'tensor(): expected sequence of length 2 at dim 1 (got 1)');
  assert.throws(() => pt.tensor([[1, [2]], [3, 4]]), (e) => e instanceof pt.ValueError && /expected a number at dim 2/.test(e.message));
  assert.throws(() => pt.tensor([[1.5]], undefined, 'int8'), (e) => e instanceof pt.ValueError && /cannot be converted to int8/.test(e.message));
  assert.throws(() => pt.tensor([['a']]), (e) => e instanceof pt.TypeError);
  // A list whose length lies (2^32 - 1, none there) inside another: refused from the lengths alone, before any
  // element is read (JS fuzz seed 41 had the engine's JS copy it element by element into an array until V8 aborted).
  const lying = new Proxy([], { get: (t, k) => (k === 'length' ? 2 ** 32 - 1 : undefined) });
  assert.throws(() => pt.tensor([lying, new Float32Array(2)]), (e) => e instanceof pt.ValueError && /more than 2\^31 - 1 elements/.test(e.message));
  assert.throws(() => pt.tensor([new Proxy([], { get: (t, k) => (k === 'length' ? 3 : undefined) })]), (e) => e instanceof pt.TypeError && /element 0/.test(e.message));
}));

test('x.dim(), x.size() and x.size(d) as torch: d may count from the end; out of range is an IndexError in torch\'s words', () => pt.scope(() => {
  const x = pt.randn([2, 3, 4]);
  assert.equal(x.dim(), 3);
  assert.deepEqual(x.size(), [2, 3, 4]);
  assert.equal(x.size(1), 3);
  assert.equal(x.size(-1), 4);
  assert.throws(() => x.size(3), (e) => e instanceof pt.IndexError && e.message === 'Dimension out of range (expected to be in range of [-3, 2], but got 3)');
  assert.throws(() => x.size(1.5), (e) => e instanceof pt.TypeError);
  const s = pt.tensor([5], []);
  assert.equal(s.dim(), 0);
  assert.deepEqual(s.size(), []);
  assert.throws(() => s.size(0), (e) => e instanceof pt.IndexError && e.message === 'Dimension specified as 0 but tensor has no dimensions');
}));
