// fixtures.js — what every browser spec shares (@playwright/test fixtures and helpers):
//   test, expect        test.extend'ed with `site` (the server's URL, global_setup.js) and `guard` (below)
//   guard.watch(page)   records, for that page, its console errors, page errors, Content-Security-Policy violations
//                       (the securitypolicyviolation events of every frame) and requests to any origin but the
//                       site's; after the test, any of them fails it (guard.check()). Pages made with openSite /
//                       newSitePage are watched. A spec whose tests share one page (test.describe serial) makes
//                       its own `new Guard(site)` in beforeAll and checks it after each test.
//   openSite(page, q)   routes the fixture lesson M99 (tests/e2e/fixtures/M99/, served as if it were in lessons/)
//                       and PT2E_DIST's engine in, then opens the site at query q
//   detail(text)        a line the reporter prints beside the test's name (timings, counts)
//   frames(page, n)     waits n animation frames (views draw on animation frames: no fixed sleep)
//   pixelStats / diffPixels   a screenshot's distinct colours and top colour share / changed pixels, decoded in the page
//   readRepoText(rel)   a repository file, for the Node side of a comparison
import { test as base, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/app/cell_runner.js';
import { proseParts } from '../../web/app/markdown.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const outDir = path.join(here, 'out');
const repoRoot = path.resolve(here, '..', '..');
export const readRepoText = (rel) => readFile(path.join(repoRoot, rel), 'utf8');

export class Guard {
  constructor(site) {
    this.origins = new Set([new URL(site).origin]);
    this.problems = [];
    this.requests = 0;
  }
  // Another origin a test's own pages come from (a host page embedding the site, on another origin).
  allow(origin) { this.origins.add(new URL(origin).origin); }
  async watch(page) {
    page.on('console', (m) => { if (m.type() === 'error') this.problems.push(`console error: ${m.text()}`); });
    page.on('pageerror', (e) => this.problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      this.requests++;
      const u = new URL(r.url());
      if (u.protocol !== 'data:' && u.protocol !== 'blob:' && !this.origins.has(u.origin)) this.problems.push(`request off the site: ${r.url()}`);
    });
    await page.exposeFunction('__pt2eCspViolation', (v) => this.problems.push(`CSP violation: ${v}`)).catch(() => {});
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        globalThis.__pt2eCspViolation?.(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} in ${e.sourceFile || location.pathname}:${e.lineNumber}`);
      });
    });
    return page;
  }
  // Fails the running test on what was recorded since the last check, and starts afresh.
  check() {
    const problems = this.problems.splice(0);
    expect(problems, 'console errors, page errors, CSP violations, requests off the site').toEqual([]);
  }
}

export const test = base.extend({
  site: [async ({}, use) => use(process.env.PT2E_E2E_URL), { scope: 'worker' }],
  guard: async ({ site }, use) => {
    const g = new Guard(site);
    await use(g);
    g.check();
  },
});
export { expect };

// The site's URL on another origin (localhost instead of 127.0.0.1: same server, another origin), for a host page
// that embeds the site the way another site would.
export const otherOrigin = (site) => site.replace('//127.0.0.1:', '//localhost:');

export function detail(text) {
  test.info().annotations.push({ type: 'detail', description: text });
}

// The fixture lesson M99 and a developer's engine build (PT2E_DIST=<folder>) routed into a page or context.
export async function routeFixtures(target) {
  if (process.env.PT2E_DIST) {
    const distDir = path.resolve(process.env.PT2E_DIST);
    await target.route('**/dist/pt2e_engine.*', (route) => route.fulfill({ path: path.join(distDir, path.basename(new URL(route.request().url()).pathname)) }));
  }
  await target.route('**/lessons/index.json', async (route) => {
    const response = await route.fetch();
    const index = await response.json();
    // M99-1: a planned page (no folder), the navigator's unwritten case whatever the course has written by now.
    index.push({ id: 'M99', title: { en: 'E2E', 'zh-TW': 'E2E' }, pages: [{ id: 'M99', title: { en: 'E2E fixture', 'zh-TW': 'E2E 測試頁' } },
      { id: 'M99-1', title: { en: 'E2E planned page', 'zh-TW': 'E2E 規劃中的頁面' }, planned: true }] });
    await route.fulfill({ response, json: index });
  });
  // Its page as scripts/bundle.js writes the lessons' (loadLesson + markdown.js's proseParts).
  await target.route((u) => u.pathname.startsWith('/web/bundle/lessons/M99/'), async (route) => {
    const lang = new URL(route.request().url()).pathname.match(/page\.([\w-]+)\.json$/)?.[1];
    const fixture = (rel) => readFile(path.join(here, 'fixtures', rel.replace(/^lessons\//, '')), 'utf8');
    const lesson = await loadLesson('M99', fixture);
    return route.fulfill({ json: { lesson, parts: proseParts(await fixture(`lessons/M99/prose.${lang}.md`)) } });
  });
}

// Opens the site at `query` in `page` (routes, watch), waiting for its "pt2e: ready" line when asked.
export async function openSite(page, guard, site, query = '', { ready = true } = {}) {
  await routeFixtures(page);
  await guard.watch(page);
  const line = ready ? page.waitForEvent('console', { predicate: (m) => /^pt2e: (ready|engine failed|the page failed)/.test(m.text()), timeout: 60_000 }) : null;
  await page.goto(`${site}${query}`);
  return line ? (await line).text() : null;
}

// A serial spec's one page: before its tests, a page (1100 x 760, no service worker) opened on the site at `query`
// and watched by a Guard; after each test the Guard is checked; after all the page is closed. `opened(page,
// readyLine)` hands the page to the spec. Call it at the spec's top level, before the spec's own hooks.
export function sharedPage(query, opened) {
  let page, guard;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser, site }) => {
    guard = new Guard(site);
    page = await browser.newPage({ viewport: { width: 1100, height: 760 }, serviceWorkers: 'block' });
    opened(page, await openSite(page, guard, site, query));
  });
  test.afterEach(() => guard.check());
  test.afterAll(() => page.context().close());
}

// A new browser context (a fresh profile: empty storage and cache) with one watched page.
export async function newSitePage(browser, guard, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, ...options });
  const page = await context.newPage();
  await routeFixtures(page);
  await guard.watch(page);
  return { context, page };
}

export const frames = (page, n = 2) => page.evaluate((k) => new Promise((resolve) => {
  const step = (left) => (left ? requestAnimationFrame(() => step(left - 1)) : resolve());
  step(k);
}), n);

// PNGs are decoded in the page from bytes (a Blob), not fetched: the site's CSP allows no data: fetch.
export async function pixelStats(page, png) {
  return page.evaluate(async (b64) => {
    const bmp = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], { type: 'image/png' }));
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const g = c.getContext('2d');
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
    const counts = new Map();
    for (let i = 0; i < d.length; i += 4) {
      const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const top = Math.max(...counts.values());
    return { colours: counts.size, topShare: top / (d.length / 4) };
  }, png.toString('base64'));
}

export async function diffPixels(page, a, b) {
  return page.evaluate(async ([a64, b64]) => {
    const load = async (s) => {
      const bmp = await createImageBitmap(new Blob([Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0))], { type: 'image/png' }));
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const g = c.getContext('2d');
      g.drawImage(bmp, 0, 0);
      return g.getImageData(0, 0, bmp.width, bmp.height).data;
    };
    const [x, y] = await Promise.all([load(a64), load(b64)]);
    if (x.length !== y.length) return Infinity;
    let n = 0;
    for (let i = 0; i < x.length; i += 4) if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2]) n++;
    return n;
  }, [a.toString('base64'), b.toString('base64')]);
}

export const cell = (id) => `section.cell[data-cell="${id}"]`;
