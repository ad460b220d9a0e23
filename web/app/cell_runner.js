// cell_runner.js — loads lesson data and runs a lesson's cells; no DOM, so the browser page and the
// headless runner (bin/pt2e-playground.js) share it. The lesson format is described in lessons/README.md.
//
//   const lesson = await loadLesson('M02-1', readText);      // readText(relPath) -> string (fetch or fs)
//   const { lesson, parts } = await loadLessonPage('M02-1', 'en', readText);   // + the prose: [{ html } | { cell }]
//   const state = {};
//   const result = runCell(pt, lesson, lesson.cells[0], { state, lang: 'en' });
//   result.outputs  // [{kind:'table', headers, rows} | {kind:'text', text} | {kind:'view', view, data}]
//   result.checks   // [{ok, message}]
//   result.error    // {name, message, line} when the cell threw (line in the cell's file, when
//                   // known); the page shows it in place
//   result.revealed // what the cell computed for its prediction (reveal(value)), or undefined
// show.view(kind, data) returns { update(data) }: a view whose data changes while the cell runs (a training
// chart that grows). The output keeps the latest data; runCell's `onView(index, output)` (index into
// result.outputs) is told when the view is shown and at each update, so a page can draw it before the cell ends
// (cell_worker.js posts it from the worker the cell runs in).
// A cell may declare a prediction in lesson.json — "predict": { "question": {en, 'zh-TW'}, then either
// "choices": [{ "value": "a", "label": {en, 'zh-TW'} }, ...] or "number": { "tolerance": 0.5 } (absolute) /
// { "relative": 0.1 } } — and reveals the computed answer with reveal(value) (a choice's value, or a number).
// The page asks the learner before showing the cell's results; markPrediction(predict, answer, revealed) marks it.
// An exercise cell (`exercise: true`) carries `code` (the learner's starting code) and `solution`
// (cells/<id>.solution.js): runLesson runs the solution unless `codeFor` gives other code.
// A lesson's own words live in lessons/<id>/strings.json ({ key: { en, 'zh-TW' } }); a cell shows them with
// t('key', { name: value }) ({name} in the string is replaced). A lesson with "kit": true in lesson.json has
// lessons/<id>/kit.js: its shared plumbing (helpers, graders), a function body that returns an object; it runs
// once per page state and reaches the cells as `kit`. It makes no engine objects of its own (they would be freed).
import { histogramView } from './view_data.js';
import { courseKit } from './course_kit.js';

export const LANGS = ['en', 'zh-TW'];
// A lesson id: M<chapter, 2 digits>[-<page>] (M01, M02-1); anything else names no lesson.
export const LESSON_ID = /^M\d{2}(-\d+)?$/;

// lessons/index.json: the course plan; pages marked planned: true are not written yet.
export async function loadIndex(readText) {
  return JSON.parse(await readText('lessons/index.json'));
}

// The ids of the written pages of an index, in course order.
export function writtenLessons(index) {
  return index.flatMap((ch) => ch.pages).filter((p) => !p.planned).map((p) => p.id);
}

export async function loadLesson(id, readText) {
  if (!LESSON_ID.test(id)) throw new Error(`unknown lesson id '${id}'`);
  // lesson.json first (it names the cells), then every other file at once.
  const meta = JSON.parse(await readText(`lessons/${id}/lesson.json`));
  const [strings, kit] = await Promise.all([
    readText(`lessons/${id}/strings.json`).then(JSON.parse, () => ({})),
    meta.kit ? readText(`lessons/${id}/kit.js`) : null,
  ]);
  const cells = await Promise.all(meta.cells.map(async (c) => {
    const [code, torch, solution] = await Promise.all([
      readText(`lessons/${id}/cells/${c.id}.js`),
      c.torch ? readText(`lessons/${id}/cells/${c.id}.py`) : null,
      c.exercise ? readText(`lessons/${id}/cells/${c.id}.solution.js`) : null,
    ]);
    return { ...c, code, torch, solution };
  }));
  return { ...meta, strings, kit, cells };
}

// A lesson as its page shows it in one language: the lesson (as loadLesson gives it) and its prose as HTML
// parts with the cells' places, [{ html } | { cell: 'A' }]. scripts/bundle.js writes both ahead into one file,
// web/bundle/lessons/<id>/page.<lang>.json (one request instead of one per file); when that is missing (no
// build), the lesson's own files are read and its Markdown is rendered here by markdown.js, imported only then.
export async function loadLessonPage(id, lang, readText) {
  if (!LESSON_ID.test(id)) throw new Error(`unknown lesson id '${id}'`);
  if (!LANGS.includes(lang)) throw new Error(`unknown language '${lang}'`);
  let page = null;
  try {
    page = JSON.parse(await readText(lessonPagePath(id, lang)));
  } catch { /* not built: read and render the sources below */ }
  if (page) return page;
  const [lesson, source, { proseParts }] = await Promise.all([
    loadLesson(id, readText),
    readText(`lessons/${id}/prose.${lang}.md`),
    import(new URL('./markdown.js', import.meta.url).href),  // a URL, so the bundler leaves it out
  ]);
  return { lesson, parts: proseParts(source) };
}

// Where scripts/bundle.js writes a lesson's page (relative to the site root).
export function lessonPagePath(id, lang) {
  return `web/bundle/lessons/${id}/page.${lang}.json`;
}

// Picks the string for `lang` from a {en, 'zh-TW'} pair (or returns a plain string as is).
export function tr(text, lang) {
  if (text === null || text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[lang] ?? text.en ?? '';
}

// A lesson string in one language, with {name} replaced by vars.name. An unknown key is an error that names it.
export function lessonString(lesson, key, vars = {}, lang = 'en') {
  const entry = lesson.strings?.[key];
  if (entry === undefined) throw new Error(`lessons/${lesson.id}/strings.json has no key '${key}'`);
  return tr(entry, lang).replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

// The lesson's kit (lessons/<id>/kit.js) for one page state: built on first use, then kept with the state.
const kits = new WeakMap();
function lessonKit(pt, lesson, state, lang) {
  if (!lesson.kit) return {};
  let kit = kits.get(state);
  if (!kit) {
    const t = (key, vars) => lessonString(lesson, key, vars, lang);
    kit = new Function('pt', 'lang', 't', `"use strict";\n${lesson.kit}`)(pt, lang, t) ?? {};
    kits.set(state, kit);
  }
  return kit;
}

// The cell's line of an error thrown while it ran: V8 names the Function-built code <anonymous>, and
// its line 1 is the cell's line CODE_LINE_OFFSET (the parameter list and "use strict" come first).
const CODE_LINE_OFFSET = 3;
function cellLine(error) {
  for (const frame of String(error?.stack ?? '').split('\n')) {
    const m = frame.includes('eval at') && frame.match(/<anonymous>:(\d+):\d+\)?\s*$/);
    if (m) return Number(m[1]) - CODE_LINE_OFFSET;
  }
  return null;
}

// A view output is plain data. A histogram may be given raw `values` instead of `counts`: they are
// binned here (view_data.js, as torch.histc) so the output holds only what the view draws — except
// for a draggable range (range.draggable: true), whose readout quantizes the raw values as the
// learner drags: those keep `values` (a plain array), `quant` and the range as given, beside `counts`.
function viewData(view, data) {
  if (view === 'histogram' && data && data.values !== undefined && data.counts === undefined) {
    const { values, quant, ...opts } = data;
    const { view: _, ...spec } = histogramView(values, opts);
    if (data.range?.draggable === true) return { ...spec, range: { ...spec.range, ...data.range }, values: Array.from(values), quant };
    return spec;
  }
  return data;
}

// What one run of a cell may show: text lines and table rows together, and characters of text. Past it,
// show.* throws OutputLimitError, so a cell printing in a loop ends with a clear error instead of a page
// the browser cannot lay out (a million rows).
export const OUTPUT_LIMIT = { rows: 10000, chars: 1000000 };
export class OutputLimitError extends Error {
  constructor() {
    super(`the cell showed more than ${OUTPUT_LIMIT.rows} rows or ${OUTPUT_LIMIT.chars} characters of output; what it showed up to there is kept`);
    this.name = 'OutputLimitError';
  }
}

// Runs one cell's code synchronously inside pt.scope: engine objects the cell creates are freed
// when it ends, except those it stores in `state` (shared by the lesson's cells, in order).
export function runCell(pt, lesson, cell, { state, lang = 'en', code = cell.code, onView = () => {} } = {}) {
  const outputs = [];
  const checks = [];
  let rows = 0, chars = 0;
  const emit = (output, n, c = 0) => {
    if ((rows += n) > OUTPUT_LIMIT.rows || (chars += c) > OUTPUT_LIMIT.chars) throw new OutputLimitError();
    outputs.push(output);
  };
  const show = {
    text: (text) => {
      const s = tr(text, lang);
      emit({ kind: 'text', text: s }, 1 + (String(s).match(/\n/g)?.length ?? 0), String(s).length);
    },
    table: (headers, rows, caption) => emit({
      kind: 'table',
      headers: headers.map((h) => tr(h, lang)),
      rows: rows.map((r) => r.map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? tr(v, lang) : v))),
      caption: tr(caption, lang),
    }, rows.length),
    view: (view, data) => {
      const output = { kind: 'view', view, data: viewData(view, data) };
      emit(output, 1);
      const index = outputs.length - 1;
      onView(index, output);
      return { update(next) { output.data = viewData(view, next); onView(index, output); } };
    },
  };
  let revealed;
  const reveal = (value) => { revealed = value; return value; };
  const check = (cond, message) => {
    checks.push({ ok: !!cond, message: tr(message, lang) });
    return !!cond;
  };
  const t = (key, vars) => lessonString(lesson, key, vars, lang);
  const ctx = { state, lang, show, check, t, tr: (text) => tr(text, lang) };
  let error = null;
  try {
    const kit = { ...courseKit(pt, show), ...lessonKit(pt, lesson, state, lang) };
    const fn = new Function('pt', 'ctx', 'state', 'show', 'check', 'kit', 't', 'reveal', `"use strict";\n${code}`);
    // Returning `state` keeps the engine objects stored on it, also when the cell throws midway.
    let threw = false, thrown;
    pt.scope(() => {
      try {
        fn(pt, ctx, state, show, check, kit, t, reveal);
      } catch (e) {
        threw = true;
        thrown = e;
      }
      return state;
    });
    if (threw) throw thrown;
  } catch (e) {
    error = { name: e?.name ?? 'Error', message: e?.message ?? String(e), line: cellLine(e) };
  }
  return { cell: cell.id, outputs, checks, error, revealed };
}

// A prediction's answer as the page keeps it (a string: the choice's value, or the number as typed), marked against
// what the cell revealed: { ok, answer, actual } with both as text in the page's language, or null when the cell
// revealed nothing (it raised first) or the answer does not parse.
export function markPrediction(predict, answer, revealed, lang = 'en') {
  if (!predict || answer === null || answer === undefined || revealed === undefined) return null;
  if (predict.choices) {
    const label = (v) => tr(predict.choices.find((c) => c.value === String(v))?.label ?? String(v), lang);
    return { ok: String(answer) === String(revealed), answer: label(answer), actual: label(revealed) };
  }
  const a = Number(answer), r = Number(revealed);
  if (String(answer).trim() === '' || !Number.isFinite(a) || !Number.isFinite(r)) return null;
  const { tolerance = 0, relative = 0 } = predict.number ?? {};
  return { ok: Math.abs(a - r) <= Math.max(tolerance, relative * Math.abs(r)), answer: String(a), actual: String(Number(r.toPrecision(6))) };
}

// What is wrong with a cell's prediction as declared and revealed (the headless runner reports it), or null.
export function predictionProblem(cell, result) {
  const p = cell.predict;
  if (!p) return result.revealed === undefined ? null : 'the cell calls reveal() but lesson.json declares no prediction';
  if (!p.question?.en || !p.question?.['zh-TW']) return 'its question needs en and zh-TW text';
  if (!!p.choices === !!p.number) return 'it needs either choices or number';
  if (result.revealed === undefined) return 'the cell revealed nothing (call reveal(value))';
  if (p.choices && !p.choices.some((c) => c.value === String(result.revealed))) return `it revealed '${result.revealed}', not one of the choices`;
  if (p.number && !Number.isFinite(Number(result.revealed))) return `it revealed ${result.revealed}, not a number`;
  return null;
}

// Runs every cell of a lesson in order with one fresh state, freed at the end.
export function runLesson(pt, lesson, { lang = 'en', codeFor = () => undefined } = {}) {
  const state = {};
  try {
    return lesson.cells.map((cell) => runCell(pt, lesson, cell, { state, lang, code: codeFor(cell) ?? cell.solution ?? cell.code }));
  } finally {
    releaseState(state);
  }
}

// Frees the engine objects a lesson's state holds — its values and what they hold (arrays, Maps, objects,
// a few levels down) — once the state is done with: the end of runLesson, a page's Run all starting over.
// Without it they would wait for the garbage collector (web/api/engine.js's safety net).
export function releaseState(state) {
  const seen = new Set();
  const free = (v, depth) => {
    if (!v || typeof v !== 'object' || seen.has(v) || depth > 4 || ArrayBuffer.isView(v)) return;
    seen.add(v);
    try {
      if (typeof v.delete === 'function' && typeof v.isDeleted === 'function') {
        if (!v.isDeleted()) v.delete();
        return;
      }
      for (const x of v instanceof Map ? v.values() : Object.values(v)) free(x, depth + 1);
    } catch { /* a learner's object that will not be walked (a throwing getter): the GC frees what it holds */ }
  };
  free(state, 0);
}
