// cell_limits.test.js — what one run of a cell may cost (web/app/cell_runner.js): a cell printing in a loop ends with
// an OutputLimitError after OUTPUT_LIMIT rows (what it showed up to there kept), a huge text too; the engine objects a
// lesson's state holds are freed when runLesson ends (releaseState), not left to the garbage collector.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';
import { OUTPUT_LIMIT, releaseState, runCell, runLesson } from '../../web/app/cell_runner.js';

const pt = await loadEngine();
const lesson = { id: 'T', cells: [{ id: 'A', code: '' }], strings: {} };
const run = (code, state = {}) => runCell(pt, lesson, lesson.cells[0], { state, code });

test('a million printed rows end with an OutputLimitError; the first rows are kept', () => {
  const r = run('for (let i = 0; i < 1e6; i++) show.text(`row ${i}`);');
  assert.equal(r.error?.name, 'OutputLimitError');
  assert.match(r.error.message, /more than 10000 rows/);
  assert.equal(r.outputs.length, OUTPUT_LIMIT.rows);
  const t = run('show.table(["i"], Array.from({ length: 20001 }, (_, i) => [i]));');
  assert.equal(t.error?.name, 'OutputLimitError');
  const big = run('show.text("x".repeat(2e6));');
  assert.equal(big.error?.name, 'OutputLimitError');
  assert.equal(run('for (let i = 0; i < 100; i++) show.text(i);').error, null);
});

test('runLesson frees the engine objects its state held; releaseState frees nested ones and tolerates hostile objects', () => {
  const before = pt.memory_stats().live_objects;
  const l = { id: 'T', strings: {}, cells: [{ id: 'A', code: 'state.x = pt.randn([4]); state.list = [pt.rand([2]), { t: pt.randn([1]) }]; state.m = new Map([["k", pt.randn([3])]]);' }] };
  const [r] = runLesson(pt, l);
  assert.equal(r.error, null);
  assert.equal(pt.memory_stats().live_objects, before);
  const state = {};
  run('state.a = pt.randn([2]); state.p = new Proxy({}, { ownKeys() { throw new Error("no"); } });', state);
  assert.equal(pt.memory_stats().live_objects, before + 1);
  releaseState(state);
  assert.equal(pt.memory_stats().live_objects, before);
});
