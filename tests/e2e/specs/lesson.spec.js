// lesson.spec.js — the shell and a lesson page, on the fixture lesson M99 (tests/e2e/fixtures/M99/): the navigator
// (planned pages are not links; a click opens a lesson and runs its cells in order), prose (Markdown tables, KaTeX),
// a cell's outputs (text, table, PyTorch code, a drawn view), an error shown in place with its line while later cells
// still run, an exercise edited and graded, a syntax error in an edited cell, the language switch and Back.
import path from 'node:path';
import { cell, expect, frames, sharedPage, outDir, pixelStats, test } from '../fixtures.js';

let page;
sharedPage('', (p) => { page = p; });

test('navigator: a planned page not yet written is not a link', async () => {
  const r = await page.evaluate(() => ({
    links: document.querySelectorAll('nav a[data-lesson]').length,
    unwritten: [...document.querySelectorAll('nav .unwritten')].map((e) => e.textContent),
  }));
  expect(r.links).toBeGreaterThanOrEqual(2);
  expect(r.unwritten.some((x) => x.includes('M99-1')), 'a dimmed M99-1').toBe(true);
  await expect(page.locator('nav a[data-lesson="M99-1"]')).toHaveCount(0);
});

test('navigator: clicking a lesson sets ?lesson= and runs its cells in order', async () => {
  await page.click('nav a[data-lesson="M99"]');
  await page.waitForFunction(() => location.search === '?lesson=M99');
  await page.waitForSelector(`${cell('grade')} ul.checks`);
  expect(await page.$$eval('section.cell', (els) => els.map((e) => e.dataset.cell))).toEqual(['hist', 'err', 'ex', 'grade']);
  expect(await page.getAttribute('nav a[aria-current="page"]', 'data-lesson')).toBe('M99');
});

test('lesson prose: Markdown tables and KaTeX math (inline and display), no raw $ left', async () => {
  const r = await page.evaluate(() => ({
    inline: document.querySelectorAll('.prose .katex').length,
    display: document.querySelectorAll('.prose .katex-display').length,
    errors: document.querySelectorAll('.prose .katex-error').length,
    tables: document.querySelectorAll('.prose table').length,
    dollar: [...document.querySelectorAll('.prose')].some((p) => p.textContent.includes('$')),
    h1: document.querySelector('.prose h1')?.textContent,
  }));
  expect(r.inline).toBeGreaterThanOrEqual(2);
  expect(r).toMatchObject({ display: 1, errors: 0, tables: 1, dollar: false, h1: 'E2E fixture' });
});

test('cell outputs: text, table, PyTorch code and a drawn histogram view', async () => {
  expect(await page.textContent(`${cell('hist')} pre.out-text`)).toBe('a text output');
  expect(await page.$$eval(`${cell('hist')} table td`, (els) => els.map((e) => e.textContent))).toEqual(['1000', 'float32']);
  expect(await page.textContent(`${cell('hist')} details.torch code`)).toContain('torch.randn(1000)');
  const canvas = page.locator(`${cell('hist')} canvas.view`);
  await canvas.scrollIntoViewIfNeeded();
  await expect(canvas).toHaveAttribute('data-view', 'live');
  await page.waitForFunction((sel) => window.pt2e.lesson.cells[0].views[0]?.framesDrawn() > 0, cell('hist'));
  await frames(page, 3);
  const st = await pixelStats(page, await canvas.screenshot({ path: path.join(outDir, 'cell-view.png') }));
  expect(st.colours).toBeGreaterThanOrEqual(8);
  expect(st.topShare).toBeLessThan(0.95);
  await expect(page.locator(`${cell('hist')} .cell-status`)).toHaveText('1/1 passed');
});

test('a cell that throws shows the typed error and its line in place; later cells still run', async () => {
  const err = await page.textContent(`${cell('err')} .error-box`);
  expect(err).toMatch(/^ValueError: randn\(\)/);
  expect(err).toContain('(line 3)');
  const checks = await page.$$eval(`${cell('err')} ul.checks li`, (els) => els.map((e) => `${e.className}:${e.textContent}`));
  expect(checks).toHaveLength(1);
  expect(checks[0]).toMatch(/^pass:.*state\.x survived/);
  await expect(page.locator(`${cell('grade')} ul.checks`)).toHaveCount(1);
});

test('exercise: the starting code fails the grade; edited and re-run, it passes; Reset restores', async () => {
  expect(await page.getAttribute(`${cell('grade')} ul.checks li`, 'class')).toBe('fail');
  await page.fill(`${cell('ex')} textarea`, 'state.answer = 6 * 7;');
  await page.click(`${cell('ex')} button.run`);
  await page.click(`${cell('grade')} button.run`);
  await page.waitForSelector(`${cell('grade')} ul.checks li.pass`);
  await page.click(`${cell('ex')} button.reset`);
  expect(await page.inputValue(`${cell('ex')} textarea`)).toContain('state.answer = 0;');
  await page.screenshot({ path: path.join(outDir, 'lesson.png'), fullPage: true });
});

test('a syntax error in an edited cell is shown in place and the page stays usable', async () => {
  await page.fill(`${cell('ex')} textarea`, 'state.answer = ;');
  await page.click(`${cell('ex')} button.run`);
  await expect(page.locator(`${cell('ex')} .error-box`)).toHaveText(/^SyntaxError/);
  await page.click(`${cell('hist')} button.run`);
  await expect(page.locator(`${cell('hist')} .cell-status`)).toHaveText('1/1 passed');
});

test('language switch: 繁體中文 sets ?lang=zh-TW and translates prose, checks and navigator; Back returns', async () => {
  await page.selectOption('#lang', 'zh-TW');
  await page.waitForFunction(() => location.search.includes('lang=zh-TW'));
  await page.waitForSelector(`${cell('grade')} ul.checks`);
  const r = await page.evaluate(() => ({
    h1: document.querySelector('.prose h1')?.textContent,
    check: document.querySelector('section.cell[data-cell="grade"] ul.checks li')?.textContent,
    lang: document.documentElement.lang,
  }));
  expect(r.h1).toBe('E2E 測試頁');
  expect(r.check).toContain('答案是 42');
  expect(r.lang).toBe('zh-TW');
  await page.goBack();
  await page.waitForFunction(() => !location.search.includes('lang=zh-TW'));
  await expect(page.locator('.prose h1')).toHaveText('E2E fixture');
});
