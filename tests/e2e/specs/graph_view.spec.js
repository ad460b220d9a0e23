// graph_view.spec.js — the graph view on the home page: the residual block at export | prepare | convert, laid out
// in layers without overlaps and with edges going down; hover names a node (an observer's qparams), a click selects
// it, show_params: false and focus; ctrl + wheel zooms, a plain wheel scrolls; bad graphs raise ValueError.
import path from 'node:path';
import { detail, diffPixels, expect, frames, sharedPage, outDir, pixelStats, test } from '../fixtures.js';

let page;
sharedPage('', (p) => { page = p; });

test('graph view: residual block at export | prepare (| convert), layered without overlaps, edges downward', async () => {
  const r = await page.evaluate(() => {
    const { pt } = window.pt2e;
    const stages = pt.scope(() => {
      pt.manual_seed(0);
      const m = pt.get_model('residual');
      const gm = pt.export(m, [pt.randn([2, ...m.input_shape])]);
      const q = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
      const prepared = pt.prepare_pt2e(gm, q);
      prepared.forward(pt.randn([2, ...m.input_shape]));
      const graphs = [['export', gm], ['prepare', prepared], ['convert', pt.convert_pt2e(prepared)]];
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
  await frames(page, 3);
  const st = await pixelStats(page, await page.locator('#e2e-graph').screenshot({ path: path.join(outDir, 'graph.png') }));
  expect(st.colours).toBeGreaterThanOrEqual(8);
  expect(st.topShare).toBeLessThan(0.97);
  expect(r[1].observers, 'observers in prepare').toBeGreaterThan(0);
  expect(r[0].observers, 'observers at export').toBe(0);
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
  expect(bad.out).toEqual([]);
  for (const c of bad.crossings) expect(c, 'edge crossings per stage').toBeLessThanOrEqual(2);
  detail(`nodes ${r.map((x) => x.nodes).join(' | ')}, observers in prepare ${r[1].observers}, crossings ${bad.crossings}`);
});

test("graph view: hover names a node and shows an observer's qparams, a click selects it, show_params: false hides parameters, focus keeps k hops", async () => {
  const canvas = page.locator('#e2e-graph');
  const cb = await canvas.boundingBox();
  const target = await page.evaluate(() => {
    const s = window.e2eGraph.graphState();
    const nodes = window.e2eStages[0].nodes;
    const b = s.stages[0].boxes.find((x) => nodes[x.index].op === 'call_function' && nodes[x.index].target.includes('relu'));
    return { name: nodes[b.index].name, x: s.screen_x + (b.x + b.w / 2) * s.zoom, y: s.screen_y + (b.y + b.h / 2) * s.zoom };
  });
  await page.mouse.move(cb.x + target.x, cb.y + target.y);
  await page.waitForFunction((n) => window.e2eGraph.graphState().hovered === n, target.name);
  await page.mouse.click(cb.x + target.x, cb.y + target.y);
  await page.waitForFunction((n) => window.e2eGraph.graphState().selected === n, target.name);
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
  expect(obs.name, `an observer of the prepare stage in view: ${JSON.stringify(obs)}`).toBeTruthy();
  await page.mouse.move(cb.x + obs.x, cb.y + obs.y);
  await page.waitForFunction((n) => window.e2eGraph.graphState().hovered === n, obs.name);
  await frames(page, 2);
  const withTip = await canvas.screenshot({ path: path.join(outDir, 'graph-hover-qparams.png') });
  await page.mouse.move(cb.x + 4, cb.y + cb.height - 4);
  await page.waitForFunction(() => window.e2eGraph.graphState().hovered === '');
  await frames(page, 2);
  const noTip = await canvas.screenshot();
  const tipPixels = await diffPixels(page, withTip, noTip);
  expect(obs.details?.[0] ?? '').toMatch(/^qparams: scale=\S+ zp=-?\d+( \(per-channel, n=\d+\))?$/);
  expect(tipPixels, `pixels changed by hovering ${obs.name}`).toBeGreaterThan(200);
  const qdq = await page.evaluate(() => (window.e2eStages[2]?.nodes ?? []).filter((n) => /quantize_per_tensor/.test(n.target)).map((n) => n.details[0]));
  expect(qdq.length).toBeGreaterThan(0);
  for (const d of qdq) expect(d).toMatch(/^qparams: scale=\S+ zp=-?\d+, int8 \[-128, 127\]$/);
  const withoutParams = await page.evaluate(() => {
    window.e2eGraph.update({ view: 'graph', stages: window.e2eStages, show_params: false });
    return new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => res(window.e2eGraph.graphState().stages.map((s) => s.boxes.length)))));
  });
  const expected = await page.evaluate(() => window.e2eStages.map((s) => s.nodes.filter((n) => n.op !== 'get_attr').length));
  expect(withoutParams, 'boxes with show_params: false').toEqual(expected);
  await canvas.screenshot({ path: path.join(outDir, 'graph-no-params.png') });
  expect(await page.evaluate((n) => window.e2eStages[1].nodes.some((x) => x.name === n), target.name), `${target.name} in the prepare stage`).toBe(true);
  const focused = await page.evaluate((n) => {
    window.e2eGraph.update({ view: 'graph', stages: window.e2eStages.slice(0, 1), focus: [n], hops: 1 });
    return new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => res(window.e2eGraph.graphState().stages[0].boxes.length))));
  }, target.name);
  const all = await page.evaluate(() => window.e2eStages[0].nodes.length);
  expect(focused, `focus on ${target.name} with 1 hop`).toBeGreaterThanOrEqual(2);
  expect(focused).toBeLessThanOrEqual(4);
  expect(focused).toBeLessThan(all);
  detail(`${target.name}; ${obs.name} hover: ${obs.details[0]}; focus shows ${focused} of ${all}`);
});

test('graph view: ctrl + wheel zooms the view without scrolling the page; a plain wheel scrolls the page and leaves the zoom', async () => {
  await page.evaluate(() => window.scrollTo(0, 0));
  const cb = await page.locator('#e2e-graph').boundingBox();
  await page.mouse.move(cb.x + cb.width / 2, cb.y + cb.height / 2);
  const before = await page.evaluate(() => ({ zoom: window.e2eGraph.graphState().zoom, y: window.scrollY }));
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, 240);
  await page.keyboard.up('Control');
  await page.waitForFunction((z) => window.e2eGraph.graphState().zoom < z, before.zoom);
  const zoomed = await page.evaluate(() => ({ zoom: window.e2eGraph.graphState().zoom, y: window.scrollY }));
  expect(zoomed.y, 'page scroll after ctrl + wheel').toBe(before.y);
  const scrollable = await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight);
  await page.mouse.wheel(0, 240);
  if (scrollable) await page.waitForFunction((y) => window.scrollY > y, zoomed.y);
  await frames(page, 2);
  const after = await page.evaluate(() => ({ zoom: window.e2eGraph.graphState().zoom, y: window.scrollY }));
  expect(after.zoom, 'zoom after a plain wheel').toBe(zoomed.zoom);
  await page.evaluate(() => window.scrollTo(0, 0));
  detail(`zoom ${before.zoom.toFixed(3)} → ${zoomed.zoom.toFixed(3)} with ctrl; page scrolled ${after.y - zoomed.y} px by a plain wheel`);
});

test('graph view: edges to unknown nodes, cycles and bad focus raise ValueError naming them', async () => {
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
  expect(errs[0]).toMatch(/^ValueError.*zz is not a node/);
  expect(errs[1]).toMatch(/^ValueError.*cycle/);
  expect(errs[2]).toMatch(/^ValueError.*two nodes are named 'a'/);
  expect(errs[3]).toMatch(/^ValueError.*'nope'/);
});
