// embed.js — embed.html: one lesson page alone, for an <iframe> in another page.
//   <iframe src="https://…/embed.html?lesson=M01&lang=zh-TW"></iframe>
// It renders the lesson like index.html does (lesson.js) and tells the parent its content height
// whenever it changes: parent.postMessage({ type: 'pt2e-embed-height', lesson, height }, '*'),
// so the parent can size the iframe. Logs "pt2e: ready" once the cells have run.
import { loadEngine } from '../api/index.js';
import { LANGUAGES } from './catalogue.js';
import { t } from './i18n.js';
import { errorBox, renderLesson, siteReadText } from './lesson.js';
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
  let engine = null;
  try {
    const pt = await loadEngine();
    engine = { pt, views: createViewHost(pt.module) };
  } catch (e) {
    main.replaceChildren(errorBox(`${t(lang, 'load_failed')}: ${e.message}`));
    console.error(`pt2e: engine failed to load: ${e.message}`);
  }
  const page = await renderLesson(main, { id, lang, engine, readText: siteReadText });
  await page.done;
  window.pt2e = { pt: engine?.pt ?? null, views: engine?.views ?? null, lesson: page };
  postHeight();
  if (engine) console.log(`pt2e: ready — lesson ${id} (${lang}) embedded`);
}
