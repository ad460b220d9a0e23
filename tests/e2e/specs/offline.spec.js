// offline.spec.js — after a first visit the service worker (sw.js) keeps the course working with the browser offline:
// M01 opens and runs, and so does M02-1, never opened online (precached at install). The worker runs under the
// site's Content-Security-Policy like the pages (its violations would fail the test through the guard).
import { detail, expect, newSitePage, readRepoText, test } from '../fixtures.js';
import { loadLesson } from '../../../web/app/cell_runner.js';

test('offline after a first visit: the browser set offline still opens M01 and runs its cells (service worker)', async ({ browser, guard, site }) => {
  const m01 = await loadLesson('M01', readRepoText);
  const lastCell = m01.cells.at(-1).id;
  const { context, page: p } = await newSitePage(browser, guard);
  try {
    await p.goto(`${site}?lesson=M01`);
    await p.waitForSelector(`section.cell[data-cell="${lastCell}"] ul.checks`, { timeout: 60_000 });
    // The worker installed (its cache filled) and controls the page.
    await p.evaluate(() => navigator.serviceWorker.ready);
    await p.waitForFunction(() => !!navigator.serviceWorker.controller);
    const version = await p.evaluate(async () => ({ caches: await caches.keys() }));
    expect(version.caches.some((n) => n.startsWith('pt2e-')), `caches ${version.caches}`).toBe(true);
    await context.setOffline(true);
    const offlineFailures = [];
    p.on('requestfailed', (r) => offlineFailures.push(new URL(r.url()).pathname));
    await p.goto(`${site}?lesson=M01&lang=en`);
    await p.waitForSelector(`section.cell[data-cell="${lastCell}"] ul.checks`, { timeout: 60_000 });
    const r = await p.evaluate(() => ({ passed: document.querySelectorAll('ul.checks li.pass').length, failed: document.querySelectorAll('ul.checks li.fail, .error-box').length,
      online: navigator.onLine, csp: document.querySelector('meta[http-equiv]') === null }));
    // And a lesson not opened online (precached at install): M02-1's first cell runs too.
    await p.goto(`${site}?lesson=M02-1`);
    await p.waitForSelector('section.cell[data-cell="A"] ul.checks', { timeout: 60_000 });
    const other = await p.evaluate(() => document.querySelectorAll('section.cell[data-cell="A"] ul.checks li.pass').length);
    expect(r.online).toBe(false);
    expect(r.passed).toBeGreaterThan(0);
    expect(r.failed).toBe(0);
    expect(other, 'offline M02-1: cell A passed checks').toBeGreaterThan(0);
    detail(`cache ${version.caches.join(', ')}; offline: M01 ${r.passed} checks passed, M02-1 A ran (never opened online)${offlineFailures.length ? `; failed requests: ${[...new Set(offlineFailures)].join(' ')}` : ''}`);
  } finally {
    await context.close();
  }
});
