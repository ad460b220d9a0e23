// security.spec.js — the locked-down site (scripts/site_headers.js): every page and file is served with the
// Content-Security-Policy (no other origin; the pages' inline scripts by hash), nosniff and no referrer; the home page
// and a lesson load and run under it, and the cell worker and the service worker too, with no violation and no
// request leaving the site (the guard); an inline script the policy does not name is refused.
import { detail, expect, newSitePage, test } from '../fixtures.js';

test('the CSP, nosniff and referrer-policy headers are present on pages, scripts and the wasm', async ({ request, site }) => {
  const seen = [];
  for (const rel of ['', 'embed.html?lesson=M01', 'web/bundle/shell.js', 'web/bundle/cell_worker.js', 'sw.js', 'dist/pt2e_engine.wasm', 'lessons/index.json']) {
    const res = await request.get(`${site}${rel}`);
    expect(res.status(), rel).toBe(200);
    const h = res.headers();
    expect(h['content-security-policy'], rel).toMatch(/^default-src 'none'; script-src 'self' /);
    expect(h['content-security-policy'], rel).not.toMatch(/https?:|'unsafe-inline'[^;]*; style-src 'self'/);
    expect(h['x-content-type-options'], rel).toBe('nosniff');
    expect(h['referrer-policy'], rel).toBe('no-referrer');
    seen.push(rel || 'index.html');
  }
  detail(`${seen.length} responses: ${seen.join(', ')}`);
});

test('a lesson loads and runs under the policy (page, cell worker, service worker) with no violation and no request off the site', async ({ browser, guard, site }) => {
  const { context, page } = await newSitePage(browser, guard);
  try {
    await page.goto(`${site}?lesson=M01`);
    await page.waitForFunction(() => window.pt2e?.lesson && [...document.querySelectorAll('section.cell')].every((s) => s.querySelector('ul.checks, .error-box')), null, { timeout: 60_000 });
    await page.evaluate(() => navigator.serviceWorker.ready);
    // Edited code: the cell worker starts under the same policy (its script's own headers) and runs the cell.
    await page.fill('section.cell[data-cell="A"] textarea', `${await page.inputValue('section.cell[data-cell="A"] textarea')}\n// edited`);
    await page.click('section.cell[data-cell="A"] button.run');
    await expect(page.locator('section.cell[data-cell="A"] .cell-status')).toHaveText(/passed/);
    const r = await page.evaluate(() => ({ failed: document.querySelectorAll('ul.checks li.fail, .error-box').length, isolated: window.pt2e.lesson.isolated,
      sw: !!navigator.serviceWorker.controller }));
    expect(r).toEqual({ failed: 0, isolated: true, sw: true });
    expect(guard.requests).toBeGreaterThan(0);
    detail(`${guard.requests} requests, all to the site; cells ran in the page and in the worker`);
  } finally {
    await context.close();
  }
});

test('an inline script the policy does not name is refused (the policy is enforced, not only sent)', async ({ browser, site }) => {
  const context = await browser.newContext();  // not watched: the violation is provoked on purpose
  const page = await context.newPage();
  try {
    await page.goto(site);
    const r = await page.evaluate(() => new Promise((resolve) => {
      document.addEventListener('securitypolicyviolation', (e) => resolve({ directive: e.violatedDirective, ran: !!window.__ran }), { once: true });
      const s = document.createElement('script');
      s.textContent = 'window.__ran = true';
      document.body.append(s);
    }));
    expect(r).toEqual({ directive: 'script-src-elem', ran: false });
    detail(`refused by ${r.directive}`);
  } finally {
    await context.close();
  }
});
