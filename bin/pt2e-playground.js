#!/usr/bin/env node
// pt2e-playground — the headless lesson runner. It runs every lesson's cells in Node against the same
// wasm engine the page uses, prints one line per check and a final `N passed, N failed` line.
//
//   npx pt2e-playground test                       every lesson, both languages
//   npx pt2e-playground test --lesson M02-1 --lang en
//   npx pt2e-playground test --json                machine-readable results
//   npx pt2e-playground test --lesson M03-3 --solution my.js   grade an exercise: my.js replaces the exercise cell
//   npx pt2e-playground map                        the course map, page → cell → check, as Markdown (docs/lesson-map.md)
// A cell with a prediction (lesson.json "predict") adds one line: the value it reveals for the learner's answer.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../web/api/index.js';
import { lessonMap } from '../web/app/lesson_map.js';
import { LANGS, loadIndex, loadLesson, predictionProblem, runLesson, tr, writtenLessons } from '../web/app/cell_runner.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readText = (rel) => readFile(path.join(root, rel), 'utf8');

function usage(msg) {
  if (msg) console.error(`pt2e-playground: ${msg}`);
  console.error('usage: pt2e-playground test [--lesson ID] [--lang en|zh-TW] [--json] [--solution FILE]\n       pt2e-playground map');
  process.exit(2);
}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  if (command === 'map') {
    if (rest.length) usage(`map takes no options, got '${rest[0]}'`);
    return { lessons: null, langs: ['en'], json: false, solution: null, map: true };
  }
  if (command !== 'test') usage(command ? `unknown command '${command}'` : 'no command');
  const opts = { lessons: null, langs: LANGS, json: false, solution: null };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => rest[++i] ?? usage(`${a} needs a value`);
    if (a === '--lesson') opts.lessons = [...(opts.lessons ?? []), value()];
    else if (a === '--lang') {
      const l = value();
      if (!LANGS.includes(l)) usage(`--lang must be one of ${LANGS.join(', ')}`);
      opts.langs = [l];
    } else if (a === '--json') opts.json = true;
    else if (a === '--solution') opts.solution = value();
    else usage(`unknown option '${a}'`);
  }
  if (opts.solution && opts.lessons?.length !== 1) usage('--solution needs exactly one --lesson');
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const index = await loadIndex(readText);
const allIds = writtenLessons(index);
const ids = opts.lessons ?? allIds;
const planned = index.flatMap((ch) => ch.pages).filter((p) => p.planned).map((p) => p.id);
for (const id of ids) {
  if (planned.includes(id)) usage(`lesson '${id}' is planned but not written yet (written: ${allIds.join(', ')})`);
  if (!allIds.includes(id)) usage(`unknown lesson '${id}' (known: ${allIds.join(', ')})`);
}

let solutionCode = null;
if (opts.solution) solutionCode = await readFile(path.resolve(opts.solution), 'utf8');

const pt = await loadEngine();
const started = Date.now();
const results = [];
let passed = 0;
let failed = 0;
const loaded = {};
for (const id of ids) {
  const lesson = loaded[id] = await loadLesson(id, readText);
  if (solutionCode !== null && !lesson.cells.some((c) => c.exercise)) usage(`lesson ${id} has no exercise cell`);
  for (const lang of opts.langs) {
    const codeFor = (cell) => (cell.exercise && solutionCode !== null ? solutionCode : undefined);
    for (const r of runLesson(pt, lesson, { lang, codeFor })) {
      const lines = r.checks.map((c) => ({ ...c }));
      // A prediction (lesson.json "predict"): declared well, and the cell reveals the value it is marked against.
      const cell = lesson.cells.find((c) => c.id === r.cell);
      if (cell.predict || r.revealed !== undefined) {
        const problem = r.error ? null : predictionProblem(cell, r);
        if (!r.error) lines.push({ ok: !problem, message: `prediction "${tr(cell.predict?.question, lang)}": ${problem ?? `the cell reveals ${r.revealed}`}` });
      }
      if (r.error) lines.push({ ok: false, message: `cell raised ${r.error.name}: ${r.error.message}` });
      if (!lines.length) lines.push({ ok: false, message: 'cell made no check' });
      for (const c of lines) {
        c.ok ? passed++ : failed++;
        results.push({ lesson: id, lang, cell: r.cell, ok: c.ok, message: c.message });
        if (!opts.json && !opts.map) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${id} [${lang}] ${r.cell}: ${c.message}`);
      }
    }
  }
}
const seconds = (Date.now() - started) / 1000;
if (opts.map) {
  if (failed) console.error(`pt2e-playground map: ${failed} checks failed; the map lists them all the same`);
  process.stdout.write(lessonMap(index, loaded, results));
} else if (opts.json) {
  console.log(JSON.stringify({ passed, failed, seconds, results }, null, 2));
} else {
  console.log(`lessons: ${ids.length} pages x ${opts.langs.length} languages in ${seconds.toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
}
process.exit(failed ? 1 : 0);
