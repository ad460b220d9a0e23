// startup.js — profiles the time to the first interactive lesson (the e2e figure) in cold contexts.
//   node tests/e2e/startup.js [runs=3] [--trace] [--profile [--windows]] [--selector] [?query] [page.html ...]   per run: total; last run: resource timings, marks
// Several pages (index.html and an experiment's copy of it, say) are loaded in turn, run by run, and compared
// by their medians: on a shared machine only interleaved runs compare fairly.
// PT2E_JS_FLAGS='--no-wasm-lazy-compilation' passes V8 flags, PT2E_BROWSER_ARGS more browser switches (experiments).
// --selector waits as the e2e first did (waitForSelector, which polls with back-off up to 500 ms).
// Same metric as tests/e2e/specs/startup.spec.js: a fresh browser context opens ?lesson=M01 and waits until M01's last cell
// shows its checks. The page's own performance marks (pt2e:*) and measures are listed in time order.
import { launchBrowser } from './browser.js';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 3);
const trace = process.argv.includes('--trace');
const query = process.argv.find((a) => a.startsWith('?')) ?? '?lesson=M01';
const pages = process.argv.filter((a) => /^[\w-]+\.html$/.test(a));  // other pages of the site, e.g. an experiment's copy of index.html
if (!pages.length) pages.push('');
const server = await startServer({ port: 0 });
const browser = await launchBrowser([...(process.env.PT2E_JS_FLAGS ? [`--js-flags=${process.env.PT2E_JS_FLAGS}`] : []),
  ...(process.env.PT2E_BROWSER_ARGS ? process.env.PT2E_BROWSER_ARGS.split(' ') : [])]);
const meta = JSON.parse(await readFile(path.join(here, '../../lessons/M01/lesson.json'), 'utf8'));
const last = meta.cells[meta.cells.length - 1].id;
const totals = [];
const byPage = new Map(pages.map((p) => [p, []]));
try {
  for (let i = 0; i < runs * pages.length; i++) {
    const pagePath = pages[i % pages.length];
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') console.log(`  console error: ${m.text()}`); });
    let cdp = null;
    if (trace && i === runs * pages.length - 1) {
      cdp = await context.newCDPSession(page);
      await browser.startTracing(page, { path: path.join(here, 'out', 'startup-trace.json'), screenshots: false,
        categories: ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading', 'v8', 'disabled-by-default-v8.compile', 'v8.wasm', 'disabled-by-default-v8.wasm.detailed', 'disabled-by-default-v8.wasm.turbofan', 'cc', 'disabled-by-default-devtools.timeline.frame'] });
    }
    await page.addInitScript((sel) => {
      new MutationObserver((_, obs) => {
        if (document.querySelector(sel)) { performance.mark('checks of the last cell in the DOM'); obs.disconnect(); }
      }).observe(document, { childList: true, subtree: true });
    }, `section.cell[data-cell="${last}"] ul.checks`);
    const profile = process.argv.includes("--profile") && i === runs * pages.length - 1 ? await context.newCDPSession(page) : null;
    if (profile) {
      await profile.send('Profiler.enable');
      await profile.send('Profiler.setSamplingInterval', { interval: 200 });
      await profile.send('Profiler.start');
    }
    const t0 = Date.now();
    await page.goto(`${server.url}${pagePath}${query}`);
    if (process.argv.includes('--selector')) {  // the e2e's first method: polls with back-off up to 500 ms
      await page.waitForSelector(`section.cell[data-cell="${last}"] ul.checks`, { timeout: 30000 });
    } else {
      await page.waitForFunction((sel) => !!document.querySelector(sel), `section.cell[data-cell="${last}"] ul.checks`, { polling: 'raf', timeout: 30000 });
    }
    const ms = Date.now() - t0;
    if (cdp) await browser.stopTracing();
    if (profile) {
      // Self time by function (top 25) over the whole load: where the main thread's CPU goes.
      const { profile: p } = await profile.send('Profiler.stop');
      const dt = new Map();
      p.samples.forEach((id, k) => dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas[k + 1] ?? 0)));
      const self = new Map();
      for (const n of p.nodes) {
        const f = n.callFrame;
        const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (dt.get(n.id) ?? 0));
      }
      const byFile = new Map();
      for (const n of p.nodes) {
        const f = n.callFrame.url.replace(/^.*\//, '') || n.callFrame.functionName;
        byFile.set(f, (byFile.get(f) ?? 0) + (dt.get(n.id) ?? 0));
      }
      if (process.argv.includes('--windows')) {
        // What the main thread runs over time: 50 ms windows from navigation, the top self-time frames of each.
        // The profile's clock is not the page's: its zero is put at the first sample of the page's inline script.
        const nodeById = new Map(p.nodes.map((n) => [n.id, n]));
        let at = p.startTime, origin = null;
        p.samples.forEach((id, k) => { at += p.timeDeltas[k] ?? 0; if (origin === null && /\?lesson=/.test(nodeById.get(id).callFrame.url)) origin = at / 1000 - 10; });
        at = p.startTime;
        const windows = new Map();
        p.samples.forEach((id, k) => {
          at += p.timeDeltas[k] ?? 0;
          const w = Math.floor((at / 1000 - origin) / 50);
          const f = nodeById.get(id).callFrame;
          const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}`.trim();
          if (!windows.has(w)) windows.set(w, new Map());
          windows.get(w).set(key, (windows.get(w).get(key) ?? 0) + (p.timeDeltas[k + 1] ?? 0));
        });
        for (const [w, m] of [...windows].sort((a, b) => a[0] - b[0])) {
          console.log(`  ${String(w * 50).padStart(5)}  ${[...m].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(' | ')}`);
        }
      }
      console.log('  self time by file: ' + [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(' | '));
      for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(v / 1000).toFixed(1).padStart(7)} ms  ${k}`);
    }
    totals.push(ms);
    byPage.get(pagePath).push(ms);
    const info = await page.evaluate(() => ({
      nav: performance.getEntriesByType('navigation')[0]?.toJSON(),
      res: performance.getEntriesByType('resource').map((r) => ({ name: r.name.replace(location.origin, ''), start: r.startTime, end: r.responseEnd, size: r.transferSize })),
      marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, t: m.startTime })),
      measures: performance.getEntriesByType('measure').map((m) => ({ name: m.name, t: m.startTime, d: m.duration })),
      paint: performance.getEntriesByType('paint').map((p) => ({ name: p.name, t: p.startTime })),
      now: performance.now(),
      origin: performance.timeOrigin,
    }));
    console.log(`run ${i + 1}${pagePath ? ` ${pagePath}` : ''}: ${ms} ms (page clock ${info.now.toFixed(0)} ms)`);
    if (process.argv.includes('-v') || i === runs * pages.length - 1) {
      const rows = [
        ...info.res.map((r) => [r.start, `res  ${r.name} → ${r.end.toFixed(0)} (${(r.end - r.start).toFixed(0)} ms)`]),
        ...info.marks.map((m) => [m.t, `mark ${m.name}`]),
        ...info.measures.map((m) => [m.t, `meas ${m.name} ${m.d.toFixed(1)} ms → ${(m.t + m.d).toFixed(0)}`]),
        ...info.paint.map((p) => [p.t, `paint ${p.name}`]),
        [info.nav.responseEnd, 'html responseEnd'], [info.nav.domContentLoadedEventEnd, 'DOMContentLoaded end'],
        [info.nav.loadEventEnd, 'load event end'], [t0 + ms - info.origin, 'the test saw the checks'], [t0 - info.origin, 'the test called goto'],
      ].sort((a, b) => a[0] - b[0]);
      for (const [t, s] of rows) console.log(`  ${t.toFixed(0).padStart(5)}  ${s}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
for (const [pagePath, times] of byPage) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`time to the first interactive lesson${pagePath ? ` (${pagePath})` : ''}: min ${sorted[0]} ms, median ${sorted[Math.floor(sorted.length / 2)]} ms over ${runs} cold runs [${times.join(', ')}]`);
}
