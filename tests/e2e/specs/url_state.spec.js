// url_state.spec.js — a shared link reopens what was shared (lesson, language, cell, a view's control values, the
// engine's readout for them); dragging writes the URL; a link whose values do not parse still opens; a crafted link
// with markup in every parameter shows it as text, if at all — no element, script or handler comes from a URL.
import { detail, expect, frames, newSitePage, test } from '../fixtures.js';

const lessonRan = (p) => p.waitForFunction(() => window.pt2e?.lesson?.cells?.[1]?.section.querySelector('ul.checks'), null, { timeout: 60_000 });

test('a shared URL restores lesson, cell and control values; dragging writes them into the URL', async ({ browser, guard, site }) => {
  const { context, page: p } = await newSitePage(browser, guard);
  try {
    // 1. A link someone shared: M01 in 繁體中文 at cell A, its histogram's range pulled in to [0.25, 2.5].
    await p.goto(`${site}?lesson=M01&lang=zh-TW&cell=A&v.A.0=range:0.25,2.5`);
    await lessonRan(p);
    const opened = await p.evaluate(() => {
      const a = window.pt2e.lesson.cells[0];
      const v = a.views[0];
      return { current: [...document.querySelectorAll('section.cell.current')].map((s) => s.dataset.cell), top: a.section.getBoundingClientRect().top,
        lang: document.documentElement.lang, controls: v.controls(), readout: v.readout() };
    });
    expect(opened.current).toEqual(['A']);
    expect(opened.lang).toBe('zh-TW');
    expect(Math.abs(opened.top), 'cell A scrolled to').toBeLessThan(80);
    expect(opened.controls.range).toEqual([0.25, 2.5]);
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
    expect(r.scale).toBe(expected.scale);
    expect(r.zero_point).toBe(expected.zero_point);
    expect(Math.abs(r.sqnr / expected.sqnr - 1)).toBeLessThan(1e-6);
    expect(r.clipped).toBeGreaterThan(0);
    // 2. The learner drags the range's max end: the URL follows (replaceState), then reopens as it was.
    const loc = p.locator('section.cell[data-cell="A"] canvas.view');
    await loc.scrollIntoViewIfNeeded();
    const box = await loc.boundingBox();
    let x = null;
    for (let px = box.x + box.width - 10; px > box.x + box.width / 2 && x === null; px -= 3) {
      await p.mouse.move(px, box.y + box.height * 0.55);
      await frames(p);
      if (await loc.evaluate((c) => c.style.cursor) === 'ew-resize') x = px;
    }
    expect(x, "a draggable range end in cell A's histogram").not.toBeNull();
    await p.mouse.down();
    await p.mouse.move(x - 40, box.y + box.height * 0.55, { steps: 6 });
    await p.mouse.up();
    await p.waitForFunction(() => /[?&]v\.A\.0=range:/.test(location.search) && !location.search.includes('range:0.25,2.5'));
    const dragged = await p.evaluate(() => ({ url: location.search, controls: window.pt2e.lesson.cells[0].views[0].controls(), readout: window.pt2e.lesson.cells[0].views[0].readout() }));
    const p2 = await context.newPage();
    await guard.watch(p2);
    await p2.goto(`${site}${dragged.url}`);
    await lessonRan(p2);
    const reopened = await p2.evaluate(() => ({ controls: window.pt2e.lesson.cells[0].views[0].controls(), readout: window.pt2e.lesson.cells[0].views[0].readout() }));
    expect(reopened.controls.range.map(Math.fround)).toEqual(dragged.controls.range.map(Math.fround));
    expect(reopened.readout.sqnr).toBe(dragged.readout.sqnr);
    // 3. Running another cell makes it the URL's cell; a link with values that do not parse still opens.
    await p.click('section.cell[data-cell="B"] button.run');
    await p.waitForFunction(() => new URLSearchParams(location.search).get('cell') === 'B');
    await p2.goto(`${site}?lesson=M01&cell=%3Cb%3E&v.A.0=range:x,1&v.A.7=range:1,2`);
    await p2.waitForFunction(() => window.pt2e?.lesson?.cells?.[1]?.section.querySelector('ul.checks li'), null, { timeout: 60_000 });
    const bad = await p2.evaluate(() => ({ failed: document.querySelectorAll('ul.checks li.fail, .error-box').length, current: document.querySelectorAll('section.cell.current').length }));
    expect(bad).toEqual({ failed: 0, current: 0 });
    detail(dragged.url);
  } finally {
    await context.close();
  }
});

test('a crafted URL with markup in every parameter renders as text: no element, script or dialog comes from it', async ({ browser, guard, site }) => {
  const markup = '"><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b id=injected>b</b>';
  const { context, page: p } = await newSitePage(browser, guard);
  try {
    let dialogs = 0;
    p.on('dialog', (d) => { dialogs++; d.dismiss(); });
    const q = new URLSearchParams({ lang: markup, cell: markup, 'v.A.0': `range:${markup}`, [`v.${markup}.0`]: 'range:0,1', 'pr.A': markup, [`pr.${markup}`]: '1' });
    const pages = [`?lesson=${encodeURIComponent(markup)}&${q}`, `?lesson=M01&${q}`, `embed.html?lesson=M01&${q}`, `embed.html?lesson=${encodeURIComponent(markup)}&${q}`];
    const seen = [];
    for (const query of pages) {
      await p.goto(`${site}${query}`);
      if (query.includes('lesson=M01')) {
        await p.waitForFunction(() => window.pt2e?.lesson && [...document.querySelectorAll('section.cell')].every((s) => s.querySelector('ul.checks, .error-box')), null, { timeout: 60_000 });
      } else {  // no such lesson: the home page (index.html) or the embed's message saying what it needs
        await p.waitForFunction(() => window.pt2e || document.querySelector('#main .error-box'), null, { timeout: 60_000 });
      }
      const r = await p.evaluate(() => ({ pwned: window.__pwned ?? null, injected: document.querySelectorAll('#injected, img[src="x"]').length,
        scripts: [...document.scripts].filter((s) => s.textContent.includes('__pwned')).length, text: document.body.innerText.includes('<img') }));
      expect(r.pwned, `${query}: a script from the URL ran`).toBeNull();
      expect(r.injected, `${query}: an element from the URL`).toBe(0);
      expect(r.scripts).toBe(0);
      seen.push(`${query.startsWith('embed') ? 'embed' : 'index'} (${query.includes('lesson=M01') ? 'M01' : 'markup lesson'}): markup shown as text ${r.text ? 'yes' : 'no (dropped)'}`);
    }
    expect(dialogs, 'dialogs opened').toBe(0);
    detail(seen.join('; '));
  } finally {
    await context.close();
  }
});
