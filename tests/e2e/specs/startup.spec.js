// startup.spec.js — the time to the first interactive lesson, printed (timings are measured, never tested): a fresh
// browser context (empty cache) opens ?lesson=M01 and waits until the last of its cells has run and shown its checks;
// three such cold loads, min and median. The page is polled every animation frame (the default polling backs off,
// which would add up to half a second). The prose comes rendered: no Markdown renderer is loaded (asserted).
// tests/e2e/startup.js profiles the same load.
import { detail, expect, newSitePage, readRepoText, test } from '../fixtures.js';

test('time to the first interactive lesson (M01, cold cache) is printed', async ({ browser, guard, site }) => {
  const index = JSON.parse(await readRepoText('lessons/M01/lesson.json'));
  const last = index.cells[index.cells.length - 1].id;
  const times = [];
  let phases = '';
  for (let run = 0; run < 3; run++) {
    const { context, page: fresh } = await newSitePage(browser, guard);
    try {
      const scripts = [];
      fresh.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname); });
      const t0 = Date.now();
      await fresh.goto(`${site}?lesson=M01`);
      await fresh.waitForFunction((sel) => !!document.querySelector(sel), `section.cell[data-cell="${last}"] ul.checks`, { polling: 'raf', timeout: 60_000 });
      times.push(Date.now() - t0);
      expect(scripts.filter((p) => /markdown|katex/i.test(p)), 'no prose renderer loaded').toEqual([]);
      expect(scripts).toContain('/web/bundle/shell.js');
      if (run === 0) {
        phases = await fresh.evaluate(() => {
          const at = (name) => performance.getEntriesByName(name)[0];
          const ms = (v) => `${Math.round(v)}`;
          const cells = performance.getEntriesByType('measure').filter((m) => / run$/.test(m.name)).map((m) => `${m.name.replace('pt2e:cell ', '').replace(' run', '')} ${ms(m.duration)}`);
          return `engine ${ms(at('pt2e:engine-instantiated')?.startTime ?? NaN)}, prose ${ms(at('pt2e:prose shown')?.startTime ?? NaN)}, cells ${cells.join(' + ')} ms`;
        });
      }
    } finally {
      await context.close();
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  detail(`min ${sorted[0]} ms, median ${sorted[1]} ms of ${times.length} cold loads [${times.join(', ')}] from navigation to M01's last cell checked (goal < 1500 ms; no prose renderer loaded); first load: ${phases}`);
});
