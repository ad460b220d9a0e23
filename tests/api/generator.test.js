// generator.test.js — the public JS API draws torch's bits: every randn/rand golden case of
// tests/golden/random (made by tests/golden/gen_random.py with torch 1.13) through pt.randn / pt.rand.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();
const dir = new URL('../golden/random/', import.meta.url);
const index = JSON.parse(readFileSync(new URL('index.json', dir), 'utf8'));
// A file's bytes as its own ArrayBuffer (small Node Buffers are slices of a shared pool).
const bytes = (name) => { const b = readFileSync(new URL(`${name}.bin`, dir)); return b.buffer.slice(b.byteOffset, b.byteOffset + b.length); };
const golden = (name) => new Uint32Array(bytes(name));

const cases = index.cases.filter((c) => (c.op === 'randn' || c.op === 'rand') && c.seed !== undefined);

test('golden cases cover the sizes and seeds the issue names', () => {
  for (const n of [1, 5, 15, 16, 17, 1000, 20000, 100003]) {
    for (const op of ['randn', 'rand']) {
      const seeds = new Set(cases.filter((c) => c.op === op && c.shape.length === 1 && c.shape[0] === n).map((c) => c.seed));
      assert.ok(seeds.size >= 3, `${op}(${n}) has ${seeds.size} seeds`);
    }
  }
});

for (const c of cases) {
  test(`${c.op}(${JSON.stringify(c.shape)}) after manual_seed(${c.seed}) equals torch bit for bit`, () => {
    pt.manual_seed(c.seed);
    const t = pt[c.op](c.shape);
    const got = new Uint32Array(t.data().buffer);
    const want = golden(c.name);
    assert.equal(got.length, want.length);
    let mismatches = 0;
    for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) mismatches++;
    assert.equal(mismatches, 0, `${mismatches} of ${want.length} values differ`);
    t.delete();
  });
}

test('README example: randn([20000]) after manual_seed(0) starts as torch.randn(20000) does', () => {
  pt.manual_seed(0);
  const x = pt.randn([20000]).data();
  const want = new Float32Array(bytes('randn_seed0_n20000'));
  assert.deepEqual(Array.from(x.slice(0, 5)), Array.from(want.slice(0, 5)));
});
