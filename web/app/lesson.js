// lesson.js — a lesson page in the browser: prose (rendered ahead, cell_runner.js's loadLessonPage) with the lesson's cells in place.
// Each cell shows its code in an editor, runs through cell_runner.js (the same runCell the headless
// runner uses) and shows its outputs (text, HTML tables, Dear ImGui views), its checks (pass/fail)
// and any error, in place. Cells run once in order when the page opens; Run re-runs one cell with
// the page's shared `state`, Reset restores its code, Run all starts over with a fresh state.
// A learner's edited code never runs on the page's thread: the first Run of code that differs from the
// lesson's moves the page's state into a Worker with its own engine (cell_sandbox.js: the runs so far are
// replayed there, then the cell runs), and every later run of that state runs there too, under a time limit
// and with a Stop button. Run all with every cell as written comes back to the page's engine. The lesson's
// own code runs in the page, so opening a lesson costs no worker — unless lesson.json says "worker": true (a page
// that trains for seconds): then every run is in the worker, and the views a cell updates while it runs (a training
// chart, runCell's onView) are drawn as they grow, so the page stays responsive.
// A cell with a prediction (lesson.json "predict") shows its question above the results, which stay veiled until the
// learner answers; then the answer is marked against what the cell revealed, kept (progress.js, and the URL through
// onState) and counted in the lesson's progress.
// Used by index.html (through shell.js) and embed.html.
//
//   const page = await renderLesson(container, { id: 'M01', lang: 'en', engine, readText: siteReadText });
//   await page.done;  // the first run of all cells; page.runAll() runs them again (fresh state)
//   page.destroy();   // frees the page's views
// `engine` ({ pt, views }) may also be a promise of it: the prose and the cells' code show at once,
// the cells run when the engine is ready (their Run buttons wait for it). prefetchLesson(id, lang) starts
// fetching a lesson's page before it is rendered (the shell does so at start).
import { loadLessonPage, markPrediction, releaseState, runCell, tr } from './cell_runner.js';
import { readPredictions, recordPrediction, recordProgress } from './progress.js';
import { HELPER_FILE, lessonNotebook } from './notebook.js';
import { t } from './i18n.js';
import { viewFigure } from './views.js';
import { DEFAULT_TIME_LIMIT_MS, createSandbox, workersAvailable } from './cell_sandbox.js';

const siteRoot = new URL('../../', import.meta.url);

// Reads a file of this site (the lesson format's readText), relative to the site root. A text the
// page's inline script fetched ahead (globalThis.pt2ePrefetch, index.html) is used once.
export async function siteReadText(rel) {
  const early = globalThis.pt2ePrefetch?.get(rel);
  if (early) {
    globalThis.pt2ePrefetch.delete(rel);
    try { return await early; } catch { /* fetched again below, with the error of that fetch */ }
  }
  const res = await fetch(new URL(rel, siteRoot));
  if (!res.ok) throw new Error(`${rel}: HTTP ${res.status}`);
  return res.text();
}

// A lesson page fetched ahead (one use: renderLesson takes it, later visits fetch afresh).
const prefetched = new Map();
export function prefetchLesson(id, lang, readText = siteReadText) {
  const key = `${id} ${lang}`;
  if (!prefetched.has(key)) {
    const p = loadLessonPage(id, lang, readText);
    p.catch(() => {});
    prefetched.set(key, p);
  }
  return prefetched.get(key);
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

export function errorBox(text) {
  return el('div', { class: 'error-box', role: 'alert' }, text);
}

function formatValue(v) {
  if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(Number(v.toPrecision(6)));
  if (typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return '';
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return `[${Array.from(v, formatValue).join(', ')}]`;
  return String(v);
}

function tableOutput(o) {
  const table = el('table');
  if (o.caption) table.append(el('caption', {}, o.caption));
  table.append(el('thead', {}, el('tr', {}, ...o.headers.map((h) => el('th', { scope: 'col' }, formatValue(h))))));
  table.append(el('tbody', {}, ...o.rows.map((r) => el('tr', {}, ...r.map((v) => {
    const td = el('td', {}, formatValue(v));
    if (typeof v !== 'number' && typeof v !== 'bigint') td.className = 'text';
    return td;
  })))));
  return el('div', { class: 'table-wrap' }, table);
}

function errorText(err) {
  return `${err.name}: ${err.message}${err.line ? `  (line ${err.line})` : ''}`;
}

// One cell: editor, buttons, outputs, checks, error. `run()` re-runs it with the page's state.
function buildCell(cell, page) {
  const { lang } = page;
  const title = tr(cell.title, lang);
  const editor = el('textarea', { class: 'code', spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', 'aria-label': `${cell.id}: ${title}` });
  editor.value = cell.code;
  const fit = () => { editor.rows = Math.max(3, editor.value.split('\n').length); };
  fit();
  editor.addEventListener('input', fit);
  editor.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.shiftKey || e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
    else if (e.key === 'Tab' && !e.shiftKey) { e.preventDefault(); editor.setRangeText('  ', editor.selectionStart, editor.selectionEnd, 'end'); fit(); }
  });

  const status = el('span', { class: 'cell-status', role: 'status' });
  const runButton = el('button', { type: 'button', class: 'run' }, t(lang, 'run'));
  const stopButton = el('button', { type: 'button', class: 'stop', hidden: '' }, t(lang, 'stop'));
  const resetButton = el('button', { type: 'button', class: 'reset' }, t(lang, 'reset'));
  const results = el('div', { class: 'cell-results' });
  const torch = cell.torch
    ? el('details', { class: 'torch' }, el('summary', {}, t(lang, 'torch_code')), el('pre', {}, el('code', {}, cell.torch)))
    : null;
  const section = el('section', { class: `cell${cell.exercise ? ' exercise' : ''}`, id: `cell-${cell.id}`, 'data-cell': cell.id },
    el('div', { class: 'cell-head' },
      el('span', { class: 'cell-id' }, cell.id),
      el('span', { class: 'cell-title' }, title),
      cell.exercise ? el('span', { class: 'badge' }, t(lang, 'exercise')) : null,
      el('span', { class: 'spacer' }), status, stopButton, resetButton, runButton),
    editor, torch, results);

  const prediction = cell.predict ? buildPrediction(cell, page, results) : null;
  if (prediction) section.insertBefore(prediction.box, results);

  let views = [];
  const mark = () => page.setCell(cell.id);  // the learner is at this cell (the URL says so)
  editor.addEventListener('focus', mark);
  function clear() {
    for (const v of views) v.destroy();
    views = [];
    results.replaceChildren();
  }

  // A view output in the results: its figure, and the mounted view's handle (null when not drawn).
  function mountView(spec, key) {
    const { figure, canvas } = viewFigure(spec);
    results.append(figure);
    if (!section.isConnected) return null;  // a cell not shown (embed.html's cell=): runs, draws nothing
    try {
      const handle = page.engine.views.mount(canvas, spec, {
        onError: (e) => figure.replaceWith(errorBox(`${e.name}: ${e.message}`)),
        onControls: (c) => { mark(); if (key) page.setControls(key, c); },
      });
      views.push(handle);
      return handle;
    } catch (e) {
      figure.replaceWith(errorBox(`${e.name}: ${e.message}`));
      return null;
    }
  }

  // The views a cell running in the worker shows or updates before its results arrive (by output index).
  let live = new Map();
  function showLive(index, output) {
    const spec = { view: output.view, ...output.data };
    if (live.has(index)) {
      try { live.get(index)?.update(spec); } catch { /* bad data: the result's own view says so */ }
      return;
    }
    if (!live.size) clear();
    live.set(index, mountView(spec, null));
  }

  function show(result) {
    clear();
    live = new Map();
    let viewIndex = 0;
    for (const o of result.outputs) {
      if (o.kind === 'text') results.append(el('pre', { class: 'out-text' }, o.text));
      else if (o.kind === 'table') results.append(tableOutput(o));
      else if (o.kind === 'view') {
        const key = `${cell.id}.${viewIndex++}`;  // the view's name in the URL (url_state.js)
        const handle = mountView({ view: o.view, ...o.data }, key);
        // Controls the learner set before (a shared link, or this view before a re-run) come back;
        // ones that no longer fit the view's data are dropped.
        if (handle && page.controls[key]) {
          try { handle.setControls(page.controls[key]); } catch (e) { page.setControls(key, null); }
        }
      }
    }
    if (result.checks.length) {
      results.append(el('ul', { class: 'checks' }, ...result.checks.map((c) =>
        el('li', { class: c.ok ? 'pass' : 'fail' }, el('span', { class: 'mark', 'aria-label': t(lang, c.ok ? 'passed' : 'failed') }, c.ok ? '✓' : '✗'), ' ', el('span', { class: 'msg' }, c.message)))));
    }
    if (result.error) results.append(errorBox(errorText(result.error)));
    const failed = result.checks.filter((c) => !c.ok).length + (result.error ? 1 : 0);
    section.classList.toggle('failed', failed > 0);
    status.textContent = result.checks.length || result.error
      ? `${result.checks.length - result.checks.filter((c) => !c.ok).length}/${result.checks.length} ${t(lang, 'passed')}${result.error ? ` · ${result.error.name}` : ''}`
      : '';
  }

  async function run() {
    const engine = page.engine;
    if (!engine || page.destroyed) return null;
    const code = editor.value;
    const isolated = page.isolate(code !== cell.code);
    status.textContent = t(lang, 'running');
    runButton.disabled = true;
    stopButton.hidden = !isolated;
    await new Promise((r) => setTimeout(r, 0));  // let the page paint "running…" first
    if (page.destroyed) return null;
    try {
      const t0 = performance.now();
      const result = isolated
        ? await page.sandbox().run(cell.id, code, { replay: page.history.slice(), timeLimitMs: page.timeLimitMs, onView: showLive })
        : runCell(engine.pt, page.lesson, cell, { state: page.state, lang, code });
      const t1 = performance.now();
      if (page.destroyed) return null;
      // The runs that made the page's state, replayed in a fresh worker when one is needed; a stopped run left none.
      if (!['Stopped', 'TimeoutError'].includes(result.error?.name)) page.history.push({ cell: cell.id, code });
      show(result);
      // The learner's progress (progress.js): this cell's checks passed, an error counting as one failed.
      const passed = result.checks.filter((c) => c.ok).length;
      recordProgress(page.lesson.id, { [cell.id]: { passed, total: result.checks.length + (result.error ? 1 : 0) } });
      prediction?.ran(result);
      page.onProgress();
      performance.measure(`pt2e:cell ${cell.id} run`, { start: t0, end: t1 });
      performance.measure(`pt2e:cell ${cell.id} show`, { start: t1, end: performance.now() });
      return result;
    } finally {
      runButton.disabled = false;
      stopButton.hidden = true;
    }
  }

  runButton.addEventListener('click', () => { mark(); run(); });
  stopButton.addEventListener('click', () => page.stop());
  resetButton.addEventListener('click', () => { editor.value = cell.code; fit(); });
  runButton.disabled = !page.engine;
  return { cell, section, run, clear, setCode(code) { editor.value = code; fit(); }, enable() { runButton.disabled = false; },
    get edited() { return editor.value !== cell.code; }, get views() { return views; } };
}

// A cell's prediction: the question, a choice or a number input, and once answered the learner's answer marked against
// the value the cell revealed in its last run. The results below stay veiled (class "veiled") until then.
function buildPrediction(cell, page, results) {
  const { lang } = page;
  const p = cell.predict;
  const name = `predict-${cell.id}`;
  const inputs = p.choices
    ? el('div', { class: 'choices', role: 'radiogroup' }, ...p.choices.map((c) => el('label', {},
      el('input', { type: 'radio', name, value: c.value }), ' ', tr(c.label, lang))))
    : el('input', { type: 'number', step: 'any', name, 'aria-label': tr(p.question, lang) });
  const commit = el('button', { type: 'button', class: 'commit' }, t(lang, 'predict_commit'));
  const verdict = el('p', { class: 'verdict', role: 'status' });
  const box = el('div', { class: 'prediction', 'data-state': 'asked' },
    el('p', { class: 'question' }, el('strong', {}, `${t(lang, 'predict_heading')} `), tr(p.question, lang)), inputs, commit, verdict);
  let answer = page.predictions[cell.id] ?? null;
  let revealed;
  const value = () => (p.choices ? box.querySelector('input:checked')?.value ?? null : (inputs.value.trim() || null));
  function show() {
    const m = markPrediction(p, answer, revealed, lang);
    box.dataset.state = answer === null ? 'asked' : m ? (m.ok ? 'right' : 'off') : 'answered';
    results.classList.toggle('veiled', answer === null);
    if (answer !== null) {
      if (p.choices) for (const r of box.querySelectorAll('input')) r.checked = r.value === answer;
      else inputs.value = answer;
    }
    verdict.textContent = answer === null ? t(lang, 'predict_veiled')
      : m ? `${t(lang, 'predict_you')} ${m.answer}; ${t(lang, 'predict_actual')} ${m.actual}: ${t(lang, m.ok ? 'predict_right' : 'predict_off')}`
        : `${t(lang, 'predict_you')} ${answer}`;
    commit.textContent = t(lang, answer === null ? 'predict_commit' : 'predict_change');
    if (m) recordProgress(page.lesson.id, { [`${cell.id}#predict`]: { passed: m.ok ? 1 : 0, total: 1 } });
  }
  commit.addEventListener('click', () => {
    if (answer !== null && box.dataset.state !== 'asked') { answer = null; page.setPrediction(cell.id, null); show(); return; }  // change it
    const v = value();
    if (v === null) return;
    answer = v;
    recordPrediction(page.lesson.id, cell.id, v);
    page.setPrediction(cell.id, v);
    show();
    page.setCell(cell.id);
    page.onProgress();
  });
  show();
  return { box, ran(result) { revealed = result.revealed; show(); } };
}

// `at` is where a shared link points: { cell, controls, predictions } (url_state.js); `onState({ cell, controls })` is told
// when the learner moves to a cell or moves a view's control, so the page's URL can follow; `onProgress()`
// after each cell has run and its checks are recorded (progress.js). `only: 'B'` shows
// cell B alone (embed.html?lesson=…&cell=B): every cell still runs, in order, as B reads what they leave in `state`.
export async function renderLesson(container, { id, lang, engine, readText = siteReadText, at = {}, onState = () => {}, onProgress = () => {}, only = null }) {
  container.replaceChildren(el('p', { class: 'muted' }, t(lang, 'loading_lesson')));
  let lesson, parts;
  try {
    const early = prefetched.get(`${id} ${lang}`);
    prefetched.delete(`${id} ${lang}`);
    ({ lesson, parts } = await (early ?? loadLessonPage(id, lang, readText)));
  } catch (e) {
    container.replaceChildren(errorBox(`${t(lang, 'lesson_failed')} ${id}: ${e.message}`));
    return { destroy() {}, cells: [], done: Promise.resolve([]) };
  }
  performance.mark('pt2e:lesson in');
  const engineReady = Promise.resolve(engine).catch(() => null);
  const page = {
    lesson, lang, engine: engine && typeof engine.then !== 'function' ? engine : null, state: {}, destroyed: false,
    cell: at.cell ?? null,
    onProgress,
    controls: { ...(at.controls ?? {}) },
    // The learner's prediction answers: a shared link's, else the ones kept in this browser.
    predictions: { ...readPredictions(id), ...(at.predictions ?? {}) },
    setCell(cellId) {
      if (page.cell === cellId) return;
      page.cell = cellId;
      for (const c of cells) c.section.classList.toggle('current', c.cell.id === cellId);
      onState({ cell: page.cell, controls: page.controls, predictions: page.predictions });
    },
    setControls(key, c) {
      if (c) page.controls[key] = c;
      else delete page.controls[key];
      onState({ cell: page.cell, controls: page.controls, predictions: page.predictions });
    },
    setPrediction(cellId, answer) {
      if (answer === null) delete page.predictions[cellId];
      else page.predictions[cellId] = answer;
      onState({ cell: page.cell, controls: page.controls, predictions: page.predictions });
    },
    // Where the page's state lives: here, or in a worker (cell_sandbox.js) once edited code has run on it.
    isolated: false,
    history: [],              // the runs [{ cell, code }] that made the current state, in order
    timeLimitMs: DEFAULT_TIME_LIMIT_MS,
    box: null,
    sandbox() { return (page.box ??= createSandbox({ lesson, lang })); },
    isolate(edited) {
      if ((edited || lesson.worker) && workersAvailable()) page.isolated = true;
      return page.isolated;
    },
    stop() { page.box?.stop(); },
  };
  const cells = lesson.cells.map((c) => buildCell(c, page));
  const byId = new Map(cells.map((c) => [c.cell.id, c]));
  if (only && !byId.has(only)) {
    container.replaceChildren(errorBox(`${t(lang, 'lesson_failed')} ${id}: no cell '${only}' (cells: ${[...byId.keys()].join(', ')})`));
    return { destroy() {}, cells: [], done: Promise.resolve([]) };
  }
  const target = byId.get(page.cell) ?? null;
  target?.section.classList.add('current');

  const article = el('article', { class: 'lesson', lang });
  const placed = new Set();
  if (!only && !parts.some((p) => p.html && /^\s*<h1[ >]/.test(p.html))) article.append(el('h1', {}, tr(lesson.title, lang)));
  for (const p of only ? [{ cell: only }] : parts) {
    if (p.html !== undefined) {
      const div = el('div', { class: 'prose' });
      div.innerHTML = p.html;  // markdown.js's output: markdown-it with raw HTML off (escaped text) + KaTeX
      article.append(div);
    } else if (byId.has(p.cell) && !placed.has(p.cell)) {
      article.append(byId.get(p.cell).section);
      placed.add(p.cell);
    } else {
      article.append(errorBox(`prose.${lang}.md places cell '${p.cell}', which lesson.json does not list (or places twice)`));
    }
  }
  if (!only) for (const c of cells) if (!placed.has(c.cell.id)) article.append(c.section);

  async function runAll() {
    releaseState(page.state);
    page.state = {};
    page.history = [];
    page.box?.destroy();   // a fresh state: a fresh worker, when edited code needs one
    page.box = null;
    page.isolated = false;
    page.isolate(cells.some((c) => c.edited));
    const results = [];
    for (const c of cells) {
      results.push(await c.run());
      // A shared link's cell: shown once it has its outputs (cells above it no longer grow).
      if (c === target && !page.scrolled) {
        page.scrolled = true;
        c.section.scrollIntoView({ block: 'start' });
      }
    }
    return results;
  }
  // The page's PyTorch side as a Jupyter notebook: its prose in this language, its PyTorch cells, the course's helpers.
  async function downloadNotebook() {
    const [prose, helper] = await Promise.all([readText(`lessons/${id}/prose.${lang}.md`), readText(HELPER_FILE)]);
    const blob = new Blob([JSON.stringify(lessonNotebook(lesson, prose, helper, lang), null, 1)], { type: 'application/x-ipynb+json' });
    const a = el('a', { href: URL.createObjectURL(blob), download: `${id}.${lang}.ipynb` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }
  const toolbar = el('div', { class: 'lesson-toolbar' },
    el('button', { type: 'button', class: 'run-all', onclick: () => runAll() }, t(lang, 'run_all')),
    lesson.cells.some((c) => c.torch) ? el('button', { type: 'button', class: 'notebook', onclick: () => downloadNotebook().catch((e) => toolbar.append(errorBox(`${e.name}: ${e.message}`))) }, t(lang, 'download_notebook')) : null);
  const runAllButton = toolbar.querySelector('button');
  runAllButton.disabled = !page.engine;
  container.replaceChildren(toolbar, article);
  performance.mark('pt2e:prose shown');

  return {
    cells,
    runAll,
    done: engineReady.then((e) => {
      if (!e || page.destroyed) return [];
      page.engine = e;
      runAllButton.disabled = false;
      for (const c of cells) c.enable();
      return runAll();
    }),
    // The time an isolated cell may run (the e2e shortens it to see the limit at work).
    get timeLimitMs() { return page.timeLimitMs; },
    set timeLimitMs(ms) { page.timeLimitMs = ms; },
    get isolated() { return page.isolated; },
    destroy() {
      page.destroyed = true;
      page.box?.destroy();
      releaseState(page.state);
      for (const c of cells) c.clear();
    },
  };
}
