// embed.js — embed.html: one lesson page alone, for an <iframe> in another page.
//   <iframe src="https://…/embed.html?lesson=M01&lang=zh-TW"></iframe>
// It renders the lesson like index.html does (lesson.js) and tells the parent its content height
// whenever it changes: parent.postMessage({ type: 'pt2e-embed-height', lesson, height }, '*'),
// so the parent can size the iframe. Logs "pt2e: ready" once the cells have run.
import { loadEngine } from '../api/index.js';
import { LANGUAGES, t } from './i18n.js';
import { errorBox, prefetchLesson, renderLesson, siteReadText } from './lesson.js';
import { createViewHost } from './views.js';

export async function startEmbed() {
  const q = new URLSearchParams(location.search);
  const lang = LANGUAGES.some((l) => l.code === q.get('lang')) ? q.get('lang') : 'en';
  const id = q.get('lesson');
  document.documentElement.lang = lang;
  const main = document.getElementById('main');

  let lastHeight = -1;
  const postHeight = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === lastHeight || window.parent === window) return;
    lastHeight = height;
    window.parent.postMessage({ type: 'pt2e-embed-height', lesson: id, height }, '*');
  };
  new ResizeObserver(postHeight).observe(document.documentElement);

  if (!id) {
    main.replaceChildren(errorBox(t(lang, 'embed_missing')));
    return;
  }
  // The engine and the lesson load in parallel; the prose shows first, the cells run when the engine is in.
  if (/^M\d{2}(-\d+)?$/.test(id)) prefetchLesson(id, lang, siteReadText);
  let engine = null;
  let engineError = null;
  const engineReady = loadEngine().then((pt) => { engine = { pt, views: createViewHost(pt.module) }; return engine; }, (e) => {
    engineError = e;
    console.error(`pt2e: engine failed to load: ${e.message}`);
    return null;
  });
  const page = await renderLesson(main, { id, lang, engine: engineReady, readText: siteReadText });
  await page.done;
  if (engineError) main.prepend(errorBox(`${t(lang, 'load_failed')}: ${engineError.message}`));
  window.pt2e = { pt: engine?.pt ?? null, views: engine?.views ?? null, lesson: page };
  postHeight();
  if (engine) console.log(`pt2e: ready — lesson ${id} (${lang}) embedded`);
}
