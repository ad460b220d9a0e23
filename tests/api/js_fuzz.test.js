// js_fuzz.test.js — a short run of the JS-level fuzzer (tests/fuzz/js_api.fuzz.js) in every npm test: random calls
// through the public API with wrong and right arguments; every error must be one of the engine's typed errors, and
// the canary (manual_seed(0); randn([5]) equals torch) must pass after each. The long run: npm run fuzz:js.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';
import { fuzzApi } from '../fuzz/js_api.fuzz.js';

const pt = await loadEngine();

for (const seed of [101, 202]) {
  test(`JS API fuzz, seed ${seed}: 3000 calls, no untyped error, the canary after every failure`, async () => {
    const r = await fuzzApi(pt, { calls: 3000, seed });
    assert.equal(r.canaryFailed, undefined);
    assert.ok(r.canaryRuns > 100, `only ${r.canaryRuns} failures to check after`);
    assert.deepEqual(r.untypedExamples.map((x) => x.line), []);
  });
}
