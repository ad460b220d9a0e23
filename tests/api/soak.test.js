// soak.test.js — a short soak (tests/fuzz/soak.js) in every npm test: every written lesson run 5 times and an error
// path 500 times in this process; after the first two runs, nothing may grow (the engine's heap in use, the wasm memory,
// live engine objects, JS values held by C++). The long soak (200 runs, 10 000 errors): npm run soak.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';
import { soak } from '../fuzz/soak.js';

const pt = await loadEngine();

test('soak: every lesson 5 times and an error path 500 times, no growth after the first two', async () => {
  const r = await soak(pt, { runs: 5, errors: 500, warmup: 2 });
  // Growth only: what shrinks (a buffer the allocator gave back) is no failure.
  const grown = (g) => Object.fromEntries(Object.entries(g).map(([k, v]) => [k, Math.max(0, v)]));
  const none = { heap_in_use_bytes: 0, wasm_memory_bytes: 0, live_objects: 0, js_values_held: 0 };
  for (const l of r.lessons) assert.deepEqual({ id: l.id, failed: l.failedCells, growth: grown(l.growth) }, { id: l.id, failed: 0, growth: none });
  assert.deepEqual(grown(r.errors.growth), none);
  assert.ok(r.ok);
});
