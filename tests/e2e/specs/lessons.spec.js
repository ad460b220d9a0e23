// lessons.spec.js — every written lesson, in both languages, in the browser under the site's Content-Security-Policy:
// every check passes as in the headless runner (the same lines, in order), every view of the page is drawn and not
// blank, no CSP violation or console error (the guard), and the rendered prose has no raw ** and no space between two
// CJK characters.
import { loadEngine } from '../../../web/api/index.js';
import { LANGS, loadIndex, loadLesson, runLesson, writtenLessons } from '../../../web/app/cell_runner.js';
import { detail, expect, sharedPage, pixelStats, readRepoText, test } from '../fixtures.js';

let page;
const proseIssues = [];
let proseBlocks = 0;
sharedPage('', (p) => { page = p; });

test('every written lesson passes every check in the browser, as in the headless runner, and draws every view, with no CSP violation', async () => {
  test.setTimeout(900_000);
  const nodePt = await loadEngine();
  const ids = writtenLessons(await loadIndex(readRepoText));
  const viewsSeen = {};
  let total = 0;
  const diffs = [];
  const csp = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
  expect(csp, 'the page is served with a Content-Security-Policy').toMatch(/default-src 'none'/);
  for (const lang of LANGS) {
    for (const id of ids) {
      const lesson = await loadLesson(id, readRepoText);
      const headless = runLesson(nodePt, lesson, { lang }).flatMap((r) => [
        ...r.checks.map((c) => `${r.cell} ${c.ok ? 'pass' : 'fail'}: ${c.message}`),
        ...(r.error ? [`${r.cell} error: ${r.error.name}: ${r.error.message}`] : [])]);
      await page.evaluate(([l, g]) => window.pt2e.navigate(l, g).then(() => undefined), [id, lang]);
      // The rendered prose as a reader sees it, block by block (code and math as a placeholder 0): no raw `**`
      // (CommonMark leaves them next to CJK punctuation unless markdown-it-cjk-friendly is on), and no space
      // between two CJK characters (a source line break between them, unless markdown-it-cjk-breaks is on).
      const prose = await page.evaluate(() => [...document.querySelectorAll('article .prose')].flatMap((div) =>
        [...div.querySelectorAll('p, li, td, th, h1, h2, h3, h4')].map((block) => {
          const copy = block.cloneNode(true);
          for (const c of copy.querySelectorAll('code, .katex, ul, ol')) c.replaceWith(c.matches('ul, ol') ? '' : '0');
          return copy.textContent;
        })));
      proseBlocks += prose.length;
      const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/u;
      for (const text of prose) {
        if (text.includes('**')) proseIssues.push(`${id} [${lang}] raw **: "${text.slice(0, 60)}"`);
        for (const m of text.matchAll(/(\S)\s+(\S)/gu)) if (CJK.test(m[1]) && CJK.test(m[2])) proseIssues.push(`${id} [${lang}] space between CJK: "…${text.slice(Math.max(0, m.index - 6), m.index + 8)}…"`);
      }
      // Exercise cells show the learner's starting code; run the reference solution, as the runner does (edited
      // code: the page runs it in its cell worker, cell_sandbox.js).
      const inBrowser = await page.evaluate(async (where) => {
        const lessonPage = window.pt2e.lesson;
        if (!lessonPage) throw new Error(`${where}: no lesson page after navigate (main says: ${document.querySelector('main').textContent.slice(0, 200)})`);
        for (const c of lessonPage.cells) if (c.cell.exercise) c.setCode(c.cell.solution);
        await lessonPage.runAll();
        return [...document.querySelectorAll('section.cell')].flatMap((sec) => [
          ...[...sec.querySelectorAll('ul.checks li')].map((li) => `${sec.dataset.cell} ${li.className}: ${li.querySelector('.msg').textContent}`),
          ...[...sec.querySelectorAll('.error-box')].map((e) => `${sec.dataset.cell} error: ${e.textContent.replace(/  \(line \d+\)$/, '')}`)]);
      }, `${id} [${lang}]`);
      total += inBrowser.length;
      const failed = inBrowser.filter((line) => !/^\S+ pass: /.test(line));
      if (failed.length) diffs.push(`${id} [${lang}] does not pass in the browser: ${failed[0]}`);
      // Every view of the page, scrolled to (views are created near the visible area), drawn and not blank.
      if (lang === 'en') {
        const canvases = page.locator('main canvas.view');
        for (let k = 0, n = await canvases.count(); k < n; k++) {
          const canvas = canvases.nth(k);
          await canvas.evaluate(async (c) => {
            c.scrollIntoView({ block: 'center' });
            for (let f = 0; f < 300 && c.dataset.view !== 'live'; f++) await new Promise(requestAnimationFrame);
            for (let f = 0; f < 3; f++) await new Promise(requestAnimationFrame);
          });
          const kind = await canvas.getAttribute('data-kind');
          const st = await pixelStats(page, await canvas.screenshot());
          if (!(st.colours >= 8 && st.topShare < 0.97)) diffs.push(`${id}: ${kind} view ${k} looks blank (${st.colours} colours, top ${st.topShare.toFixed(3)})`);
          viewsSeen[kind] = (viewsSeen[kind] ?? 0) + 1;
        }
      }
      if (headless.join('\n') !== inBrowser.join('\n')) {
        const i = headless.findIndex((x, k) => x !== inBrowser[k]);
        diffs.push(`${id} [${lang}] #${i}: node "${headless[i]}" vs browser "${inBrowser[i]}"`);
      }
    }
  }
  expect(diffs).toEqual([]);
  expect(viewsSeen.graph, `graph views in the lessons: ${JSON.stringify(viewsSeen)}`).toBeGreaterThan(0);
  detail(`${ids.length} lessons x ${LANGS.length} languages, ${total} checks alike, all passed, no CSP violation; views drawn and not blank: ${Object.entries(viewsSeen).map(([k, v]) => `${v} ${k}`).join(', ')}`);
});

test('rendered prose: no raw ** and no space between two CJK characters on any page, in either language', async () => {
  expect(proseBlocks, 'prose blocks read').toBeGreaterThan(0);
  expect(proseIssues).toEqual([]);
  detail(`${proseBlocks} prose blocks read`);
});
