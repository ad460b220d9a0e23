// embed.spec.js — embed.html in a page of another site (a host page on another origin): the lesson alone, its height
// posted to the parent; one cell alone (?cell=B) after the lesson has run; the documented height request answered to
// the asking origin, and nothing else accepted — not another frame's request, not a message of another shape, not a
// navigation request, not markup (web/app/embed.js).
import { cell, detail, expect, newSitePage, otherOrigin, test } from '../fixtures.js';

// A host page on another origin, with the embed in an iframe and a sibling frame of the host's own.
async function hostPage(browser, guard, site, query) {
  const host = otherOrigin(site);
  guard.allow(host);
  const { context, page } = await newSitePage(browser, guard);
  await page.route(`${host}e2e-host.html`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>host</title>
    <iframe id="embed" style="width:700px;height:200px" src="${site}embed.html${query}"></iframe>
    <iframe id="sibling" srcdoc="<p>sibling</p>"></iframe>
    <script>
      window.heights = [];
      addEventListener('message', (e) => {
        if (e.source === document.getElementById('embed').contentWindow) heights.push({ origin: e.origin, data: e.data });
      });
    </script>` }));
  await page.goto(`${host}e2e-host.html`);
  return { context, page, embed: () => page.frames().find((f) => f.url().includes('embed.html')) };
}

test('embed.html shows the lesson alone and posts its height to the parent', async ({ browser, guard, site }) => {
  const { context, page, embed } = await hostPage(browser, guard, site, '?lesson=M99&lang=zh-TW');
  try {
    await page.waitForFunction(() => heights.some((h) => h.data?.type === 'pt2e-embed-height' && h.data.height > 400));
    const msg = await page.evaluate(() => heights.find((h) => h.data.height > 400));
    await embed().waitForSelector(`${cell('grade')} ul.checks`);
    const r = await embed().evaluate(() => ({ nav: !!document.querySelector('nav'), cells: document.querySelectorAll('section.cell').length, h1: document.querySelector('.prose h1')?.textContent }));
    expect(msg.data.lesson).toBe('M99');
    expect(msg.origin, "the message's origin is the site's").toBe(new URL(site).origin);
    expect(r).toEqual({ nav: false, cells: 4, h1: 'E2E 測試頁' });
    detail(`height ${msg.data.height}`);
  } finally {
    await context.close();
  }
});

test('embed.html?cell=B shows that cell alone after running the lesson; answers the documented height request (to the asking origin) and ignores other messages and other frames', async ({ browser, guard, site }) => {
  const { context, page, embed } = await hostPage(browser, guard, site, '?lesson=M01&cell=B');
  try {
    await embed().waitForFunction(() => window.pt2e?.lesson && document.querySelector('section.cell ul.checks'), null, { timeout: 60_000 });
    const urlBefore = await embed().evaluate(() => location.search);
    const n0 = await page.evaluate(() => heights.length);
    // Not accepted: a request from a sibling frame, a request with another key, a navigation, markup, a bare string;
    // then the documented request from the parent. Messages are handled in order: once its answer is in, the others
    // have been handled too.
    // The same request sent by the sibling frame's own script: its source is not the embed's parent window.
    await page.frames().find((f) => f.url() === 'about:srcdoc').evaluate(() => {
      parent.document.getElementById('embed').contentWindow.postMessage({ type: 'pt2e-embed-height-request' }, '*');
    });
    await page.evaluate(() => {
      const w = document.getElementById('embed').contentWindow;
      w.postMessage({ type: 'pt2e-embed-height-request', extra: 1 }, '*');
      w.postMessage({ type: 'pt2e-embed-navigate', lesson: 'M02-1' }, '*');
      w.postMessage('<img src=x onerror=alert(1)>', '*');
      w.postMessage('pt2e-embed-height-request', '*');
    });
    await page.evaluate(() => document.getElementById('embed').contentWindow.postMessage({ type: 'pt2e-embed-height-request' }, '*'));
    await page.waitForFunction((n) => heights.length > n, n0);
    const r = await embed().evaluate(() => ({ cells: [...document.querySelectorAll('section.cell')].map((s) => s.dataset.cell),
      passed: document.querySelectorAll('ul.checks li.pass').length, failed: document.querySelectorAll('ul.checks li.fail').length,
      url: location.search, injected: document.querySelectorAll('img').length }));
    const answers = await page.evaluate((n) => heights.slice(n), n0);
    expect(r.cells).toEqual(['B']);
    expect(r.passed).toBeGreaterThan(0);
    expect(r.failed).toBe(0);
    expect(r.url, 'the embed did not navigate').toBe(urlBefore);
    expect(r.url).toContain('lesson=M01');
    expect(r.injected, 'no markup injected').toBe(0);
    expect(answers.map((a) => a.data.type)).toEqual(['pt2e-embed-height']);
    expect(answers[0].origin).toBe(new URL(site).origin);
    detail(`cell ${r.cells.join()}, ${r.passed} checks passed; 1 answer to 1 documented request among 6 messages`);
  } finally {
    await context.close();
  }
});
