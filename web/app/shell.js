// shell.js — the page around the lessons: header with the language switch, the lesson navigator,
// URL state (?lesson=M02-1&lang=zh-TW&cell=B&v.B.0=range:…, url_state.js; Back/Forward work), and the
// main area (home or lesson).
// The navigator lists the course plan of lessons/index.json (M01–M10): written pages are links with
// the learner's progress (checks passed, kept in this browser: progress.js), planned ones
// (planned: true) are shown dimmed.
// It loads the engine once through the public API (web/api/index.js) and one view host over the
// same module. Errors are shown in place; the page stays usable.
// Start-up runs in parallel: the engine (its wasm already compiling, see index.html), the lesson
// index and the requested lesson's files are fetched at once; the page renders as soon as the index
// is in (a lesson's prose and code at once, its cells run when the engine is ready).
//
// When the first page has rendered (the home page's view drawn, or a lesson's cells run) it logs
// one line starting "pt2e: ready" (the e2e test waits for it) and sets `window.pt2e` for tests:
// { pt, views, demo, lesson } (demo: the home view's handle, lesson: the lesson page's handle).
import { loadEngine } from '../api/index.js';
import { loadIndex, tr } from './cell_runner.js';
import { LANGUAGES, t } from './i18n.js';
import { el, errorBox, prefetchLesson, renderLesson, siteReadText } from './lesson.js';
import { createViewHost, viewFigure } from './views.js';
import { histogramView } from './view_data.js';
import { readUrlState, urlQuery } from './url_state.js';
import { readProgress } from './progress.js';
import { registerOffline } from './offline.js';

const $ = (sel) => document.querySelector(sel);

// Chapters to list: index.json's chapters and pages, each page marked written or not.
function navChapters(index) {
  return index.map((ch) => ({ ...ch, pages: ch.pages.map((p) => ({ ...p, written: !p.planned })) }));
}

// The page's state is its URL (url_state.js): lesson, language, the learner's cell and their views' controls.
function readState() {
  return readUrlState(location.search, LANGUAGES.map((l) => l.code));
}

function writeState(state, push) {
  const url = `${location.pathname}${urlQuery(state)}`;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

// Waits until a view has drawn at least one frame (frames are drawn on animation frames).
async function firstFrame(handle) {
  for (let i = 0; i < 120 && handle.framesDrawn() === 0; i++) await new Promise(requestAnimationFrame);
  return handle.framesDrawn() > 0;
}

export async function startShell() {
  performance.mark('pt2e:shell start');
  let state = readState();
  if (state.lesson) prefetchLesson(state.lesson, state.lang, siteReadText);  // readUrlState gave a well-formed id
  let engine = null;        // { pt, views } once loaded
  let engineError = null;
  const engineReady = loadEngine().then((pt) => ({ pt, views: createViewHost(pt.module) }));
  const engineOrNull = engineReady.then((e) => { engine = e; renderHeader(); return e; }, (e) => {
    engineError = e;
    console.error(`pt2e: engine failed to load: ${e.message}`);
    renderHeader();
    return null;
  });
  const indexReady = loadIndex(siteReadText);
  let chapters = [];
  let indexError = null;
  let current = null;       // what the main area shows: { destroy(), ... }
  let renderCount = 0;

  const findInNav = (id) => chapters.flatMap((c) => c.pages).find((p) => p.id === id) ?? null;

  function renderHeader() {
    document.documentElement.lang = state.lang;
    document.title = t(state.lang, 'title');
    $('#site-title').textContent = t(state.lang, 'title');
    const select = $('#lang');
    select.setAttribute('aria-label', t(state.lang, 'language'));
    select.replaceChildren(...LANGUAGES.map((l) => el('option', { value: l.code }, l.label)));
    select.value = state.lang;
    const status = $('#status');
    status.classList.toggle('error', !!engineError);
    status.textContent = engineError ? `${t(state.lang, 'load_failed')}: ${engineError.message}`
      : engine ? t(state.lang, 'ready') : t(state.lang, 'loading');
  }

  function progressBadge({ passed, total }) {
    return el('span', { class: `progress${passed === total ? ' done' : ''}`, title: t(state.lang, 'progress') }, `${passed}/${total}`);
  }

  // After a cell of lesson `id` has run: its navigator entry's badge only (the rest of the page stays as it is).
  function updateProgress(id) {
    const a = document.querySelector(`#nav a[data-lesson="${id}"]`);
    const now = readProgress()[id];
    if (!a || !now) return;
    a.querySelector('.progress')?.remove();
    a.append(progressBadge(now));
  }

  function renderNav() {
    const nav = $('#nav');
    const progress = readProgress();
    nav.replaceChildren();
    if (indexError) nav.append(errorBox(`${t(state.lang, 'index_failed')}: ${indexError.message}`));
    for (const chapter of chapters) {
      nav.append(el('h2', {}, el('span', { class: 'id' }, chapter.id), ` ${tr(chapter.title, state.lang)}`));
      for (const p of chapter.pages) {
        const label = [el('span', { class: 'id' }, p.id), tr(p.title, state.lang)];
        if (p.written && progress[p.id]) label.push(progressBadge(progress[p.id]));
        if (!p.written) {
          nav.append(el('span', { class: 'unwritten', title: t(state.lang, 'not_written') }, ...label));
          continue;
        }
        const a = el('a', { href: `?lesson=${p.id}${state.lang !== 'en' ? `&lang=${state.lang}` : ''}`, 'data-lesson': p.id }, ...label);
        if (p.id === state.lesson) a.setAttribute('aria-current', 'page');
        a.addEventListener('click', (e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
          e.preventDefault();
          navigate({ lang: state.lang, lesson: p.id, cell: null, controls: {}, predictions: {} });
        });
        nav.append(a);
      }
    }
  }

  async function renderHome(main) {
    main.append(el('h1', {}, t(state.lang, 'title')), el('p', {}, t(state.lang, 'home_intro')), el('p', {}, t(state.lang, 'home_pick')));
    const card = el('section', { class: 'card' }, el('h3', {}, t(state.lang, 'demo_title')));
    main.append(card);
    const page = { demo: null, destroyed: false, destroy() { this.destroyed = true; this.demo?.destroy(); } };
    await engineOrNull;
    if (engineError) { card.append(errorBox(`${engineError.name}: ${engineError.message}`)); return page; }
    if (!engine || page.destroyed) return page;
    const { pt } = engine;
    try {
      const spec = pt.scope(() => {
        pt.manual_seed(0);
        const x = pt.randn([20000]);
        return histogramView(x.data(), { bins: 80, title: 'randn(20000)' });
      });
      const { figure, canvas } = viewFigure(spec);
      card.append(figure, el('p', {}, el('small', {}, t(state.lang, 'demo_caption'))));
      page.demo = engine.views.mount(canvas, spec);
      await firstFrame(page.demo);
    } catch (e) {
      card.append(errorBox(`${e.name}: ${e.message}`));
    }
    return page;
  }

  async function renderPage(main) {
    const p = findInNav(state.lesson);
    if (!p) {
      main.append(errorBox(`?lesson=${state.lesson}: no such lesson`));
      return { destroy() {} };
    }
    if (!p.written) {
      main.append(el('h1', {}, `${p.id} · ${tr(p.title, state.lang)}`), el('p', { class: 'muted' }, t(state.lang, 'not_written')));
      return { destroy() {} };
    }
    const lesson = await renderLesson(main, {
      id: p.id, lang: state.lang, engine: engine ?? engineOrNull, readText: siteReadText,
      at: { cell: state.cell, controls: state.controls, predictions: state.predictions },
      onProgress: () => updateProgress(p.id),
      onState: ({ cell, controls, predictions }) => {
        if (state.lesson !== p.id) return;  // a page the learner has left
        state = { ...state, cell, controls: { ...controls }, predictions: { ...predictions } };
        writeState(state, false);
      },
    });
    await lesson.done;
    return lesson;
  }

  // Renders header, navigator and main area for the current state; resolves when the page has
  // drawn (views) and run (cells). A newer render makes an older one's result moot.
  async function render() {
    const mine = ++renderCount;
    renderHeader();
    renderNav();
    current?.destroy();
    current = null;
    const main = el('div', { class: 'page' });
    $('#main').replaceChildren(main);
    const page = state.lesson ? await renderPage(main) : await renderHome(main);
    if (mine !== renderCount) { page.destroy(); return null; }
    current = page;
    return page;
  }

  function navigate(next, push = true) {
    state = next;
    writeState(state, push);
    $('#main').scrollTop = 0;
    return render();
  }

  $('#lang').addEventListener('change', (e) => navigate({ ...state, lang: e.target.value }));
  window.addEventListener('popstate', () => { state = readState(); render(); });

  renderHeader();
  renderNav();
  try {
    chapters = navChapters(await indexReady);
    performance.mark('pt2e:index in');
  } catch (e) {
    indexError = e;
  }
  const page = await render();
  registerOffline();   // sw.js: the course keeps working offline after this first visit
  await engineOrNull;
  window.pt2e = {
    pt: engine?.pt ?? null,
    views: engine?.views ?? null,
    get demo() { return current?.demo ?? null; },
    get lesson() { return current?.cells ? current : null; },
    navigate: (lesson, lang = state.lang) => navigate({ lesson, lang, cell: null, controls: {}, predictions: {} }),
  };
  if (engine) {
    const drawn = page?.demo ? page.demo.framesDrawn() > 0 : false;
    console.log(`pt2e: ready — engine loaded (wasm SIMD128)${drawn ? ', 1 view drawn with WebGL2' : ''}`);
  }
}
