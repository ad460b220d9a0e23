// shell.js — the page around the lessons: header with the language switch, the lesson navigator
// (chapters M01–M10 from catalogue.js), URL state (?lesson=M02-1&lang=zh-TW), and the main area.
// It loads the engine once through the public API (web/api/index.js) and the view host once over
// the same module, then renders the home page or a lesson page. Errors are shown in place.
//
// When the home page's view has drawn its first frame it logs one line starting
// "pt2e: ready" (the e2e test waits for it) and exposes `window.pt2e = { pt, views }` for tests.
import { loadEngine } from '../api/index.js';
import { CHAPTERS, LANGUAGES, findPage } from './catalogue.js';
import { t } from './i18n.js';
import { createViewHost } from './views.js';
import { histogramView } from './view_data.js';

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function readState() {
  const q = new URLSearchParams(location.search);
  const lang = LANGUAGES.some((l) => l.code === q.get('lang')) ? q.get('lang') : 'en';
  const lesson = findPage(q.get('lesson') ?? '') ? q.get('lesson') : null;
  return { lang, lesson };
}

function writeState(state, push = true) {
  const q = new URLSearchParams();
  if (state.lesson) q.set('lesson', state.lesson);
  if (state.lang !== 'en') q.set('lang', state.lang);
  const url = `${location.pathname}${q.toString() ? '?' + q : ''}`;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

function errorBox(message) {
  return el('div', { class: 'error-box', role: 'alert' }, message);
}

// Waits until a view has drawn at least one frame (frames are drawn on animation frames).
async function firstFrame(handle) {
  for (let i = 0; i < 120 && handle.framesDrawn() === 0; i++) await new Promise(requestAnimationFrame);
  return handle.framesDrawn() > 0;
}

export async function startShell() {
  let state = readState();
  let engine = null;       // { pt, views } once loaded
  let engineError = null;
  let mounted = [];        // view handles on the current page, destroyed on navigation

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

  function renderNav() {
    const nav = $('#nav');
    nav.replaceChildren();
    for (const chapter of CHAPTERS) {
      nav.append(el('h2', {}, `${t(state.lang, 'chapter')} ${chapter.id}`));
      for (const p of chapter.pages) {
        const a = el('a', { href: `?lesson=${p.id}${state.lang !== 'en' ? `&lang=${state.lang}` : ''}`, 'data-lesson': p.id },
          el('span', { class: 'id' }, p.id), p.title[state.lang]);
        if (p.id === state.lesson) a.setAttribute('aria-current', 'page');
        a.addEventListener('click', (e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
          e.preventDefault();
          navigate({ ...state, lesson: p.id });
        });
        nav.append(a);
      }
    }
  }

  function clearMain() {
    for (const h of mounted) h.destroy();
    mounted = [];
    $('#main').replaceChildren();
  }

  function mountView(parent, spec) {
    const canvas = el('canvas', { class: 'view' });
    parent.append(canvas);
    try {
      const h = engine.views.mount(canvas, spec);
      mounted.push(h);
      return h;
    } catch (e) {
      canvas.replaceWith(errorBox(`${e.name}: ${e.message}`));
      return null;
    }
  }

  async function renderHome() {
    const main = $('#main');
    main.append(el('h1', {}, t(state.lang, 'title')), el('p', {}, t(state.lang, 'home_intro')), el('p', {}, t(state.lang, 'home_pick')));
    const card = el('section', { class: 'card' }, el('h3', {}, t(state.lang, 'demo_title')));
    main.append(card);
    if (engineError) { card.append(errorBox(`${engineError.name}: ${engineError.message}`)); return null; }
    if (!engine) return null;
    const { pt } = engine;
    let spec;
    try {
      spec = pt.scope(() => {
        pt.manual_seed(0);
        const x = pt.randn([20000]);
        let range;
        if (pt.MinMaxObserver) {
          const o = new pt.MinMaxObserver({ dtype: 'int8', qscheme: 'per_tensor_affine' });
          o.forward(x);
          range = { min: o.min_val, max: o.max_val, label: 'MinMaxObserver' };
        }
        return histogramView(x.data(), { bins: 80, title: 'randn(20000)', range });
      });
    } catch (e) {
      card.append(errorBox(`${e.name}: ${e.message}`));
      return null;
    }
    const h = mountView(card, spec);
    card.append(el('p', {}, el('small', {}, t(state.lang, 'demo_caption'))));
    return h;
  }

  function renderLesson() {
    const page = findPage(state.lesson);
    $('#main').append(el('h1', {}, `${page.id} · ${page.title[state.lang]}`), el('p', {}, t(state.lang, 'not_written')));
  }

  async function render() {
    renderHeader();
    renderNav();
    clearMain();
    return state.lesson ? renderLesson() : renderHome();
  }

  function navigate(next, push = true) {
    state = next;
    writeState(state, push);
    render();
    $('#main').scrollTop = 0;
  }

  $('#lang').addEventListener('change', (e) => navigate({ ...state, lang: e.target.value }));
  window.addEventListener('popstate', () => { state = readState(); render(); });

  await render();
  try {
    const pt = await loadEngine();
    engine = { pt, views: createViewHost(pt.module) };
  } catch (e) {
    engineError = e;
    console.error(`pt2e: engine failed to load: ${e.message}`);
  }
  const demo = await render();
  window.pt2e = { pt: engine?.pt ?? null, views: engine?.views ?? null, demo };
  if (engine) {
    const drawn = demo ? await firstFrame(demo) : false;
    console.log(`pt2e: ready — engine loaded (wasm SIMD128)${drawn ? ', 1 view drawn with WebGL2' : ''}`);
  }
}
