// readme.test.js — runs the README's Node example as written and checks that it prints torch's values
// (tests/golden/random/randn_seed0_n20000.bin, made with torch 1.13 by tests/golden/gen_random.py).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the README example prints the first values of torch.randn(20000) after manual_seed(0)', () => {
  const readme = readFileSync(new URL('README.md', `file://${root}`), 'utf8');
  const block = readme.match(/```js readme-example\n([\s\S]*?)```/);
  assert.ok(block, 'README has a ```js readme-example block');
  assert.ok(block[1].trim().split('\n').length <= 5, 'the example is five lines');
  const file = `${root}readme-example.tmp.mjs`;  // inside the package, so 'pt2e-playground' resolves to it
  writeFileSync(file, block[1]);
  let out;
  try {
    out = execFileSync(process.execPath, [file], { encoding: 'utf8' });
  } finally {
    rmSync(file, { force: true });
  }
  const printed = JSON.parse(out.replace(/\s+/g, ''));
  const b = readFileSync(`${root}tests/golden/random/randn_seed0_n20000.bin`);
  const torch = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
  assert.deepEqual(printed, Array.from(torch.slice(0, 5)));
});
