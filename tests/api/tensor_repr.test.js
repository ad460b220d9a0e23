// tensor_repr.test.js — a Tensor prints as torch prints it: toString() against torch 1.13's repr() of the same
// values (tests/golden/gen_tensor_repr.py; torch/_tensor_str.py, the same code in torch 2.x for these dtypes).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();
const golden = JSON.parse(readFileSync(new URL('../golden/repr/tensor_repr.json', import.meta.url)));
const decode = (v) => ({ nan: NaN, inf: Infinity, '-inf': -Infinity })[v] ?? v;

for (const c of golden.cases) {
  test(`toString() prints as torch: ${c.name}`, () => {
    const x = pt.tensor(c.values.map(decode), c.shape, c.dtype);
    assert.equal(x.toString(), c.repr);
    assert.equal(`${x}`, c.repr);
    x.delete();
  });
}

test('console.log shows the same text; a freed Tensor says so instead of throwing', () => {
  const x = pt.tensor([1.5, -2], [2]);
  assert.equal(inspect(x), 'tensor([ 1.5000, -2.0000])');
  x.delete();
  assert.equal(inspect(x), 'Tensor(freed)');
  assert.throws(() => String(x), pt.RuntimeError);
});
