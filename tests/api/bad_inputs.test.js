// bad_inputs.test.js — docs/bad-inputs.md says what the engine answers to each bad input (tests/fuzz/bad_inputs.js);
// this runs every row again and compares, so the page never says what the engine no longer does. Every answer must
// be a typed error (one of pt.errors, or the learner's own error passed through) or a stated "no error", and the
// canary passes after each row (bad_inputs.js runs it).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../web/api/index.js';
import { CASES, badInputsTable, tryCase } from '../fuzz/bad_inputs.js';

const pt = await loadEngine();
const page = readFileSync(new URL('../../docs/bad-inputs.md', import.meta.url), 'utf8');

test('every bad input gets a typed error (or a stated no-error), and the engine keeps working', () => {
  const typed = /^(ValueError|TypeError|RuntimeError|NotImplementedError|IndexError|Error|no error): /;
  for (const [what, code] of CASES) assert.match(tryCase(pt, code), typed, what);
});

test('docs/bad-inputs.md holds the table the engine answers now (node tests/fuzz/bad_inputs.js prints it)', () => {
  const m = page.match(/<!-- bad-inputs -->\n([\s\S]*?)\n<!-- bad-inputs -->/);
  assert.ok(m, 'docs/bad-inputs.md has no table between two <!-- bad-inputs --> marks');
  assert.equal(m[1], badInputsTable(pt));
});
