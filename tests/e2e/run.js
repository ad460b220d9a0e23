// run.js — browser tests: the real page in headless Chromium (playwright-core, /usr/bin/chromium).
//   node tests/e2e/run.js            one line per test, then `N passed, N failed`; exit 1 on failure
//   PT2E_DIST=build/wasm-h5/dist node tests/e2e/run.js    the page uses that build of the engine
// Starts the site's own server (scripts/serve.js) on a free port, opens index.html, waits for the
// "pt2e: ready" console line, then checks the engine, the views (WebGL2 + ImGui, input routing,
// no busy loop), errors shown in place, the shell (navigator, URL state, language), a lesson page
// (prose + math, cells, outputs, errors, exercise), embed.html, every written lesson's checks,
// console errors and that no request leaves the site's own origin. The fixture lesson M99
// (tests/e2e/fixtures/M99/) is routed in as a lesson page (web/bundle/lessons/M99/page.<lang>.json). Screenshots go to tests/e2e/out/.
import { launchBrowser } from './browser.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { startServer } from '../../scripts/serve.js';
import { loadEngine } from '../../web/api/index.js';
import { LANGS, loadIndex, loadLesson, runLesson, writtenLessons } from '../../web/app/cell_runner.js';
import { proseParts } from '../../web/app/markdown.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, 'out');
mkdirSync(outDir, { recursive: true });

const results = [];
function record(name, ok, detail = '') {
  results.push({ name, ok });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}
async function test(name, fn) {
  try {
    const detail = await fn();
    record(name, true, typeof detail === 'string' ? detail : '');
  } catch (e) {
    record(name, false, e.message.split('\n')[0]);
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

// Distinct colours and the share of pixels of the most common colour in a PNG, decoded in the page.
async function pixelStats(page, png) {
  return page.evaluate(async (b64) => {
    const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
    const bmp = await createImageBitmap(blob);
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

async function diffPixels(page, a, b) {
  return page.evaluate(async ([a64, b64]) => {
    const load = async (s) => {
      const bmp = await createImageBitmap(await (await fetch(`data:image/png;base64,${s}`)).blob());
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

// The headless side of the browser-vs-runner comparison: the same lessons through Node.
const repoRoot = path.resolve(here, '..', '..');
const readRepoText = (rel) => readFile(path.join(repoRoot, rel), 'utf8');

const server = await startServer({ port: 0 });
const origin = new URL(server.url).origin;
const browser = await launchBrowser();

const consoleErrors = [];
const foreignRequests = [];
let requestCount = 0;
try {
  // The site's service worker (sw.js) would fetch on the page's behalf, out of reach of page.route (the M99
  // fixture, PT2E_DIST): this page runs without it; the offline test below runs with it.
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, serviceWorkers: 'block' });
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    requestCount++;
    const u = new URL(r.url());
    if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.origin !== origin) foreignRequests.push(r.url());
  });

  // PT2E_DIST=<folder>: the page loads pt2e_engine.{mjs,wasm} from that folder instead of dist/
  // (a developer's own build folder writes <build>/dist; see CMakeLists.txt).
  if (process.env.PT2E_DIST) {
    const distDir = path.resolve(process.env.PT2E_DIST);
    await page.route('**/dist/pt2e_engine.*', (route) => route.fulfill({ path: path.join(distDir, path.basename(new URL(route.request().url()).pathname)) }));
  }
  // The fixture lesson M99 (tests/e2e/fixtures/M99/) is served as if it were in lessons/.
  await page.route('**/lessons/index.json', async (route) => {
    const response = await route.fetch();
    const index = await response.json();
    index.push({ id: 'M99', title: { en: 'E2E', 'zh-TW': 'E2E' }, pages: [{ id: 'M99', title: { en: 'E2E fixture', 'zh-TW': 'E2E 測試頁' } }] });
    await route.fulfill({ response, json: index });
  });
  // Its page as scripts/bundle.js writes the lessons' (loadLesson + markdown.js's proseParts).
  await page.route((u) => u.pathname.startsWith('/web/bundle/lessons/M99/'), async (route) => {
    const lang = new URL(route.request().url()).pathname.match(/page\.([\w-]+)\.json$/)?.[1];
    const fixture = (rel) => readFile(path.join(here, 'fixtures', rel.replace(/^lessons\//, '')), 'utf8');
    const lesson = await loadLesson('M99', fixture);
    return route.fulfill({ json: { lesson, parts: proseParts(await fixture(`lessons/M99/prose.${lang}.md`)) } });
  });

  const ready = page.waitForEvent('console', { predicate: (m) => /^pt2e: (ready|engine failed|the page failed)/.test(m.text()), timeout: 30000 });
  await page.goto(server.url);
  let readyLine = '';
  await test('page logs "pt2e: ready" with one view drawn', async () => {
    const line = (await ready).text();
    assert(line.startsWith('pt2e: ready') && line.includes('1 view drawn with WebGL2'), `the page said: ${line}`);
    readyLine = line;
    return line;
  });
  if (!readyLine) throw new Error('the page never became ready; the remaining tests cannot run');

  await test('browser validates a WebAssembly SIMD128 module', async () => {
    const ok = await page.evaluate(() => WebAssembly.validate(new Uint8Array([
      0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11])));
    assert(ok === true, 'WebAssembly.validate(v128.const module) returned false');
  });

  await test('engine module (built with -msimd128) instantiated and computes torch.randn', async () => {
    const r = await page.evaluate(() => {
      const { pt } = window.pt2e;
      return pt.scope(() => { pt.manual_seed(0); return Array.from(pt.randn([3]).data()); });
    });
    const want = [1.5409960746765137, -0.293428897857666, -2.1787893772125244];  // torch.manual_seed(0); torch.randn(3)
    assert(r.every((v, i) => Math.abs(v - want[i]) < 1e-6), `got ${r.join(', ')}`);
  });

  const demo = page.locator('canvas.view').first();
  const before = await demo.screenshot({ path: path.join(outDir, 'home-view.png') });
  await page.screenshot({ path: path.join(outDir, 'home.png') });
  await test('histogram canvas is not blank', async () => {
    const s = await pixelStats(page, before);
    assert(s.colours >= 8 && s.topShare < 0.95, `${s.colours} colours, top colour covers ${(s.topShare * 100).toFixed(1)}%`);
    return `${s.colours} colours`;
  });

  await test('an idle view draws no frames (no busy loop)', async () => {
    const a = await page.evaluate(() => window.pt2e.demo.framesDrawn());
    await page.waitForTimeout(600);
    const b = await page.evaluate(() => window.pt2e.demo.framesDrawn());
    assert(a === b, `frames drawn went from ${a} to ${b} while idle`);
  });

  await test('a second canvas gets its own context; hover reaches only that view', async () => {
    await page.evaluate(() => {
      const c = document.createElement('canvas');
      c.className = 'view';
      c.id = 'e2e-second';
      document.querySelector('#main').prepend(c);
      const counts = Array.from({ length: 20 }, (_, i) => 10 + ((i * 7) % 13));
      window.e2eSecond = window.pt2e.views.mount(c, { view: 'histogram', title: 'second', lo: 0, hi: 20, counts, range: { min: 4, max: 15, label: 'range' }, clipped: 0.25 });
    });
    const second = page.locator('#e2e-second');
    await page.waitForFunction(() => window.e2eSecond.framesDrawn() > 0);
    await page.waitForTimeout(100);
    const quiet = await second.screenshot();
    const box = await second.boundingBox();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.6);
    await page.waitForFunction(() => window.e2eSecond.hoveredItem() >= 0, null, { timeout: 3000 });
    await page.waitForTimeout(150);
    const hovered = await second.screenshot({ path: path.join(outDir, 'second-hover.png') });
    const bins = await page.evaluate(() => [window.e2eSecond.hoveredItem(), window.pt2e.demo.hoveredItem()]);
    assert(bins[0] >= 8 && bins[0] <= 11, `second view's hovered bin is ${bins[0]}, expected one near the middle`);
    assert(bins[1] === -1, `the home view also reports hovered bin ${bins[1]}`);
    const changed = await diffPixels(page, quiet, hovered);
    assert(changed > 50, `only ${changed} pixels changed on hover (no tooltip?)`);
    return `bin ${bins[0]}, ${changed} pixels changed`;
  });

  await test('a fast click (down + up before the next frame) selects a bin; a second click clears it', async () => {
    const box = await page.locator('#e2e-second').boundingBox();
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.6);
    await page.waitForFunction(() => window.e2eSecond.selectedItem() >= 0, null, { timeout: 3000 });
    const first = await page.evaluate(() => window.e2eSecond.selectedItem());
    assert(first >= 2 && first <= 5, `selected bin ${first}, expected one near 20% of the width`);
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.6);
    await page.waitForFunction(() => window.e2eSecond.selectedItem() === -1, null, { timeout: 3000 });
    assert(await page.evaluate(() => window.pt2e.demo.selectedItem()) === -1, 'the home view got the click too');
    return `selected bin ${first}`;
  });

  await test('bad view data throws a typed error and the view keeps its data', async () => {
    const r = await page.evaluate(() => {
      const out = [];
      for (const bad of [{ view: 'histogram', lo: 1, hi: 0, counts: [1] }, { view: 'histogram', lo: 0, hi: 1, counts: [1, -2] },
        { view: 'nope' }, { view: 'histogram', lo: 0, hi: 1, counts: 'abc' }]) {
        try { window.e2eSecond.update(bad); out.push('no error'); } catch (e) { out.push(`${e.name}: ${e.message}`); }
      }
      return { out, title: window.e2eSecond.spec.title };
    });
    assert(r.out[0].startsWith('ValueError') && r.out[0].includes("'lo' and 'hi'"), r.out[0]);
    assert(r.out[1].startsWith('ValueError') && r.out[1].includes('counts[1]'), r.out[1]);
    assert(r.out[2].startsWith('ValueError') && r.out[2].includes('unknown view'), r.out[2]);
    assert(r.out[3].startsWith('TypeError') || r.out[3].startsWith('ValueError'), r.out[3]);
    assert(r.title === 'second', `spec after errors: ${r.title}`);
  });

  await test('line and bar charts draw, report the hovered point / group, and reject bad data by field', async () => {
    await page.evaluate(() => {
      for (const id of ['e2e-line', 'e2e-bar']) {
        const c = document.createElement('canvas');
        c.className = 'view';
        c.id = id;
        document.querySelector('#main').prepend(c);
      }
      const y = Array.from({ length: 50 }, (_, i) => Math.sin(i / 5));
      window.e2eLine = window.pt2e.views.mount(document.getElementById('e2e-line'), { view: 'line', x_label: 'batch', y_label: 'min_val',
        series: [{ name: 'MinMax', y }, { name: 'MovingAverage', y: y.map((v) => v / 2) }], marks: [{ x: 10, label: 'spike' }] });
      window.e2eBar = window.pt2e.views.mount(document.getElementById('e2e-bar'), { view: 'bar', y_label: 'SQNR (dB)',
        labels: ['conv1', 'conv2', 'conv3', 'fc'], series: [{ name: 'per-tensor', values: [30, 25, -5, 40] }, { name: 'per-channel', values: [35, 33, 10, NaN] }] });
    });
    await page.waitForFunction(() => window.e2eLine.framesDrawn() > 0 && window.e2eBar.framesDrawn() > 0);
    await page.waitForTimeout(100);
    const got = {};
    for (const [id, key, handle, frac] of [['e2e-line', 'line', 'e2eLine', 0.5], ['e2e-bar', 'bar', 'e2eBar', 0.9]]) {
      const loc = page.locator(`#${id}`);
      const png = await loc.screenshot({ path: path.join(outDir, `${id}.png`) });
      const st = await pixelStats(page, png);
      assert(st.colours >= 8 && st.topShare < 0.95, `${id}: ${st.colours} colours`);
      const box = await loc.boundingBox();
      await page.mouse.move(box.x + box.width * frac, box.y + box.height * 0.5);
      await page.waitForFunction((h) => window[h].hoveredItem() >= 0, handle, { timeout: 3000 }).catch(() => {});
      got[key] = await page.evaluate((h) => window[h].hoveredItem(), handle);
      await page.waitForTimeout(100);
      await loc.screenshot({ path: path.join(outDir, `${id}-hover.png`) });
    }
    assert(got.line >= 20 && got.line <= 28, `line: hovered point ${got.line}, expected near the middle of 50`);
    assert(got.bar === 3, `bar: hovered group ${got.bar}, expected the last (fc)`);
    const errs = await page.evaluate(() => {
      const out = [];
      for (const bad of [{ view: 'line', series: [] }, { view: 'line', series: [{ y: [1, 2], x: [1, 0] }] },
        { view: 'bar', labels: ['a'], series: [{ values: [1, 2] }] }, { view: 'bar', labels: ['a'], series: [{ values: ['x'] }] }]) {
        try { window.e2eBar.update(bad); out.push('no error'); } catch (e) { out.push(`${e.name}: ${e.message}`); }
      }
      return out;
    });
    assert(errs[0].startsWith('ValueError: line chart') && errs[0].includes("'series'"), errs[0]);
    assert(errs[1].startsWith('ValueError') && errs[1].includes('ascending'), errs[1]);
    assert(errs[2].startsWith('ValueError') && errs[2].includes('2 values for 1 labels'), errs[2]);
    assert(errs[3].startsWith('TypeError') && errs[3].includes('values[0] is not a number'), errs[3]);
    await page.evaluate(() => { window.e2eLine.destroy(); window.e2eBar.destroy(); });
    return `line point ${got.line}, bar group ${got.bar}`;
  });

  await test('dragging a histogram range handle changes the SQNR and clipped % readout; onControls fires; setControls rejects a bad range', async () => {
    const before = await page.evaluate(() => {
      const { pt } = window.pt2e;
      const values = pt.scope(() => { pt.manual_seed(0); return Array.from(pt.randn([20000]).data()); });
      const min = Math.min(...values), max = Math.max(...values), lo = -5, hi = 5;
      const counts = new Array(50).fill(0);
      for (const v of values) if (v >= lo && v <= hi) counts[Math.min(49, Math.floor((v - lo) / (hi - lo) * 50))] += 1;
      const c = document.createElement('canvas');
      c.className = 'view';
      c.id = 'e2e-drag';
      document.querySelector('#main').prepend(c);
      window.e2eDragSeen = [];
      window.e2eDrag = window.pt2e.views.mount(c, { view: 'histogram', lo, hi, counts, values,
        range: { min, max, label: 'MinMaxObserver', draggable: true }, quant: { quant_min: -128, quant_max: 127, dtype: 'int8' } },
      { onControls: (ctl) => window.e2eDragSeen.push(ctl) });
      return { lo, hi, min, max };
    });
    await page.waitForFunction(() => window.e2eDrag.framesDrawn() > 0 && window.e2eDrag.readout() !== null);
    const r0 = await page.evaluate(() => window.e2eDrag.readout());
    assert(r0.clipped === 0 && r0.sqnr > 30, `readout over the data's whole range: ${JSON.stringify(r0)}`);
    // The max line's x on screen: estimated from the plot's place in the canvas, then found where the
    // pointer shows the resize cursor (the view's own hit test).
    const loc = page.locator('#e2e-drag');
    const box = await loc.boundingBox();
    const guess = box.x + 62 + (before.max - before.lo) / (before.hi - before.lo) * (box.width - 78);
    const y = box.y + box.height * 0.5;
    const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    let x = null;
    for (const dx of [0, -2, 2, -4, 4, -6, 6, -8, 8, -10, 10, -13, 13, -16, 16]) {
      await page.mouse.move(guess + dx, y);
      await frames();
      if (await loc.evaluate((c) => c.style.cursor) === 'ew-resize') { x = guess + dx; break; }
    }
    assert(x !== null, `no resize cursor near the max line (x ${guess.toFixed(0)} +- 16 px)`);
    const inward = (before.max - 1.5) / (before.hi - before.lo) * (box.width - 78);   // to about max = 1.5
    await page.mouse.down();
    await page.mouse.move(x - inward, y, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction((m) => window.e2eDrag.controls().range[1] < m - 1, before.max, { timeout: 3000 }).catch(() => {});
    await frames();
    await loc.screenshot({ path: path.join(outDir, 'histogram-drag.png') });
    const after = await page.evaluate(() => ({ controls: window.e2eDrag.controls(), readout: window.e2eDrag.readout(),
      seen: window.e2eDragSeen.length, last: window.e2eDragSeen.at(-1), spec: window.e2eDrag.spec.range }));
    const [min1, max1] = after.controls.range;
    assert(min1 === before.min && max1 < before.max - 1 && max1 > 0.5, `range after the drag: [${min1}, ${max1}] (was [${before.min}, ${before.max}])`);
    assert(after.readout.sqnr !== r0.sqnr, `SQNR did not change: ${r0.sqnr}`);
    assert(after.readout.clipped > 0, `clipped after pulling max in to ${max1}: ${after.readout.clipped}`);
    assert(after.seen > 0 && after.last.range[1] === max1, `onControls: ${after.seen} calls, last ${JSON.stringify(after.last)}`);
    assert(after.spec.max === max1 && after.spec.draggable === true, `the handle's spec did not follow the drag: ${JSON.stringify(after.spec)}`);
    const errs = await page.evaluate(() => {
      const out = [];
      for (const bad of [{ range: [2, 1] }, { range: [0, NaN] }, { range: [0] }, { range: ['a', 1] }, null]) {
        try { window.e2eDrag.setControls(bad); out.push('no error'); } catch (e) { out.push(`${e.name}: ${e.message}`); }
      }
      window.e2eDrag.setControls({ range: [-2, 2] });
      const set = { controls: window.e2eDrag.controls(), readout: window.e2eDrag.readout() };
      window.e2eDrag.destroy();
      return { out, set };
    });
    assert(errs.out[0].startsWith('ValueError') && errs.out[0].includes("'range'") && errs.out[0].includes('min < max'), errs.out[0]);
    assert(errs.out[1].startsWith('ValueError') && errs.out[1].includes("'range'"), errs.out[1]);
    assert(errs.out[2].startsWith('ValueError') && errs.out[2].includes('[min, max]'), errs.out[2]);
    assert(errs.out[3].startsWith('TypeError'), errs.out[3]);
    assert(errs.out[4].startsWith('TypeError'), errs.out[4]);
    assert(errs.set.controls.range[0] === -2 && errs.set.controls.range[1] === 2 && errs.set.readout.sqnr !== after.readout.sqnr,
      `setControls([-2, 2]): ${JSON.stringify(errs.set)}`);
    const f = (r) => `SQNR ${r.sqnr.toFixed(2)} dB, clipped ${(r.clipped * 100).toFixed(2)}%`;
    return `max ${before.max.toFixed(3)} -> ${max1.toFixed(3)}: ${f(r0)} -> ${f(after.readout)}; ${after.seen} onControls call(s)`;
  });

  await test('graph view: residual block at export | prepare (| convert), layered without overlaps, edges downward', async () => {
    const r = await page.evaluate(() => {
      const { pt } = window.pt2e;
      const stages = pt.scope(() => {
        pt.manual_seed(0);
        const m = pt.get_model('residual');
        const gm = pt.export(m, [pt.randn([2, ...m.input_shape])]);
        const q = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
        const prepared = pt.prepare_pt2e(gm, q);
        prepared.forward(pt.randn([2, ...m.input_shape]));
        const graphs = [['export', gm], ['prepare', prepared]];
        try { graphs.push(['convert', pt.convert_pt2e(prepared)]); } catch { /* convert not in this build yet: two stages */ }
        return graphs.map(([title, g]) => ({ title, ...g.graph_view() }));
      });
      const c = document.createElement('canvas');
      c.className = 'view';
      c.id = 'e2e-graph';
      c.style.height = '520px';
      document.querySelector('#main').prepend(c);
      window.e2eStages = stages;
      window.e2eGraph = window.pt2e.views.mount(c, { view: 'graph', stages });
      return stages.map((s) => ({ nodes: s.nodes.length, observers: s.nodes.filter((n) => n.is_observer).length, edges: s.edges.length }));
    });
    await page.waitForFunction(() => window.e2eGraph.framesDrawn() > 0);
    await page.waitForTimeout(100);
    const png = await page.locator('#e2e-graph').screenshot({ path: path.join(outDir, 'graph.png') });
    const st = await pixelStats(page, png);
    assert(st.colours >= 8 && st.topShare < 0.97, `${st.colours} colours, top ${st.topShare}`);
    assert(r[1].observers > 0 && r[0].observers === 0, `observers per stage: ${r.map((x) => x.observers)}`);
    const bad = await page.evaluate(() => {
      const state = window.e2eGraph.graphState();
      const out = [];
      state.stages.forEach((s, k) => {
        const nodes = window.e2eStages[k].nodes;
        const byName = new Map(s.boxes.map((b) => [nodes[b.index].name, b]));
        for (let i = 0; i < s.boxes.length; i++) {
          for (let j = i + 1; j < s.boxes.length; j++) {
            const a = s.boxes[i], b = s.boxes[j];
            if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) out.push(`stage ${k}: ${nodes[a.index].name} overlaps ${nodes[b.index].name}`);
          }
        }
        for (const e of window.e2eStages[k].edges) {
          if (!(byName.get(e.from).y + byName.get(e.from).h <= byName.get(e.to).y)) out.push(`stage ${k}: edge ${e.from} -> ${e.to} does not go down`);
        }
        if (s.boxes.length !== nodes.length) out.push(`stage ${k}: ${s.boxes.length} boxes for ${nodes.length} nodes`);
      });
      return { out, crossings: state.stages.map((s) => s.crossings) };
    });
    assert(!bad.out.length, bad.out.slice(0, 3).join(' | '));
    assert(bad.crossings.every((c) => c <= 2), `crossings per stage ${bad.crossings}`);
    return `nodes ${r.map((x) => x.nodes).join(' | ')}, observers in prepare ${r[1].observers}, crossings ${bad.crossings}`;
  });

  await test('graph view: hover names a node and shows an observer\'s qparams, a click selects it, show_params: false hides parameters, focus keeps k hops', async () => {
    assert(await page.evaluate(() => !!window.e2eGraph), 'no graph view (the previous test failed)');
    const canvas = page.locator('#e2e-graph');
    const cb = await canvas.boundingBox();
    const target = await page.evaluate(() => {
      const s = window.e2eGraph.graphState();
      const nodes = window.e2eStages[0].nodes;
      const b = s.stages[0].boxes.find((x) => nodes[x.index].op === 'call_function' && nodes[x.index].target.includes('relu'));
      return { name: nodes[b.index].name, x: s.screen_x + (b.x + b.w / 2) * s.zoom, y: s.screen_y + (b.y + b.h / 2) * s.zoom };
    });
    await page.mouse.move(cb.x + target.x, cb.y + target.y);
    await page.waitForFunction((n) => window.e2eGraph.graphState().hovered === n, target.name, { timeout: 3000 });
    await page.mouse.click(cb.x + target.x, cb.y + target.y);
    await page.waitForFunction((n) => window.e2eGraph.graphState().selected === n, target.name, { timeout: 3000 });
    await canvas.screenshot({ path: path.join(outDir, 'graph-selected.png') });
    // An observer in the prepare stage: hovering it shows its qparams (the node's `details`, drawn in its tooltip).
    const obs = await page.evaluate(([w, h]) => {
      const s = window.e2eGraph.graphState();
      const nodes = window.e2eStages[1].nodes;
      const at = (b) => ({ x: s.screen_x + (b.x + b.w / 2) * s.zoom, y: s.screen_y + (b.y + b.h / 2) * s.zoom });
      const inside = (p) => p.x > 8 && p.x < w - 8 && p.y > 8 && p.y < h - 8;
      const b = s.stages[1].boxes.find((x) => nodes[x.index].is_observer && inside(at(x)));
      return b ? { name: nodes[b.index].name, details: nodes[b.index].details, ...at(b) } : { boxes: s.stages[1].boxes.length, w, h };
    }, [cb.width, cb.height]);
    assert(obs.name, `no observer of the prepare stage in view: ${JSON.stringify(obs)}`);
    await page.mouse.move(cb.x + obs.x, cb.y + obs.y);
    await page.waitForFunction((n) => window.e2eGraph.graphState().hovered === n, obs.name, { timeout: 3000 });
    const withTip = await canvas.screenshot({ path: path.join(outDir, 'graph-hover-qparams.png') });
    await page.mouse.move(cb.x + 4, cb.y + cb.height - 4);
    await page.waitForFunction(() => window.e2eGraph.graphState().hovered === '', null, { timeout: 3000 }).catch(() => {});
    const noTip = await canvas.screenshot();
    const tipPixels = await diffPixels(page, withTip, noTip);
    assert(/^qparams: scale=\S+ zp=-?\d+( \(per-channel, n=\d+\))?$/.test(obs.details?.[0] ?? '') && tipPixels > 200,
      `hovering ${obs.name}: details ${JSON.stringify(obs.details)}, ${tipPixels} pixels changed`);
    const qdq = await page.evaluate(() => (window.e2eStages[2]?.nodes ?? []).filter((n) => /quantize_per_tensor/.test(n.target)).map((n) => n.details[0]));
    assert(qdq.length > 0 && qdq.every((d) => /^qparams: scale=\S+ zp=-?\d+, int8 \[-128, 127\]$/.test(d)), `q / dq details: ${qdq.slice(0, 2)}`);
    const withoutParams = await page.evaluate(() => {
      window.e2eGraph.update({ view: 'graph', stages: window.e2eStages, show_params: false });
      return new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => res(window.e2eGraph.graphState().stages.map((s) => s.boxes.length)))));
    });
    const expected = await page.evaluate(() => window.e2eStages.map((s) => s.nodes.filter((n) => n.op !== 'get_attr').length));
    assert(withoutParams.join() === expected.join(), `show_params: false shows ${withoutParams} boxes, expected ${expected}`);
    await canvas.screenshot({ path: path.join(outDir, 'graph-no-params.png') });
    const inPrepare = await page.evaluate((n) => window.e2eStages[1].nodes.some((x) => x.name === n), target.name);
    assert(inPrepare, `${target.name} is not in the prepare stage`);
    const focused = await page.evaluate((n) => {
      window.e2eGraph.update({ view: 'graph', stages: window.e2eStages.slice(0, 1), focus: [n], hops: 1 });
      return new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => res(window.e2eGraph.graphState().stages[0].boxes.length))));
    }, target.name);
    const all = await page.evaluate(() => window.e2eStages[0].nodes.length);
    assert(focused >= 2 && focused <= 4 && focused < all, `focus on ${target.name} with 1 hop shows ${focused} of ${all} nodes`);
    return `${target.name}; ${obs.name} hover: ${obs.details[0]}; focus shows ${focused} of ${all}`;
  });

  await test('graph view: ctrl + wheel zooms the view without scrolling the page; a plain wheel scrolls the page and leaves the zoom', async () => {
    assert(await page.evaluate(() => !!window.e2eGraph), 'no graph view (an earlier test failed)');
    await page.evaluate(() => window.scrollTo(0, 0));
    const cb = await page.locator('#e2e-graph').boundingBox();
    await page.mouse.move(cb.x + cb.width / 2, cb.y + cb.height / 2);
    const before = await page.evaluate(() => ({ zoom: window.e2eGraph.graphState().zoom, y: window.scrollY }));
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, 240);
    await page.keyboard.up('Control');
    await page.waitForFunction((z) => window.e2eGraph.graphState().zoom < z, before.zoom, { timeout: 3000 });
    const zoomed = await page.evaluate(() => ({ zoom: window.e2eGraph.graphState().zoom, y: window.scrollY }));
    assert(zoomed.y === before.y, `ctrl + wheel scrolled the page from ${before.y} to ${zoomed.y}`);
    const scrollable = await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight);
    await page.mouse.wheel(0, 240);
    if (scrollable) await page.waitForFunction((y) => window.scrollY > y, zoomed.y, { timeout: 3000 });
    await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
    const after = await page.evaluate(() => ({ zoom: window.e2eGraph.graphState().zoom, y: window.scrollY }));
    assert(after.zoom === zoomed.zoom, `a plain wheel changed the zoom from ${zoomed.zoom} to ${after.zoom}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    return `zoom ${before.zoom.toFixed(3)} → ${zoomed.zoom.toFixed(3)} with ctrl; page scrolled ${after.y - zoomed.y} px by a plain wheel`;
  });

  await test('graph view: edges to unknown nodes, cycles and bad focus raise ValueError naming them', async () => {
    assert(await page.evaluate(() => !!window.e2eGraph), 'no graph view (an earlier test failed)');
    const errs = await page.evaluate(() => {
      const node = (name) => ({ name, op: 'call_function', target: 'aten.relu.default', label: 'relu' });
      const out = [];
      for (const bad of [
        { view: 'graph', nodes: [node('a')], edges: [{ from: 'a', to: 'zz' }] },
        { view: 'graph', nodes: [node('a'), node('b')], edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }] },
        { view: 'graph', nodes: [node('a'), node('a')], edges: [] },
        { view: 'graph', nodes: [node('a')], edges: [], focus: ['nope'] }]) {
        try { window.e2eGraph.update(bad); out.push('no error'); } catch (e) { out.push(`${e.name}: ${e.message}`); }
      }
      window.e2eGraph.destroy();
      return out;
    });
    assert(errs[0].startsWith('ValueError') && errs[0].includes('zz is not a node'), errs[0]);
    assert(errs[1].startsWith('ValueError') && errs[1].includes('cycle'), errs[1]);
    assert(errs[2].startsWith('ValueError') && errs[2].includes("two nodes are named 'a'"), errs[2]);
    assert(errs[3].startsWith('ValueError') && errs[3].includes("'nope'"), errs[3]);
  });

  await test('mounting on a missing canvas fails in place with RuntimeError', async () => {
    const msg = await page.evaluate(() => {
      const c = document.createElement('canvas');  // not in the document: no selector finds it
      try { window.pt2e.views.mount(c, { view: 'histogram', lo: 0, hi: 1, counts: [1] }); return 'no error'; } catch (e) { return `${e.name}: ${e.message}`; }
    });
    assert(msg.startsWith('RuntimeError') && msg.includes('WebGL2'), msg);
  });

  await test('lazy views: off-screen canvases wait; scrolled near they draw; past 8 live, off-screen ones are released and redraw on return', async () => {
    const n = 12;
    const first = await page.evaluate((count) => {
      const box = document.createElement('div');
      box.id = 'e2e-lazy';
      for (let i = 0; i < count; i++) {
        box.append(Object.assign(document.createElement('div'), { style: 'height: 900px' }));
        box.append(Object.assign(document.createElement('canvas'), { className: 'view', id: `e2e-lazy-${i}` }));
      }
      document.querySelector('#main').append(box);
      const counts = Array.from({ length: 20 }, (_, i) => 5 + ((i * 5) % 11));
      window.e2eLazy = [...box.querySelectorAll('canvas')].map((c, i) => window.pt2e.views.mount(c, { view: 'histogram', title: `lazy ${i}`, lo: 0, hi: 20, counts }));
      return { states: window.e2eLazy.map((h) => h.canvas.dataset.view), live: window.e2eLazy.filter((h) => h.live).length };
    }, n);
    assert(first.live === 0 && first.states.every((s) => s === 'pending'), `after mount: ${first.live} live, states ${first.states}`);
    let maxLive = 0;
    for (let i = 0; i < n; i++) {
      await page.evaluate((k) => window.e2eLazy[k].canvas.scrollIntoView({ block: 'center' }), i);
      await page.waitForFunction((k) => window.e2eLazy[k].framesDrawn() > 0, i, { timeout: 5000 });
      maxLive = Math.max(maxLive, await page.evaluate(() => window.pt2e.views.liveCount()));
    }
    assert(maxLive <= 8, `${maxLive} views were live at once (budget 8)`);
    const released = await page.evaluate(() => window.e2eLazy.filter((h) => h.canvas.dataset.view === 'released').length);
    assert(released >= n - 8, `only ${released} views were released`);
    await page.evaluate(() => window.e2eLazy[0].canvas.scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => window.e2eLazy[0].framesDrawn() > 0, null, { timeout: 5000 });
    await page.waitForTimeout(100);
    const png = await page.locator('#e2e-lazy-0').screenshot({ path: path.join(outDir, 'lazy-redrawn.png') });
    const st = await pixelStats(page, png);
    assert(st.colours >= 8 && st.topShare < 0.95, `the view drawn again: ${st.colours} colours, top ${st.topShare}`);
    await page.evaluate(() => {
      for (const h of window.e2eLazy) h.destroy();
      document.getElementById('e2e-lazy').remove();
      document.querySelector('#main').scrollTop = 0;
    });
    return `max ${maxLive} live of ${n}, ${released} released, the first redrawn (${st.colours} colours)`;
  });

  await test('navigator: a planned page not yet written is not a link', async () => {
    const r = await page.evaluate(() => ({
      links: document.querySelectorAll('nav a[data-lesson]').length,
      unwritten: [...document.querySelectorAll('nav .unwritten')].map((e) => e.textContent),
    }));
    assert(r.links >= 2, `only ${r.links} lesson links`);
    assert(r.unwritten.some((x) => x.includes('M10-1')), `no unwritten M10-1 in ${r.unwritten.length} dimmed pages`);
    assert(!(await page.$('nav a[data-lesson="M10-1"]')), 'M10-1 is a link');
  });

  const cell = (id) => `section.cell[data-cell="${id}"]`;
  await test('navigator: clicking a lesson sets ?lesson= and runs its cells in order', async () => {
    await page.click('nav a[data-lesson="M99"]');
    await page.waitForFunction(() => location.search === '?lesson=M99');
    await page.waitForSelector(`${cell('grade')} ul.checks`, { timeout: 10000 });
    const order = await page.$$eval('section.cell', (els) => els.map((e) => e.dataset.cell));
    assert(order.join() === 'hist,err,ex,grade', `cells in order ${order}`);
    const current = await page.getAttribute('nav a[aria-current="page"]', 'data-lesson');
    assert(current === 'M99', `current nav entry ${current}`);
  });

  await test('lesson prose: Markdown tables and KaTeX math (inline and display), no raw $ left', async () => {
    const r = await page.evaluate(() => ({
      inline: document.querySelectorAll('.prose .katex').length,
      display: document.querySelectorAll('.prose .katex-display').length,
      errors: document.querySelectorAll('.prose .katex-error').length,
      tables: document.querySelectorAll('.prose table').length,
      dollar: [...document.querySelectorAll('.prose')].some((p) => p.textContent.includes('$')),
      h1: document.querySelector('.prose h1')?.textContent,
    }));
    assert(r.inline >= 2 && r.display === 1 && r.errors === 0, `katex ${r.inline}, display ${r.display}, errors ${r.errors}`);
    assert(r.tables === 1 && !r.dollar && r.h1 === 'E2E fixture', JSON.stringify(r));
  });

  await test('cell outputs: text, table, PyTorch code and a drawn histogram view', async () => {
    const text = await page.textContent(`${cell('hist')} pre.out-text`);
    const tds = await page.$$eval(`${cell('hist')} table td`, (els) => els.map((e) => e.textContent));
    const torch = await page.textContent(`${cell('hist')} details.torch code`);
    assert(text === 'a text output' && tds.join() === '1000,float32' && torch.includes('torch.randn(1000)'), `${text} | ${tds} | ${torch}`);
    const canvas = page.locator(`${cell('hist')} canvas.view`);
    await page.waitForTimeout(200);
    const png = await canvas.screenshot({ path: path.join(outDir, 'cell-view.png') });
    const st = await pixelStats(page, png);
    assert(st.colours >= 8 && st.topShare < 0.95, `${st.colours} colours, top ${st.topShare}`);
    assert(await page.textContent(`${cell('hist')} .cell-status`) === '1/1 passed', 'status');
  });

  await test('a cell that throws shows the typed error and its line in place; later cells still run', async () => {
    const err = await page.textContent(`${cell('err')} .error-box`);
    assert(err.startsWith('ValueError: randn()') && err.includes('(line 3)'), err);
    const checks = await page.$$eval(`${cell('err')} ul.checks li`, (els) => els.map((e) => `${e.className}:${e.textContent}`));
    assert(checks.length === 1 && checks[0].startsWith('pass:') && checks[0].includes('state.x survived'), checks.join(' | '));
    assert(await page.$(`${cell('grade')} ul.checks`), 'the grade cell did not run');
  });

  await test('exercise: the starting code fails the grade; edited and re-run, it passes; Reset restores', async () => {
    const before = await page.getAttribute(`${cell('grade')} ul.checks li`, 'class');
    assert(before === 'fail', `grade with the starting code: ${before}`);
    await page.fill(`${cell('ex')} textarea`, 'state.answer = 6 * 7;');
    await page.click(`${cell('ex')} button.run`);
    await page.click(`${cell('grade')} button.run`);
    await page.waitForSelector(`${cell('grade')} ul.checks li.pass`, { timeout: 3000 });
    await page.click(`${cell('ex')} button.reset`);
    const code = await page.inputValue(`${cell('ex')} textarea`);
    assert(code.includes('state.answer = 0;'), `after Reset: ${code}`);
    await page.screenshot({ path: path.join(outDir, 'lesson.png'), fullPage: true });
  });

  await test('a syntax error in an edited cell is shown in place and the page stays usable', async () => {
    await page.fill(`${cell('ex')} textarea`, 'state.answer = ;');
    await page.click(`${cell('ex')} button.run`);
    await page.waitForSelector(`${cell('ex')} .error-box`, { timeout: 3000 });
    const err = await page.textContent(`${cell('ex')} .error-box`);
    assert(err.startsWith('SyntaxError'), err);
    await page.click(`${cell('hist')} button.run`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '1/1 passed', `${cell('hist')} .cell-status`);
  });

  await test('language switch: 繁體中文 sets ?lang=zh-TW and translates prose, checks and navigator; Back returns', async () => {
    await page.selectOption('#lang', 'zh-TW');
    await page.waitForFunction(() => location.search.includes('lang=zh-TW'));
    await page.waitForSelector(`${cell('grade')} ul.checks`, { timeout: 10000 });
    const r = await page.evaluate(() => ({
      h1: document.querySelector('.prose h1')?.textContent,
      check: document.querySelector('section.cell[data-cell="grade"] ul.checks li')?.textContent,
      nav: document.querySelector('nav a[data-lesson="M99"]')?.textContent,
      lang: document.documentElement.lang,
    }));
    assert(r.h1 === 'E2E 測試頁' && r.check.includes('答案是 42') && r.lang === 'zh-TW', JSON.stringify(r));
    await page.goBack();
    await page.waitForFunction(() => !location.search.includes('lang=zh-TW'));
    await page.waitForFunction(() => document.querySelector('.prose h1')?.textContent === 'E2E fixture', null, { timeout: 10000 });
  });

  await test('embed.html shows the lesson alone and posts its height to the parent', async () => {
    const msg = await page.evaluate(() => new Promise((resolve, reject) => {
      const frame = document.createElement('iframe');
      frame.style.cssText = 'width:700px;height:200px';
      window.addEventListener('message', (e) => {
        if (e.data?.type === 'pt2e-embed-height' && e.source === frame.contentWindow && e.data.height > 400) resolve(e.data);
      });
      setTimeout(() => reject(new Error('no height message with height > 400 within 15 s')), 15000);
      frame.src = 'embed.html?lesson=M99&lang=zh-TW';
      document.body.append(frame);
    }));
    const f = page.frames().find((x) => x.url().includes('embed.html'));
    await f.waitForSelector(`${cell('grade')} ul.checks`, { timeout: 10000 });
    const r = await f.evaluate(() => ({ nav: !!document.querySelector('nav'), cells: document.querySelectorAll('section.cell').length, h1: document.querySelector('.prose h1')?.textContent }));
    assert(msg.lesson === 'M99' && !r.nav && r.cells === 4 && r.h1 === 'E2E 測試頁', JSON.stringify({ msg, r }));
    return `height ${msg.height}`;
  });

  await test('a shared URL restores lesson, cell and control values; dragging writes them into the URL', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    try {
      const p = await context.newPage();
      p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
      p.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
      // 1. A link someone shared: M01 in 繁體中文 at cell A, its histogram's range pulled in to [0.25, 2.5].
      await p.goto(`${server.url}?lesson=M01&lang=zh-TW&cell=A&v.A.0=range:0.25,2.5`);
      await p.waitForFunction(() => window.pt2e?.lesson?.cells?.[1]?.section.querySelector('ul.checks'), null, { timeout: 30000 });
      const opened = await p.evaluate(() => {
        const a = window.pt2e.lesson.cells[0];
        const v = a.views[0];
        const top = a.section.getBoundingClientRect().top;
        return { current: [...document.querySelectorAll('section.cell.current')].map((s) => s.dataset.cell), top,
          lang: document.documentElement.lang, controls: v.controls(), readout: v.readout(), url: location.search };
      });
      assert(opened.current.join() === 'A' && opened.lang === 'zh-TW' && Math.abs(opened.top) < 80, `cell: ${JSON.stringify(opened)}`);
      assert(opened.controls.range[0] === 0.25 && opened.controls.range[1] === 2.5, `controls: ${JSON.stringify(opened.controls)}`);
      // The readout is the engine's for that range: MinMaxObserver's qparams of [0.25, 2.5] and SQNR of the values fake-quantized with them.
      const expected = await p.evaluate(() => {
        const { pt } = window.pt2e;
        const values = Array.from(window.pt2e.lesson.cells[0].views[0].spec.values);
        return pt.scope(() => {
          const obs = new pt.MinMaxObserver({ dtype: 'int8', quant_min: -128, quant_max: 127 });
          obs.forward(pt.tensor([0.25, 2.5], [2]));
          const qp = obs.calculate_qparams();
          const x = pt.tensor(values, [values.length]);
          const y = pt.fake_quantize_per_tensor_affine(x, qp.scale[0], qp.zero_point[0], -128, 127);
          return { sqnr: pt.sqnr(x, y), scale: qp.scale[0], zero_point: qp.zero_point[0] };
        });
      });
      const r = opened.readout;
      assert(r && r.scale === expected.scale && r.zero_point === expected.zero_point && Math.abs(r.sqnr / expected.sqnr - 1) < 1e-6 && r.clipped > 0,
        `restored readout ${JSON.stringify(r)} vs the engine's ${JSON.stringify(expected)}`);
      // 2. The learner drags the range's max end: the URL follows (replaceState), then reopens as it was.
      const loc = p.locator('section.cell[data-cell="A"] canvas.view');
      await loc.scrollIntoViewIfNeeded();
      const box = await loc.boundingBox();
      const frames = () => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      let x = null;
      for (let px = box.x + box.width - 10; px > box.x + box.width / 2 && x === null; px -= 3) {
        await p.mouse.move(px, box.y + box.height * 0.55);
        await frames();
        if (await loc.evaluate((c) => c.style.cursor) === 'ew-resize') x = px;
      }
      assert(x !== null, 'no draggable range end found in cell A\'s histogram');
      await p.mouse.down();
      await p.mouse.move(x - 40, box.y + box.height * 0.55, { steps: 6 });
      await p.mouse.up();
      await p.waitForFunction(() => /[?&]v\.A\.0=range:/.test(location.search) && !location.search.includes('range:0.25,2.5'), null, { timeout: 3000 });
      const dragged = await p.evaluate(() => ({ url: location.search, controls: window.pt2e.lesson.cells[0].views[0].controls(), readout: window.pt2e.lesson.cells[0].views[0].readout() }));
      const p2 = await context.newPage();
      await p2.goto(`${server.url}${dragged.url}`);
      await p2.waitForFunction(() => window.pt2e?.lesson?.cells?.[1]?.section.querySelector('ul.checks'), null, { timeout: 30000 });
      const reopened = await p2.evaluate(() => ({ controls: window.pt2e.lesson.cells[0].views[0].controls(), readout: window.pt2e.lesson.cells[0].views[0].readout() }));
      assert(JSON.stringify(reopened.controls.range.map(Math.fround)) === JSON.stringify(dragged.controls.range.map(Math.fround))
        && reopened.readout.sqnr === dragged.readout.sqnr, `reopened ${JSON.stringify(reopened)} vs dragged ${JSON.stringify(dragged)}`);
      // 3. Running another cell makes it the URL's cell; a link with values that do not parse still opens.
      await p.click('section.cell[data-cell="B"] button.run');
      await p.waitForFunction(() => new URLSearchParams(location.search).get('cell') === 'B');
      await p2.goto(`${server.url}?lesson=M01&cell=%3Cb%3E&v.A.0=range:x,1&v.A.7=range:1,2`);
      await p2.waitForFunction(() => window.pt2e?.lesson?.cells?.[1]?.section.querySelector('ul.checks li'), null, { timeout: 30000 });
      const bad = await p2.evaluate(() => ({ failed: document.querySelectorAll('ul.checks li.fail, .error-box').length, current: document.querySelectorAll('section.cell.current').length }));
      assert(bad.failed === 0 && bad.current === 0, `a link with bad values: ${JSON.stringify(bad)}`);
      return `${dragged.url}`;
    } finally {
      await context.close();
    }
  });

  await test('embed.html?cell=B shows that cell alone after running the lesson; answers the documented height request and ignores other messages', async () => {
    const r = await page.evaluate(() => new Promise((resolve, reject) => {
      const frame = document.createElement('iframe');
      frame.style.cssText = 'width:700px;height:200px';
      const heights = [];
      window.addEventListener('message', (e) => { if (e.source === frame.contentWindow && e.data?.type === 'pt2e-embed-height') heights.push(e.data.height); });
      setTimeout(() => reject(new Error('embed did not become ready within 20 s')), 20000);
      frame.src = 'embed.html?lesson=M01&cell=B';
      document.body.append(frame);
      const poll = setInterval(() => {
        const w = frame.contentWindow;
        if (!w?.pt2e?.lesson || !w.document.querySelector('section.cell ul.checks')) return;
        clearInterval(poll);
        const n = heights.length;
        w.postMessage({ type: 'pt2e-embed-navigate', lesson: 'M02-1' }, '*');   // not a documented message
        w.postMessage('<img src=x onerror=alert(1)>', '*');
        w.postMessage({ type: 'pt2e-embed-height-request' }, '*');
        setTimeout(() => {
          resolve({ cells: [...w.document.querySelectorAll('section.cell')].map((s) => s.dataset.cell),
            passed: w.document.querySelectorAll('ul.checks li.pass').length, failed: w.document.querySelectorAll('ul.checks li.fail').length,
            answered: heights.length > n, url: w.location.search, lesson: w.document.querySelector('section.cell')?.dataset.cell });
          frame.remove();
        }, 500);
      }, 100);
    }));
    assert(r.cells.join() === 'B' && r.passed > 0 && r.failed === 0 && r.answered && r.url.includes('lesson=M01'), JSON.stringify(r));
    return `cell ${r.cells.join()}, ${r.passed} checks passed, height request answered`;
  });

  await test('navigator: each lesson shows the checks passed when it last ran, kept in this browser only', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    try {
      const p = await context.newPage();
      p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
      await p.goto(`${server.url}?lesson=M02-1`);
      await p.waitForFunction(() => window.pt2e?.lesson && [...document.querySelectorAll('section.cell')].every((s) => s.querySelector('ul.checks, .error-box')), null, { timeout: 30000 });
      const ran = await p.evaluate(() => ({ passed: document.querySelectorAll('ul.checks li.pass').length,
        total: document.querySelectorAll('ul.checks li').length + document.querySelectorAll('section.cell .error-box').length }));
      const badge = () => p.evaluate(() => ({ m021: document.querySelector('nav a[data-lesson="M02-1"] .progress')?.textContent ?? null,
        m01: document.querySelector('nav a[data-lesson="M01"] .progress')?.textContent ?? null }));
      const first = await badge();
      // The exercise cell starts from code that fails its grade: the badge counts the learner's checks as they are.
      assert(first.m021 === `${ran.passed}/${ran.total}` && ran.passed < ran.total && first.m01 === null, `after M02-1: ${JSON.stringify({ first, ran })}`);
      await p.goto(server.url);
      await p.waitForSelector('nav a[data-lesson="M02-1"]');
      const again = await badge();
      assert(again.m021 === first.m021, `after a reload: ${JSON.stringify(again)}`);
      const other = await browser.newContext();
      const q = await other.newPage();
      await q.goto(server.url);
      await q.waitForSelector('nav a[data-lesson="M02-1"]');
      const elsewhere = await q.evaluate(() => document.querySelectorAll('nav .progress').length);
      await other.close();
      assert(elsewhere === 0, `another browser profile shows ${elsewhere} badges`);
      return `M02-1 ${first.m021} (its exercise unsolved), kept across a reload`;
    } finally {
      await context.close();
    }
  });

  await test('a prediction: asked before the results show, answered, revealed and marked, counted, kept across a reload', async () => {
    // What M01's cells reveal, from the headless runner: the page must mark the learner's answers against these.
    const m01 = await loadLesson('M01', readRepoText);
    const revealed = Object.fromEntries(runLesson(await loadEngine(), m01, { lang: 'en' }).map((r) => [r.cell, r.revealed]));
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    try {
      const p = await context.newPage();
      p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
      await p.goto(`${server.url}?lesson=M01`);
      const lastCell = m01.cells.at(-1).id;
      await p.waitForSelector(`section.cell[data-cell="${lastCell}"] ul.checks`, { timeout: 30000 });
      const boxState = (cell) => p.evaluate((c) => {
        const sec = document.querySelector(`section.cell[data-cell="${c}"]`);
        const box = sec.querySelector('.prediction');
        return { state: box?.dataset.state ?? null, veiled: sec.querySelector('.cell-results').classList.contains('veiled'),
          verdict: box?.querySelector('.verdict').textContent ?? '', value: box?.querySelector('input')?.value ?? null };
      }, cell);
      const before = await boxState('A');
      assert(before.state === 'asked' && before.veiled, `before answering: ${JSON.stringify(before)}`);
      // A: the right number; B: one off.
      await p.fill('section.cell[data-cell="A"] .prediction input', String(revealed.A));
      await p.click('section.cell[data-cell="A"] .prediction button.commit');
      await p.fill('section.cell[data-cell="B"] .prediction input', String(revealed.B + 1));
      await p.click('section.cell[data-cell="B"] .prediction button.commit');
      const a = await boxState('A'), b = await boxState('B');
      assert(a.state === 'right' && !a.veiled && a.verdict.includes(String(revealed.A)), `A after answering: ${JSON.stringify(a)}`);
      assert(b.state === 'off' && !b.veiled && b.verdict.includes(String(revealed.B)), `B after answering: ${JSON.stringify(b)}`);
      assert(new URL(p.url()).searchParams.get('pr.A') === String(revealed.A), `URL: ${p.url()}`);
      const counted = await p.evaluate(() => ({ badge: document.querySelector('nav a[data-lesson="M01"] .progress')?.textContent ?? null,
        passed: document.querySelectorAll('ul.checks li.pass').length, total: document.querySelectorAll('ul.checks li').length }));
      assert(counted.badge === `${counted.passed + 1}/${counted.total + 2}`, `progress: ${JSON.stringify(counted)}`);
      // A reload of the plain lesson URL: the answers come back from this browser's storage.
      await p.goto(`${server.url}?lesson=M01`);
      await p.waitForSelector(`section.cell[data-cell="${lastCell}"] ul.checks`, { timeout: 30000 });
      const a2 = await boxState('A'), b2 = await boxState('B');
      assert(a2.state === 'right' && !a2.veiled && a2.value === String(revealed.A) && b2.state === 'off', `after a reload: ${JSON.stringify({ a2, b2 })}`);
      return `M01 A answered ${revealed.A} (right), B ${revealed.B + 1} (off by one), badge ${counted.badge}, both kept across a reload`;
    } finally {
      await context.close();
    }
  });

  await test('offline after a first visit: the browser set offline still opens M01 and runs its cells (service worker)', async () => {
    const m01 = await loadLesson('M01', readRepoText);
    const lastCell = m01.cells.at(-1).id;
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    try {
      const p = await context.newPage();
      p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
      p.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
      await p.goto(`${server.url}?lesson=M01`);
      await p.waitForSelector(`section.cell[data-cell="${lastCell}"] ul.checks`, { timeout: 30000 });
      // The worker installed (its cache filled) and controls the page.
      const version = await p.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        for (let i = 0; i < 200 && !navigator.serviceWorker.controller; i++) await new Promise((r) => setTimeout(r, 50));
        const names = await caches.keys();
        return { active: !!reg.active, controlled: !!navigator.serviceWorker.controller, caches: names };
      });
      assert(version.active && version.controlled && version.caches.some((n) => n.startsWith('pt2e-')), `service worker: ${JSON.stringify(version)}`);
      await context.setOffline(true);
      const offlineFailures = [];
      p.on('requestfailed', (r) => offlineFailures.push(new URL(r.url()).pathname));
      await p.goto(`${server.url}?lesson=M01&lang=en`);
      await p.waitForSelector(`section.cell[data-cell="${lastCell}"] ul.checks`, { timeout: 30000 });
      const r = await p.evaluate(() => ({ passed: document.querySelectorAll('ul.checks li.pass').length, failed: document.querySelectorAll('ul.checks li.fail, .error-box').length,
        online: navigator.onLine }));
      // And a lesson not opened online (precached at install): M02-1's first cell runs too.
      await p.goto(`${server.url}?lesson=M02-1`);
      await p.waitForSelector('section.cell[data-cell="A"] ul.checks', { timeout: 30000 });
      const other = await p.evaluate(() => document.querySelectorAll('section.cell[data-cell="A"] ul.checks li.pass').length);
      assert(!r.online && r.passed > 0 && r.failed === 0, `offline M01: ${JSON.stringify(r)}`);
      assert(other > 0, 'offline M02-1: cell A has no passed check');
      return `cache ${version.caches.join(', ')}; offline: M01 ${r.passed} checks passed, M02-1 A ran (never opened online)${offlineFailures.length ? `; failed requests: ${[...new Set(offlineFailures)].join(' ')}` : ''}`;
    } finally {
      await context.close();
    }
  });

  // Filled by the next test, as it opens every page in both languages; checked right after it.
  const proseIssues = [];
  let proseBlocks = 0;
  await test('every written lesson passes every check in the browser, as in the headless runner, and draws every view', async () => {
    const nodePt = await loadEngine();
    const ids = writtenLessons(await loadIndex(readRepoText));
    const viewsSeen = {};
    let total = 0;
    const diffs = [];
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
        // Exercise cells show the learner's starting code; run the reference solution, as the runner does.
        const browser = await page.evaluate(async (where) => {
          const lessonPage = window.pt2e.lesson;
          if (!lessonPage) throw new Error(`${where}: no lesson page after navigate (main says: ${document.querySelector('main').textContent.slice(0, 200)})`);
          for (const c of lessonPage.cells) if (c.cell.exercise) c.setCode(c.cell.solution);
          await lessonPage.runAll();
          return [...document.querySelectorAll('section.cell')].flatMap((sec) => [
            ...[...sec.querySelectorAll('ul.checks li')].map((li) => `${sec.dataset.cell} ${li.className}: ${li.querySelector('.msg').textContent}`),
            ...[...sec.querySelectorAll('.error-box')].map((e) => `${sec.dataset.cell} error: ${e.textContent.replace(/  \(line \d+\)$/, '')}`)]);
        }, `${id} [${lang}]`);
        total += browser.length;
        const failed = browser.filter((line) => !/^\S+ pass: /.test(line));
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
        const a = headless.join('\n'), b = browser.join('\n');
        if (a !== b) {
          const i = headless.findIndex((x, k) => x !== browser[k]);
          diffs.push(`${id} [${lang}] #${i}: node "${headless[i]}" vs browser "${browser[i]}"`);
        }
      }
    }
    assert(!diffs.length, diffs.slice(0, 3).join(' | '));
    assert(viewsSeen.graph > 0, `no graph view in any lesson: ${JSON.stringify(viewsSeen)}`);
    return `${ids.length} lessons x ${LANGS.length} languages, ${total} checks alike, all passed; views drawn and not blank: ${Object.entries(viewsSeen).map(([k, v]) => `${v} ${k}`).join(', ')}`;
  });

  await test('rendered prose: no raw ** and no space between two CJK characters on any page, in either language', async () => {
    assert(proseBlocks > 0, 'no prose block was read');
    assert(!proseIssues.length, `${proseIssues.length} problems: ${proseIssues.slice(0, 3).join(' | ')}`);
    return `${proseBlocks} prose blocks read`;
  });

  // Printed, not asserted (timings are measured, never tested): a fresh browser context (empty cache)
  // opens ?lesson=M01 and waits until the last of its cells has run and shown its checks; three such
  // cold loads, min and median. The page is polled every animation frame (waitForSelector backs off
  // to 500 ms between polls, which would add up to half a second). tests/e2e/startup.js profiles it.
  await test('time to the first interactive lesson (M01, cold cache) is printed', async () => {
    const index = JSON.parse(await readRepoText('lessons/M01/lesson.json'));
    const last = index.cells[index.cells.length - 1].id;
    const times = [];
    let phases = '';
    for (let run = 0; run < 3; run++) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
      try {
        const fresh = await context.newPage();
        const scripts = [];
        fresh.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname); });
        fresh.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
        fresh.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
        const t0 = Date.now();
        await fresh.goto(`${server.url}?lesson=M01`);
        await fresh.waitForFunction((sel) => !!document.querySelector(sel), `section.cell[data-cell="${last}"] ul.checks`, { polling: 'raf', timeout: 30000 });
        times.push(Date.now() - t0);
        // The prose comes rendered (scripts/bundle.js): markdown-it and KaTeX's scripts are not loaded.
        const renderer = scripts.filter((p) => /markdown|katex/i.test(p));
        assert(renderer.length === 0 && scripts.includes('/web/bundle/shell.js'), `scripts loaded: ${scripts.join(' ')}`);
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
    return `min ${sorted[0]} ms, median ${sorted[1]} ms of ${times.length} cold loads [${times.join(', ')}] from navigation to M01's last cell checked (goal < 1500 ms; no prose renderer loaded); first load: ${phases}`;
  });

  await test('no console errors', async () => {
    assert(consoleErrors.length === 0, consoleErrors.slice(0, 3).join(' | '));
  });
  await test('no request to any origin but the site\'s own', async () => {
    assert(requestCount > 0, 'no request recorded at all');
    assert(foreignRequests.length === 0, foreignRequests.slice(0, 3).join(' '));
    return `${requestCount} requests, all to ${origin}`;
  });
} catch (e) {
  record('e2e run', false, e.message.split('\n')[0]);
} finally {
  await browser.close();
  await server.close();
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
