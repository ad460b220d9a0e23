// soak.js — memory over a long sitting: every written lesson run many times in one Node process (as the headless
// runner runs it: cell_runner.js's runLesson, exercise cells with their solutions), then an error path many
// times, with pt.memory_stats() (web/api/engine.js) read after every run past a warm-up. Growth after the warm-up
// fails (the floor of the last 20 runs' readings against the floor of the first 20 after it, see floor()): the
// engine's heap in use beyond the allocator's padding (HEAP_PADDING), any growth of the wasm memory, live engine
// objects or JS values the C++ side holds.
// No garbage collection is forced: what a run leaves must be freed by the run (pt.scope, runLesson's state).
//
//   node tests/fuzz/soak.js [--runs 200] [--errors 10000] [--warmup 10] [--lesson M01]
//   import { soak } from './soak.js'; const report = await soak(pt, { runs: 5, errors: 200 });
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadIndex, loadLesson, runLesson, writtenLessons } from '../../web/app/cell_runner.js';
import { canary } from './canary.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const readText = (rel) => readFile(path.join(root, rel), 'utf8');
const GROWTH_KEYS = ['heap_in_use_bytes', 'wasm_memory_bytes', 'live_objects', 'js_values_held'];

// The error paths a learner hits most, one of each per round: typed errors raised in JS, in C++, in a learner's
// quantizer callback, and by Embind's argument conversion behind the API's checks.
function errorRound(pt, i) {
  const paths = [
    () => pt.randn([2, -3]),
    () => pt.randn([2 ** 30]),
    () => pt.tensor([1, 2, 3], [2]),
    () => pt.get_model('no_such_model'),
    () => new pt.MinMaxObserver({ dtype: 'int8', quant_min: 5, quant_max: 1 }),
    () => new pt.HistogramObserver().forward(pt.tensor([1, 2], [2], 'int8')),
    () => new pt.MinMaxObserver().buffer(7),
    () => {
      const m = pt.get_model('conv_relu');
      const gm = pt.export(m, [pt.randn([1, ...m.input_shape])]);
      class Throws extends pt.Quantizer { annotate() { throw new Error(`round ${i}`); } }
      return pt.prepare_pt2e(gm, new Throws());
    },
    () => pt.convert_pt2e(pt.export(pt.get_model('conv_relu'), [pt.randn([1, 3, 8, 8])])).forward(pt.randn([1, 2])),
    () => pt.calculate_qmin_qmax(0, 300, 'int8'),
  ];
  let typed = 0;
  for (const p of paths) {
    try { pt.scope(p); } catch (e) {
      if (!Object.values(pt.errors).some((C) => e instanceof C)) throw new Error(`soak: untyped error on an error path: ${e?.name}: ${e?.message}`);
      typed++;
    }
  }
  return typed;
}

const growth = (a, b) => Object.fromEntries(GROWTH_KEYS.map((k) => [k, b[k] - a[k]]));
// The floor of a stretch of readings: each figure's smallest. The allocator pads a block by 8 or 16 bytes when the free
// space it carves it from is too small to split, so identical runs read a few bytes apart from run to run (M10-1's
// heap in use takes three values, 21 340 to 21 356 B, in the same order every time); a leak raises the floor, that
// padding does not. Growth is the floor of the last `window` runs against the floor of the first `window` after the
// warm-up.
const floor = (readings) => Object.fromEntries(GROWTH_KEYS.map((k) => [k, Math.min(...readings.map((r) => r[k]))]));
const WINDOW = 20;
// Heap in use may read a little higher at the end with nothing leaked: blocks aligned to 16 bytes (the int8 conv's
// scratch) are padded by 0–15 bytes depending on where they are carved, so since 2026-12-04 M10-1 reads 0–32 B above
// its lowest from run to run with no trend over 300 runs, and a 20-run floor need not meet the lowest. A leak of a
// single block a run adds at least 8 B for each of the runs between the two windows (150 at the default 200 runs).
const HEAP_PADDING = 64;
const grew = (g) => GROWTH_KEYS.some((k) => g[k] > (k === 'heap_in_use_bytes' ? HEAP_PADDING : 0));

export async function soak(pt, { runs = 200, errors = 10000, warmup = 10, lessons = null, log = () => {} } = {}) {
  const ids = lessons ?? writtenLessons(await loadIndex(readText));
  const report = { lessons: [], errors: null };
  for (const id of ids) {
    const lesson = await loadLesson(id, readText);
    const readings = [];  // memory_stats() after each run past the warm-up
    let failed = 0;
    const t0 = Date.now();
    for (let r = 0; r < runs; r++) {
      const results = runLesson(pt, lesson, { lang: 'en' });
      failed += results.filter((x) => x.error || x.checks.some((c) => !c.ok)).length;
      if (r >= Math.min(warmup, runs - 1)) readings.push(pt.memory_stats());
    }
    const window = Math.max(1, Math.min(WINDOW, Math.floor(readings.length / 2)));
    const after = floor(readings.slice(0, window)), end = floor(readings.slice(-window));
    const g = growth(after, end);
    report.lessons.push({ id, runs, seconds: (Date.now() - t0) / 1000, failedCells: failed, afterWarmup: after, end, growth: g, ok: !grew(g) && failed === 0 });
    log(`${id}: ${runs} runs in ${((Date.now() - t0) / 1000).toFixed(1)} s; floor after warm-up ${fmt(after)}; growth ${JSON.stringify(g)}${failed ? `; ${failed} failing cells` : ''}`);
  }
  if (errors > 0) {
    const rounds = Math.ceil(errors / 10);
    let typed = 0;
    const readings = [];
    const t0 = Date.now();
    for (let r = 0; r < rounds; r++) {
      typed += errorRound(pt, r);
      if (r === rounds - 1) canary(pt);  // the module still computes torch's numbers after them all
      if (r >= Math.min(warmup, rounds - 1)) readings.push(pt.memory_stats());
    }
    const window = Math.max(1, Math.min(WINDOW, Math.floor(readings.length / 2)));
    const after = floor(readings.slice(0, window)), end = floor(readings.slice(-window));
    const g = growth(after, end);
    report.errors = { calls: rounds * 10, typed, seconds: (Date.now() - t0) / 1000, afterWarmup: after, end, growth: g, ok: !grew(g) };
    log(`error paths: ${rounds * 10} calls (${typed} typed errors) in ${((Date.now() - t0) / 1000).toFixed(1)} s; floor after warm-up ${fmt(after)}; growth ${JSON.stringify(g)}`);
  }
  report.ok = report.lessons.every((l) => l.ok) && (report.errors?.ok ?? true);
  return report;
}

const fmt = (s) => `heap in use ${s.heap_in_use_bytes} B, wasm memory ${(s.wasm_memory_bytes / 2 ** 20).toFixed(0)} MiB, ${s.live_objects} live objects, ${s.js_values_held} JS values held`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : dflt; };
  const { loadEngine } = await import('../../web/api/index.js');
  const pt = await loadEngine();
  const lesson = arg('--lesson', null);
  const report = await soak(pt, { runs: Number(arg('--runs', 200)), errors: Number(arg('--errors', 10000)), warmup: Number(arg('--warmup', 10)),
    lessons: lesson ? [lesson] : null, log: console.log });
  console.log(report.ok ? 'soak: no growth after warm-up (heap in use within the allocator padding)' : 'soak: GROWTH or failing cells (see above)');
  process.exit(report.ok ? 0 : 1);
}
