// views.spec.js — the Dear ImGui views on the home page: drawn and not blank, no busy loop, one context per canvas
// with input routed to its own view (hover, a fast click), typed errors for bad data, line and bar charts, a graph
// coloured by a per-node metric, a line chart that grows, a histogram range dragged (SQNR / clipped readout,
// onControls, setControls), a missing canvas, lazy views.
import path from 'node:path';
import { detail, diffPixels, expect, frames, sharedPage, outDir, pixelStats, test } from '../fixtures.js';

let page;
sharedPage('', (p) => { page = p; });

const addCanvas = (id, style = '') => page.evaluate(([i, s]) => {
  const c = document.createElement('canvas');
  c.className = 'view';
  c.id = i;
  if (s) c.style.cssText = s;
  document.querySelector('#main').prepend(c);
}, [id, style]);

test('histogram canvas is not blank', async () => {
  const png = await page.locator('canvas.view').first().screenshot({ path: path.join(outDir, 'home-view.png') });
  await page.screenshot({ path: path.join(outDir, 'home.png') });
  const s = await pixelStats(page, png);
  expect(s.colours, 'distinct colours').toBeGreaterThanOrEqual(8);
  expect(s.topShare, 'share of the most common colour').toBeLessThan(0.95);
  detail(`${s.colours} colours`);
});

test('an idle view draws no frames (no busy loop)', async () => {
  const a = await page.evaluate(() => window.pt2e.demo.framesDrawn());
  await frames(page, 36);  // ~0.6 s of animation frames with nothing to draw
  const b = await page.evaluate(() => window.pt2e.demo.framesDrawn());
  expect(b, 'frames drawn while idle').toBe(a);
});

test('a second canvas gets its own context; hover reaches only that view', async () => {
  await addCanvas('e2e-second');
  await page.evaluate(() => {
    const counts = Array.from({ length: 20 }, (_, i) => 10 + ((i * 7) % 13));
    window.e2eSecond = window.pt2e.views.mount(document.getElementById('e2e-second'), { view: 'histogram', title: 'second', lo: 0, hi: 20, counts, range: { min: 4, max: 15, label: 'range' }, clipped: 0.25 });
  });
  const second = page.locator('#e2e-second');
  await page.waitForFunction(() => window.e2eSecond.framesDrawn() > 0);
  await frames(page, 3);
  const quiet = await second.screenshot();
  const box = await second.boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.6);
  await page.waitForFunction(() => window.e2eSecond.hoveredItem() >= 0);
  await frames(page, 3);
  const hovered = await second.screenshot({ path: path.join(outDir, 'second-hover.png') });
  const bins = await page.evaluate(() => [window.e2eSecond.hoveredItem(), window.pt2e.demo.hoveredItem()]);
  expect(bins[0], "second view's hovered bin (near the middle)").toBeGreaterThanOrEqual(8);
  expect(bins[0]).toBeLessThanOrEqual(11);
  expect(bins[1], 'the home view reports no hovered bin').toBe(-1);
  const changed = await diffPixels(page, quiet, hovered);
  expect(changed, 'pixels changed on hover (a tooltip)').toBeGreaterThan(50);
  detail(`bin ${bins[0]}, ${changed} pixels changed`);
});

test('a fast click (down + up before the next frame) selects a bin; a second click clears it', async () => {
  const box = await page.locator('#e2e-second').boundingBox();
  await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.6);
  await page.waitForFunction(() => window.e2eSecond.selectedItem() >= 0);
  const first = await page.evaluate(() => window.e2eSecond.selectedItem());
  expect(first, 'selected bin near 20% of the width').toBeGreaterThanOrEqual(2);
  expect(first).toBeLessThanOrEqual(5);
  await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.6);
  await page.waitForFunction(() => window.e2eSecond.selectedItem() === -1);
  expect(await page.evaluate(() => window.pt2e.demo.selectedItem()), 'the home view got the click too').toBe(-1);
  detail(`selected bin ${first}`);
});

test('bad view data throws a typed error and the view keeps its data', async () => {
  const r = await page.evaluate(() => {
    const out = [];
    for (const bad of [{ view: 'histogram', lo: 1, hi: 0, counts: [1] }, { view: 'histogram', lo: 0, hi: 1, counts: [1, -2] },
      { view: 'nope' }, { view: 'histogram', lo: 0, hi: 1, counts: 'abc' }]) {
      try { window.e2eSecond.update(bad); out.push('no error'); } catch (e) { out.push(`${e.name}: ${e.message}`); }
    }
    return { out, title: window.e2eSecond.spec.title };
  });
  expect(r.out[0]).toMatch(/^ValueError.*'lo' and 'hi'/);
  expect(r.out[1]).toMatch(/^ValueError.*counts\[1\]/);
  expect(r.out[2]).toMatch(/^ValueError.*unknown view/);
  expect(r.out[3]).toMatch(/^(TypeError|ValueError)/);
  expect(r.title, 'spec after errors').toBe('second');
});

test('line and bar charts draw, report the hovered point / group, and reject bad data by field', async () => {
  await addCanvas('e2e-line');
  await addCanvas('e2e-bar');
  await page.evaluate(() => {
    const y = Array.from({ length: 50 }, (_, i) => Math.sin(i / 5));
    window.e2eLine = window.pt2e.views.mount(document.getElementById('e2e-line'), { view: 'line', x_label: 'batch', y_label: 'min_val',
      series: [{ name: 'MinMax', y }, { name: 'MovingAverage', y: y.map((v) => v / 2) }], marks: [{ x: 10, label: 'spike' }] });
    window.e2eBar = window.pt2e.views.mount(document.getElementById('e2e-bar'), { view: 'bar', y_label: 'SQNR (dB)',
      labels: ['conv1', 'conv2', 'conv3', 'fc'], series: [{ name: 'per-tensor', values: [30, 25, -5, 40] }, { name: 'per-channel', values: [35, 33, 10, NaN] }] });
  });
  await page.waitForFunction(() => window.e2eLine.framesDrawn() > 0 && window.e2eBar.framesDrawn() > 0);
  await frames(page, 3);
  const got = {};
  for (const [id, key, handle, frac] of [['e2e-line', 'line', 'e2eLine', 0.5], ['e2e-bar', 'bar', 'e2eBar', 0.9]]) {
    const loc = page.locator(`#${id}`);
    const st = await pixelStats(page, await loc.screenshot({ path: path.join(outDir, `${id}.png`) }));
    expect(st.colours, `${id}: colours`).toBeGreaterThanOrEqual(8);
    expect(st.topShare, `${id}: top colour share`).toBeLessThan(0.95);
    const box = await loc.boundingBox();
    await page.mouse.move(box.x + box.width * frac, box.y + box.height * 0.5);
    await page.waitForFunction((h) => window[h].hoveredItem() >= 0, handle);
    got[key] = await page.evaluate((h) => window[h].hoveredItem(), handle);
    await frames(page, 3);
    await loc.screenshot({ path: path.join(outDir, `${id}-hover.png`) });
  }
  expect(got.line, 'line: hovered point near the middle of 50').toBeGreaterThanOrEqual(20);
  expect(got.line).toBeLessThanOrEqual(28);
  expect(got.bar, 'bar: hovered group (the last, fc)').toBe(3);
  const errs = await page.evaluate(() => {
    const out = [];
    for (const bad of [{ view: 'line', series: [] }, { view: 'line', series: [{ y: [1, 2], x: [1, 0] }] },
      { view: 'bar', labels: ['a'], series: [{ values: [1, 2] }] }, { view: 'bar', labels: ['a'], series: [{ values: ['x'] }] }]) {
      try { window.e2eBar.update(bad); out.push('no error'); } catch (e) { out.push(`${e.name}: ${e.message}`); }
    }
    window.e2eLine.destroy();
    window.e2eBar.destroy();
    return out;
  });
  expect(errs[0]).toMatch(/^ValueError: line chart.*'series'/);
  expect(errs[1]).toMatch(/^ValueError.*ascending/);
  expect(errs[2]).toMatch(/^ValueError.*2 values for 1 labels/);
  expect(errs[3]).toMatch(/^TypeError.*values\[0\] is not a number/);
  detail(`line point ${got.line}, bar group ${got.bar}`);
});

test('a graph view coloured by a per-node metric: nodes take the scale, a legend names it; a metric it cannot draw is a typed error', async () => {
  await addCanvas('e2e-metric', 'height: 420px');
  await addCanvas('e2e-plain', 'height: 420px');
  const names = await page.evaluate(() => {
    const { pt } = window.pt2e;
    const stage = pt.scope(() => {
      pt.manual_seed(0);
      const m = pt.get_model('conv_relu');
      return pt.export(m, [pt.randn([2, ...m.input_shape])]).graph_view();
    });
    window.e2eStage = stage;
    const ops = stage.nodes.filter((n) => n.kind === 'op').map((n) => n.name);
    const values = Object.fromEntries(ops.map((n, i) => [n, 20 + 25 * i]));
    window.e2eMetric = window.pt2e.views.mount(document.getElementById('e2e-metric'), { view: 'graph', ...stage, show_params: false, metric: { name: 'SQNR', unit: 'dB', values } });
    window.e2ePlain = window.pt2e.views.mount(document.getElementById('e2e-plain'), { view: 'graph', ...stage, show_params: false });
    return ops;
  });
  await page.waitForFunction(() => window.e2eMetric.framesDrawn() > 0 && window.e2ePlain.framesDrawn() > 0);
  await frames(page, 3);
  const coloured = await page.locator('#e2e-metric').screenshot({ path: path.join(outDir, 'graph-metric.png') });
  const plain = await page.locator('#e2e-plain').screenshot();
  const st = await pixelStats(page, coloured);
  expect(st.colours, 'colours').toBeGreaterThanOrEqual(8);
  expect(st.topShare).toBeLessThan(0.97);
  const changed = await diffPixels(page, plain, coloured);
  expect(changed, 'pixels the metric changes (fills and the legend)').toBeGreaterThan(300);
  const errs = await page.evaluate((ops) => {
    const out = [];
    const base = { view: 'graph', ...window.e2eStage };
    for (const metric of [{ name: 'SQNR', values: { nope: 1 } }, { name: 'SQNR', values: { [ops[0]]: Infinity } }, { values: { [ops[0]]: 1 } },
      { name: 'SQNR', values: { [ops[0]]: 'x' } }, { name: 'SQNR', values: 3 }]) {
      try { window.e2eMetric.update({ ...base, metric }); out.push('no error'); } catch (e) { out.push(`${e.name}: ${e.message}`); }
    }
    try {
      window.e2eMetric.update({ ...base, nodes: base.nodes.map((n, i) => (i === 1 ? { ...n, value: 3 } : n)) });
      out.push('no error');
    } catch (e) { out.push(`${e.name}: ${e.message}`); }
    const kept = window.e2eMetric.spec.metric?.name;
    window.e2eMetric.destroy();
    window.e2ePlain.destroy();
    return { out, kept };
  }, names);
  expect(errs.out[0]).toMatch(/^ValueError.*'nope', which is a node of no stage/);
  expect(errs.out[1]).toMatch(/^ValueError.*not finite/);
  expect(errs.out[2]).toMatch(/^ValueError.*'metric' needs a name/);
  expect(errs.out[3]).toMatch(/^TypeError.*metric\.values.*must be a number/);
  expect(errs.out[4]).toMatch(/^TypeError.*metric\.values must be an object/);
  expect(errs.out[5]).toMatch(/^ValueError.*a graph view colours nodes by its spec's metric/);
  expect(errs.kept, 'the view keeps its data after errors').toBe('SQNR');
  detail(`${names.length} ops coloured, ${changed} pixels changed by the metric`);
});

test('a line chart grows: update() with more points redraws it, as a training cell does', async () => {
  await addCanvas('e2e-grow');
  const spec = (n) => ({ view: 'line', x_label: 'step', y_label: 'loss', marks: [{ x: 20, label: 'lr 0.01' }],
    series: [{ name: 'cross_entropy', y: Array.from({ length: n }, (_, i) => 2.3 * Math.exp(-i / 15) + 0.1 * Math.sin(i)) }] });
  await page.evaluate((s) => { window.e2eGrow = window.pt2e.views.mount(document.getElementById('e2e-grow'), s); }, spec(5));
  await page.waitForFunction(() => window.e2eGrow.framesDrawn() > 0);
  await frames(page, 3);
  const loc = page.locator('#e2e-grow');
  const shots = [await loc.screenshot()];
  for (const n of [20, 40]) {
    const before = await page.evaluate(() => window.e2eGrow.framesDrawn());
    await page.evaluate((s) => window.e2eGrow.update(s), spec(n));
    await page.waitForFunction((b) => window.e2eGrow.framesDrawn() > b, before);
    await frames(page, 3);
    shots.push(await loc.screenshot({ path: path.join(outDir, `line-grow-${n}.png`) }));
  }
  const diffs = [await diffPixels(page, shots[0], shots[1]), await diffPixels(page, shots[1], shots[2])];
  expect(diffs[0], 'pixels changed, 5 -> 20 points').toBeGreaterThan(100);
  expect(diffs[1], 'pixels changed, 20 -> 40 points').toBeGreaterThan(100);
  expect(await page.evaluate(() => window.e2eGrow.spec.series[0].y.length)).toBe(40);
  await page.evaluate(() => window.e2eGrow.destroy());
  detail(`${diffs.join(' and ')} pixels changed as the chart grew to 20 and 40 points`);
});

test('dragging a histogram range handle changes the SQNR and clipped % readout; onControls fires; setControls rejects a bad range', async () => {
  await addCanvas('e2e-drag');
  const before = await page.evaluate(() => {
    const { pt } = window.pt2e;
    const values = pt.scope(() => { pt.manual_seed(0); return Array.from(pt.randn([20000]).data()); });
    const min = Math.min(...values), max = Math.max(...values), lo = -5, hi = 5;
    const counts = new Array(50).fill(0);
    for (const v of values) if (v >= lo && v <= hi) counts[Math.min(49, Math.floor((v - lo) / (hi - lo) * 50))] += 1;
    window.e2eDragSeen = [];
    window.e2eDrag = window.pt2e.views.mount(document.getElementById('e2e-drag'), { view: 'histogram', lo, hi, counts, values,
      range: { min, max, label: 'MinMaxObserver', draggable: true }, quant: { quant_min: -128, quant_max: 127, dtype: 'int8' } },
    { onControls: (ctl) => window.e2eDragSeen.push(ctl) });
    return { lo, hi, min, max };
  });
  await page.waitForFunction(() => window.e2eDrag.framesDrawn() > 0 && window.e2eDrag.readout() !== null);
  const r0 = await page.evaluate(() => window.e2eDrag.readout());
  expect(r0.clipped, "readout over the data's whole range: clipped").toBe(0);
  expect(r0.sqnr).toBeGreaterThan(30);
  // The max line's x on screen: estimated from the plot's place in the canvas, then found where the pointer
  // shows the resize cursor (the view's own hit test).
  const loc = page.locator('#e2e-drag');
  const box = await loc.boundingBox();
  const guess = box.x + 62 + (before.max - before.lo) / (before.hi - before.lo) * (box.width - 78);
  const y = box.y + box.height * 0.5;
  let x = null;
  for (const dx of [0, -2, 2, -4, 4, -6, 6, -8, 8, -10, 10, -13, 13, -16, 16]) {
    await page.mouse.move(guess + dx, y);
    await frames(page);
    if (await loc.evaluate((c) => c.style.cursor) === 'ew-resize') { x = guess + dx; break; }
  }
  expect(x, `a resize cursor near the max line (x ${guess.toFixed(0)} +- 16 px)`).not.toBeNull();
  const inward = (before.max - 1.5) / (before.hi - before.lo) * (box.width - 78);   // to about max = 1.5
  await page.mouse.down();
  await page.mouse.move(x - inward, y, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction((m) => window.e2eDrag.controls().range[1] < m - 1, before.max);
  await frames(page);
  await loc.screenshot({ path: path.join(outDir, 'histogram-drag.png') });
  const after = await page.evaluate(() => ({ controls: window.e2eDrag.controls(), readout: window.e2eDrag.readout(),
    seen: window.e2eDragSeen.length, last: window.e2eDragSeen.at(-1), spec: window.e2eDrag.spec.range }));
  const [min1, max1] = after.controls.range;
  expect(min1, 'min after the drag').toBe(before.min);
  expect(max1, 'max after the drag').toBeLessThan(before.max - 1);
  expect(max1).toBeGreaterThan(0.5);
  expect(after.readout.sqnr, 'SQNR changed').not.toBe(r0.sqnr);
  expect(after.readout.clipped, 'clipped after pulling max in').toBeGreaterThan(0);
  expect(after.seen, 'onControls calls').toBeGreaterThan(0);
  expect(after.last.range[1]).toBe(max1);
  expect(after.spec.max, "the handle's spec follows the drag").toBe(max1);
  expect(after.spec.draggable).toBe(true);
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
  expect(errs.out[0]).toMatch(/^ValueError.*'range'.*min < max|^ValueError.*min < max.*'range'/);
  expect(errs.out[1]).toMatch(/^ValueError.*'range'/);
  expect(errs.out[2]).toMatch(/^ValueError.*\[min, max\]/);
  expect(errs.out[3]).toMatch(/^TypeError/);
  expect(errs.out[4]).toMatch(/^TypeError/);
  expect(errs.set.controls.range).toEqual([-2, 2]);
  expect(errs.set.readout.sqnr).not.toBe(after.readout.sqnr);
  const f = (r) => `SQNR ${r.sqnr.toFixed(2)} dB, clipped ${(r.clipped * 100).toFixed(2)}%`;
  detail(`max ${before.max.toFixed(3)} -> ${max1.toFixed(3)}: ${f(r0)} -> ${f(after.readout)}; ${after.seen} onControls call(s)`);
});

// The integer-picture view (web/views/integer_picture_view.h): drawn, stepped with its ">" button (a control change
// the page hears through onControls), set by setControls, the readout following the chosen element.
test('integer picture: drawn, the > button steps to the next element, the readout follows', async () => {
  await addCanvas('e2e-int');
  await page.evaluate(() => {
    const elements = Array.from({ length: 6 }, (_, i) => {
      const inputs = [5 + i, -3, 7], weights = [2, -1, 3 - i], products = inputs.map((x, k) => (x - 1) * weights[k]);
      const accumulator = products.reduce((a, b) => a + b, 0), accumulator_with_bias = accumulator + 10;
      return { coords: [0, i], inputs, weights, products, accumulator, bias: 10, accumulator_with_bias, multiplier: 0.5,
        scaled: accumulator_with_bias * 0.5, output: Math.round(accumulator_with_bias * 0.5) - 3, reference: Math.round(accumulator_with_bias * 0.5) - 3 + (i === 2 ? 1 : 0) };
    });
    window.e2eIntSeen = [];
    window.e2eInt = window.pt2e.views.mount(document.getElementById('e2e-int'), { view: 'integer_picture', title: 'integer picture',
      node: 'linear', requantization: 'fp32', input_zero_point: 1, output_zero_point: -3, qmin: -128, qmax: 127, elements },
    { onControls: (c) => window.e2eIntSeen.push(c) });
    window.e2eIntElements = elements;
  });
  const loc = page.locator('#e2e-int');
  await page.waitForFunction(() => window.e2eInt.framesDrawn() > 0);
  await frames(page, 3);
  const png = await loc.screenshot({ path: path.join(outDir, 'integer-picture.png') });
  const s = await pixelStats(page, png);
  expect(s.colours, 'distinct colours').toBeGreaterThanOrEqual(6);
  expect(s.topShare, 'share of the most common colour').toBeLessThan(0.97);
  expect(await page.evaluate(() => window.e2eInt.readout().element)).toBe(0);
  const box = await loc.boundingBox();
  for (const dx of [40, 36, 44, 32, 48]) {   // the ">" button, right of "<" at the top left
    await page.mouse.click(box.x + dx, box.y + 18);
    await frames(page, 2);
    if (await page.evaluate(() => window.e2eInt.controls().element[0] !== 0)) break;
  }
  const after = await page.evaluate(() => ({ controls: window.e2eInt.controls(), readout: window.e2eInt.readout(), seen: window.e2eIntSeen.length }));
  expect(after.controls.element, 'the > button moved to element 1').toEqual([1]);
  expect(after.readout.element).toBe(1);
  expect(after.seen, 'onControls calls').toBeGreaterThan(0);
  const set = await page.evaluate(() => {
    window.e2eInt.setControls({ element: [2] });
    const r = window.e2eInt.readout();
    let err = 'no error';
    try { window.e2eInt.setControls({ element: [6] }); } catch (e) { err = `${e.name}: ${e.message}`; }
    return { r, err, want: window.e2eIntElements[2] };
  });
  expect(set.r.accumulator).toBe(set.want.accumulator);
  expect(set.r.diff, 'element 2 differs from its reference by one code').toBe(-1);
  expect(set.err).toMatch(/^ValueError.*'element'/);
  detail(`${s.colours} colours; element 0 -> 1 by the button, readout accumulator ${set.r.accumulator}`);
});

// The X86 path's float output stage (requantization 'f32_output'): conv_relu lowered for x86, whose conv writes float32
// with the relu fused. The view draws a strip of floats and the float chain; its readout is the lowered model's float.
test('integer picture: a float-output conv (f32_output) is drawn, its readout the lowered model\'s float', async () => {
  await addCanvas('e2e-int-f32', 'height: 420px');
  const want = await page.evaluate(() => {
    const { pt } = window.pt2e;
    const { spec, y } = pt.scope(() => {
      pt.manual_seed(0);
      const m = pt.get_model('conv_relu');
      const prepared = pt.prepare_pt2e(pt.export(m, pt.example_inputs(4)), new pt.X86InductorQuantizer().set_global(pt.get_default_x86_inductor_quantization_config()));
      for (const { x } of pt.calibration_batches({ n: 16, batch_size: 4 })) prepared.forward(x);
      const lowered = pt.lower(pt.convert_pt2e(prepared), 'x86');
      const x = pt.example_inputs(1)[0];
      const pics = Array.from({ length: 12 }, (_, i) => pt.integer_picture(lowered, 'conv2d', x, { index: 40 + i }));
      const fields = ['inputs', 'weights', 'products', 'accumulator', 'multiplier', 'scaled', 'bias_f32', 'output_f32'];
      return { y: Array.from(lowered.forward(x).data().slice(40, 52)), spec: { view: 'integer_picture', title: 'float output stage',
        node: pics[0].node, requantization: pics[0].requantization, relu: pics[0].relu, input_zero_point: pics[0].input_zero_point,
        elements: pics.map((p) => ({ coords: p.output_coords, ...Object.fromEntries(fields.map((f) => [f, p[f]])) })) } };
    });
    window.e2eIntF32 = window.pt2e.views.mount(document.getElementById('e2e-int-f32'), spec);
    return { y, requantization: spec.requantization, relu: spec.relu };
  });
  expect([want.requantization, want.relu]).toEqual(['f32_output', true]);
  await page.waitForFunction(() => window.e2eIntF32.framesDrawn() > 0);
  await frames(page, 3);
  const png = await page.locator('#e2e-int-f32').screenshot({ path: path.join(outDir, 'integer-picture-f32.png') });
  const s = await pixelStats(page, png);
  expect(s.colours, 'distinct colours').toBeGreaterThanOrEqual(6);
  expect(s.topShare, 'share of the most common colour').toBeLessThan(0.97);
  const r = await page.evaluate(() => {
    window.e2eIntF32.setControls({ element: [5] });
    const out = window.e2eIntF32.readout();
    window.e2eIntF32.destroy();
    return out;
  });
  expect(Object.keys(r), 'a float output has no code fields').toEqual(['element', 'accumulator', 'multiplier', 'scaled', 'bias_f32', 'output_f32']);
  expect(r.output_f32, "element 5's float is the lowered model's output there").toBe(want.y[5]);
  detail(`${s.colours} colours; element 5: accumulator ${r.accumulator} x ${r.multiplier.toPrecision(4)} + ${r.bias_f32.toPrecision(4)} -> ${r.output_f32.toPrecision(6)}`);
});

// The graph view's partition field (web/views/graph_partition.h): the same converted graph drawn with and without it —
// the bands on the delegated / float nodes and the legend change the picture; a bad partition is a typed error.
test('graph view partition: delegated and float nodes marked, with a legend', async () => {
  await addCanvas('e2e-part-a', 'height: 420px');
  await addCanvas('e2e-part-b', 'height: 420px');
  const info = await page.evaluate(() => {
    const { pt } = window.pt2e;
    return pt.scope(() => {
      pt.manual_seed(0);
      const m = pt.get_model('conv_relu');
      const gm = pt.export(m, [pt.randn([1, ...m.input_shape])]);
      const prepared = pt.prepare_pt2e(gm, new pt.executorch.XNNPACKQuantizer().set_global(pt.executorch.get_symmetric_quantization_config()));
      prepared.forward(pt.randn([2, ...m.input_shape]));
      const converted = pt.convert_pt2e(prepared);
      const report = pt.lower(converted, 'xnnpack').delegation_info;
      const stage = { title: 'convert_pt2e', ...converted.graph_view() };
      const partition = { backend: 'xnnpack', delegated: report.nodes.filter((n) => n.delegated).map((n) => n.name),
        float: report.nodes.filter((n) => !n.delegated).map((n) => ({ name: n.name, reason: n.reason })) };
      window.e2ePartA = window.pt2e.views.mount(document.getElementById('e2e-part-a'), { view: 'graph', stages: [stage], show_params: false });
      window.e2ePartB = window.pt2e.views.mount(document.getElementById('e2e-part-b'), { view: 'graph', stages: [stage], show_params: false, partition });
      window.e2ePartStage = stage;
      return { delegated: partition.delegated.length, float: partition.float.length };
    });
  });
  await page.waitForFunction(() => window.e2ePartA.framesDrawn() > 0 && window.e2ePartB.framesDrawn() > 0);
  await frames(page, 3);
  info.err = await page.evaluate(() => {   // the live view rejects a bad partition and keeps what it shows
    try { window.e2ePartB.update({ view: 'graph', stages: [window.e2ePartStage], partition: { delegated: ['nope'] } }); } catch (e) { return `${e.name}: ${e.message}`; }
    return 'no error';
  });
  const a = await page.locator('#e2e-part-a').screenshot();
  const b = await page.locator('#e2e-part-b').screenshot({ path: path.join(outDir, 'graph-partition.png') });
  const s = await pixelStats(page, b);
  expect(s.colours, 'distinct colours').toBeGreaterThanOrEqual(8);
  expect(s.topShare).toBeLessThan(0.97);
  const changed = await diffPixels(page, a, b);
  expect(changed, 'pixels the partition marks and legend change').toBeGreaterThan(200);
  expect(info.delegated).toBeGreaterThan(0);
  expect(info.err).toMatch(/^ValueError.*partition.delegated names 'nope'/);
  await page.evaluate(() => { window.e2ePartA.destroy(); window.e2ePartB.destroy(); window.e2eInt.destroy(); });
  detail(`${info.delegated} delegated / ${info.float} float nodes; ${changed} pixels differ from the unmarked graph`);
});

test('mounting on a missing canvas fails in place with RuntimeError', async () => {
  const msg = await page.evaluate(() => {
    const c = document.createElement('canvas');  // not in the document: no selector finds it
    try { window.pt2e.views.mount(c, { view: 'histogram', lo: 0, hi: 1, counts: [1] }); return 'no error'; } catch (e) { return `${e.name}: ${e.message}`; }
  });
  expect(msg).toMatch(/^RuntimeError.*WebGL2/);
});

test('lazy views: off-screen canvases wait; scrolled near they draw; past 8 live, off-screen ones are released and redraw on return', async () => {
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
  expect(first.live, 'live right after mount').toBe(0);
  expect(first.states.every((s) => s === 'pending'), `states ${first.states}`).toBe(true);
  let maxLive = 0;
  for (let i = 0; i < n; i++) {
    await page.evaluate((k) => window.e2eLazy[k].canvas.scrollIntoView({ block: 'center' }), i);
    await page.waitForFunction((k) => window.e2eLazy[k].framesDrawn() > 0, i);
    maxLive = Math.max(maxLive, await page.evaluate(() => window.pt2e.views.liveCount()));
  }
  expect(maxLive, 'views live at once (budget 8)').toBeLessThanOrEqual(8);
  const released = await page.evaluate(() => window.e2eLazy.filter((h) => h.canvas.dataset.view === 'released').length);
  expect(released).toBeGreaterThanOrEqual(n - 8);
  await page.evaluate(() => window.e2eLazy[0].canvas.scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => window.e2eLazy[0].framesDrawn() > 0);
  await frames(page, 3);
  const st = await pixelStats(page, await page.locator('#e2e-lazy-0').screenshot({ path: path.join(outDir, 'lazy-redrawn.png') }));
  expect(st.colours, 'the view drawn again: colours').toBeGreaterThanOrEqual(8);
  expect(st.topShare).toBeLessThan(0.95);
  await page.evaluate(() => {
    for (const h of window.e2eLazy) h.destroy();
    document.getElementById('e2e-lazy').remove();
    document.querySelector('#main').scrollTop = 0;
  });
  detail(`max ${maxLive} live of ${n}, ${released} released, the first redrawn (${st.colours} colours)`);
});
