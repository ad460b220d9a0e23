// allocation.test.js — shapes that cannot be allocated, and a full wasm heap, end in typed errors; the
// engine keeps working (the canary, tests/fuzz/canary.js: manual_seed(0); randn([5]) equals torch's bits).
// wasm32's size_t is 32-bit: before the byte check, randn([2 ** 30]) computed 0 bytes, wrote 4 GiB past
// them and trapped ("memory access out of bounds"), leaving the heap corrupt for every later call.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';
import { canary } from '../fuzz/canary.js';

const pt = await loadEngine();
const typed = (e) => Object.values(pt.errors).some((C) => e instanceof C) && !e.cause;

test('shapes too big to allocate: a typed error naming the shape, before anything is allocated', () => {
  const cases = [
    // [shape, error, the message names]
    [[2 ** 30], 'ValueError', /\[1073741824\].*4294967296 bytes/],      // 4 GiB of float32: 2^32 overflowed size_t
    [[2 ** 30 + 1], 'ValueError', /\[1073741825\]/],
    [[65536, 16385], 'ValueError', /\[65536, 16385\]/],
    [[2 ** 29], 'ValueError', /\[536870912\].*2147483648 bytes/],       // exactly 2^31 bytes: one too many
    [[2 ** 20, 2 ** 20], 'ValueError', /too many elements/],
    [[2 ** 31, 2 ** 31, 2 ** 31, 2 ** 31], 'ValueError', /too many elements/],  // the product overflows int64
    [[1e20], 'ValueError', /too large/],
    [[2 ** 53 + 2], 'ValueError', /too large/],
    [[Infinity], 'TypeError', /Infinity/],
    [[NaN], 'TypeError', /NaN/],
    [[2.5], 'TypeError', /2\.5/],
    [[-1], 'ValueError', /negative/],
  ];
  for (const [shape, name, re] of cases) {
    for (const make of [(s) => pt.randn(s), (s) => pt.rand(s), (s) => pt.student_t(3, s)]) {
      assert.throws(() => make(shape), (e) => typed(e) && e.name === name && re.test(e.message), `randn/rand/student_t(${JSON.stringify(shape)})`);
      canary(pt);
    }
  }
  // 2^31 int8 values are one byte too many; 2^31 - 1 pass the byte check, and the heap (2 GiB, partly used) refuses them.
  assert.throws(() => pt.tensor([], [2 ** 31], 'int8'), (e) => typed(e) && e.name === 'ValueError' && /\[2147483648\]/.test(e.message));
  canary(pt);
  assert.throws(() => pt.tensor([], [2 ** 31 - 1], 'int8'), (e) => typed(e) && e.name === 'RuntimeError' && /out of memory.*\[2147483647\]/.test(e.message));
  canary(pt);
});

test('a tensor the shape check allows but the heap cannot hold: RuntimeError naming the shape', () => {
  assert.throws(() => pt.randn([2 ** 29 - 1]), (e) => typed(e) && e.name === 'RuntimeError'
    && /out of memory/.test(e.message) && /\[536870911\]/.test(e.message));
  canary(pt);
});

// The heap filled to the last bytes by many tensors, big to small; then every kind of call either works or
// raises a typed error; freed, the engine is whole again.
test('wasm heap exhaustion anywhere is a typed RuntimeError, never a trap; freed, the engine works again', () => {
  const held = [];
  let errors = 0;
  try {
    for (let n = 2 ** 26; n >= 1; n = Math.floor(n / 4)) {
      for (;;) {
        try {
          held.push(pt.rand([n]));
        } catch (e) {
          assert.ok(typed(e) && e.name === 'RuntimeError' && /out of memory/.test(e.message), `${e.name}: ${e.message}`);
          errors++;
          break;
        }
      }
    }
    assert.ok(held.length > 8, `only ${held.length} tensors fit`);
    // The heap is full: each of these allocates somewhere else in the engine (vectors, graphs, observers, strings).
    const attempts = [
      () => pt.get_model('residual'),
      () => pt.export(pt.get_model('conv_relu'), [pt.randn([1, 3, 8, 8])]),
      () => new pt.HistogramObserver().forward(held[0]),
      () => pt.choose_qparams(held[0], -128, 127, 1e-5, 'int8'),
      () => pt.tensor(new Float32Array(1000), [1000]),
      () => held[0].data(),
      () => pt.get_symmetric_quantization_config({ is_per_channel: true }),
      () => pt.calibration_batches({ n: 4, batch_size: 2 }),
    ];
    for (const f of attempts) {
      try { pt.scope(f); } catch (e) {
        assert.ok(typed(e), `untyped ${e?.constructor?.name} ${e?.name}: ${e?.message}`);
        errors++;
      }
    }
  } finally {
    for (const t of held) t.delete();
  }
  assert.ok(errors > 0);
  canary(pt);
  // The same big allocation that failed works now, and so does every size between, held together (the engine once
  // refused blocks by address near the heap's top: after a full heap, the allocator kept offering that freed top to
  // requests of some sizes, and each was refused).
  pt.scope(() => assert.equal(pt.rand([2 ** 26]).numel, 2 ** 26));
  pt.scope(() => {
    for (let n = 1; n <= 2 ** 23; n *= 2) assert.equal(pt.rand([n]).numel, n);
  });
  canary(pt);
});

test('a number where a name is expected is a TypeError naming the argument, not Embind\'s BindingError', () => {
  const o = new pt.MinMaxObserver();
  assert.throws(() => o.buffer(5), (e) => typed(e) && e.name === 'TypeError' && /'name'/.test(e.message));
  o.delete();
  canary(pt);
});
