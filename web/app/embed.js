// embed.js — embed.html: one lesson page alone, or one cell of it, for an <iframe> in another page.
//   <iframe src="https://…/embed.html?lesson=M01&lang=zh-TW"></iframe>          the whole lesson
//   <iframe src="https://…/embed.html?lesson=M02-1&cell=B"></iframe>            cell B alone (all cells run)
// The URL takes the same state as index.html's (url_state.js: lang, cell, v.<cell>.<view>=… controls).
// It renders the lesson like index.html does (lesson.js) and speaks with its parent in two documented
// messages, and ignores every other:
//   to the parent:   { type: 'pt2e-embed-height', lesson, height }  whenever its content height changes
//   from the parent: { type: 'pt2e-embed-height-request' }          answered with the height message
// Origins: an embed may sit in a page of any site, so any parent may ask for the height (the answer goes
// to the asking origin only; the unasked height messages to any, as they say nothing but a number and the
// lesson id the parent's own URL chose). Nothing else is accepted from anyone: a message counts only when
// it comes from this frame's parent window and is exactly the height request (an object with that type and
// no other key); other windows, other frames and every other shape of data are ignored.
// Logs "pt2e: ready" once the cells have run.
import { loadEngine } from '../api/index.js';
import { LANGUAGES, t } from './i18n.js';
import { errorBox, prefetchLesson, renderLesson, siteReadText } from './lesson.js';
import { readUrlState, urlQuery } from './url_state.js';
import { createViewHost } from './views.js';

export async function startEmbed() {
  let state = readUrlState(location.search, LANGUAGES.map((l) => l.code));
  const { lang, lesson: id } = state;
  document.documentElement.lang = lang;
  const main = document.getElementById('main');

  let lastHeight = -1;
  const postHeight = (always = false, targetOrigin = '*') => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if ((height === lastHeight && !always) || window.parent === window) return;
    lastHeight = height;
    window.parent.postMessage({ type: 'pt2e-embed-height', lesson: id, height }, targetOrigin);
  };
  new ResizeObserver(() => postHeight()).observe(document.documentElement);
  window.addEventListener('message', (e) => {
    if (!isHeightRequest(e)) return;
    // A sandboxed parent's origin is 'null', which postMessage cannot target: it gets the unaddressed answer.
    postHeight(true, e.origin && e.origin !== 'null' ? e.origin : '*');
  });

  if (!id) {
    main.replaceChildren(errorBox(t(lang, 'embed_missing')));
    return;
  }
  // The engine and the lesson load in parallel; the prose shows first, the cells run when the engine is in.
  prefetchLesson(id, lang, siteReadText);  // readUrlState gave a well-formed id
  let engine = null;
  let engineError = null;
  const engineReady = loadEngine().then((pt) => { engine = { pt, views: createViewHost(pt.module) }; return engine; }, (e) => {
    engineError = e;
    console.error(`pt2e: engine failed to load: ${e.message}`);
    return null;
  });
  const page = await renderLesson(main, {
    id, lang, engine: engineReady, readText: siteReadText, only: state.cell,
    at: { cell: state.cell, controls: state.controls },
    onState: ({ cell, controls }) => {
      state = { ...state, cell: state.cell ?? cell, controls: { ...controls } };  // an embed keeps its one cell
      history.replaceState(null, '', `${location.pathname}${urlQuery(state)}`);
    },
  });
  await page.done;
  if (engineError) main.prepend(errorBox(`${t(lang, 'load_failed')}: ${engineError.message}`));
  window.pt2e = { pt: engine?.pt ?? null, views: engine?.views ?? null, lesson: page };
  postHeight();
  if (engine) console.log(`pt2e: ready — lesson ${id} (${lang}) embedded`);
}

// The one message an embed accepts (see the top of this file): from its parent window, of exactly this shape.
export function isHeightRequest(e) {
  if (window.parent === window || e.source !== window.parent) return false;
  const d = e.data;
  return d !== null && typeof d === 'object' && Object.getPrototypeOf(d) === Object.prototype
    && Object.keys(d).length === 1 && d.type === 'pt2e-embed-height-request';
}
