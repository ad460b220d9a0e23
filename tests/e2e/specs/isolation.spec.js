// isolation.spec.js — a learner's edited code runs apart from the page (web/app/cell_sandbox.js, cell_worker.js):
// `while (true) {}` in an edited cell is stopped from the page and the next cell runs; the time limit stops a loop by
// itself with a clear message; a cell printing a million rows, or filling the engine's heap, ends with a clear error;
// through all of it the page stays responsive, and a lesson opened as written runs on the page's engine (no worker).
import { cell, detail, expect, sharedPage, test } from '../fixtures.js';

let page;
sharedPage('?lesson=M99', (p) => { page = p; });
test.beforeAll(async () => {
  await page.waitForSelector(`${cell('grade')} ul.checks`);
});

// The page answers while a cell runs: a click on the language menu's neighbour, a JS turn of the page's own.
const responsive = () => page.evaluate(() => new Promise((resolve) => {
  const t0 = performance.now();
  requestAnimationFrame(() => resolve(performance.now() - t0));
}));

test('a lesson opened as written runs on the page, with no worker', async () => {
  expect(await page.evaluate(() => window.pt2e.lesson.isolated)).toBe(false);
  expect(await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => /cell_worker/.test(r.name)).length)).toBe(0);
});

test('while (true) {} in an edited cell is stopped from the page, and the next cell runs', async () => {
  await page.fill(`${cell('ex')} textarea`, 'state.answer = 42;\nwhile (true) {}');
  await page.click(`${cell('ex')} button.run`);
  const stop = page.locator(`${cell('ex')} button.stop`);
  await expect(stop).toBeVisible();
  await expect(page.locator(`${cell('ex')} .cell-status`)).toHaveText(/running/);
  const frameMs = await responsive();
  expect(frameMs, 'the page draws a frame while the cell loops').toBeLessThan(1000);
  await stop.click();
  await expect(page.locator(`${cell('ex')} .error-box`)).toHaveText(/^Stopped: /);
  await expect(stop).toBeHidden();
  // The lesson continues: the next cell runs (in a fresh worker, after the runs before it), with the stopped run undone.
  await page.click(`${cell('grade')} button.run`);
  await expect(page.locator(`${cell('grade')} .cell-status`)).toHaveText(/^0\/1 passed/);
  await page.fill(`${cell('ex')} textarea`, 'state.answer = 6 * 7;');
  await page.click(`${cell('ex')} button.run`);
  await page.click(`${cell('grade')} button.run`);
  await expect(page.locator(`${cell('grade')} .cell-status`)).toHaveText(/^1\/1 passed/);
  detail(`Stop shown while looping; a frame drawn in ${Math.round(frameMs)} ms meanwhile; grade ran after: 0/1, then 1/1 with 6 * 7`);
});

test('the time limit stops a runaway cell by itself with a clear message; the page stays usable', async () => {
  await page.evaluate(() => { window.pt2e.lesson.timeLimitMs = 3000; });
  const t0 = Date.now();
  await page.fill(`${cell('ex')} textarea`, 'for (;;) { state.answer = (state.answer ?? 0) + 1; }');
  await page.click(`${cell('ex')} button.run`);
  await expect(page.locator(`${cell('ex')} .error-box`)).toHaveText(/^TimeoutError: the cell ran longer than 3 s and was stopped/, { timeout: 30_000 });
  const ms = Date.now() - t0;
  await page.evaluate(() => { window.pt2e.lesson.timeLimitMs = 20000; });
  await page.click(`${cell('hist')} button.run`);
  await expect(page.locator(`${cell('hist')} .cell-status`)).toHaveText('1/1 passed');
  detail(`stopped after ${ms} ms (limit 3 s)`);
});

test('a cell that prints a million rows ends with a clear error, its first rows shown', async () => {
  await page.fill(`${cell('ex')} textarea`, 'for (let i = 0; i < 1e6; i++) show.text(`row ${i}`);');
  await page.click(`${cell('ex')} button.run`);
  await expect(page.locator(`${cell('ex')} .error-box`)).toHaveText(/^OutputLimitError: the cell showed more than 10000 rows/);
  const rows = await page.locator(`${cell('ex')} pre.out-text`).count();
  expect(rows).toBe(10000);
  await page.click(`${cell('hist')} button.run`);
  await expect(page.locator(`${cell('hist')} .cell-status`)).toHaveText('1/1 passed');
  detail(`${rows} rows shown, then OutputLimitError`);
});

test("a cell that fills the engine's heap gets a typed error, and the engine works after", async () => {
  await page.fill(`${cell('ex')} textarea`, 'const keep = [];\nfor (;;) keep.push(pt.rand([2 ** 24]));');
  await page.click(`${cell('ex')} button.run`);
  const box = page.locator(`${cell('ex')} .error-box`);
  await expect(box).toHaveText(/^RuntimeError: out of memory/, { timeout: 60_000 });
  await page.fill(`${cell('ex')} textarea`, 'pt.manual_seed(0);\nstate.answer = 42;\ncheck(pt.randn([3]).data()[0] === Math.fround(1.5409960746765137), "randn after the heap was full");');
  await page.click(`${cell('ex')} button.run`);
  await expect(page.locator(`${cell('ex')} .cell-status`)).toHaveText('1/1 passed');
  detail((await box.count()) ? 'RuntimeError: out of memory, then randn as torch' : '');
});

test('Run all with every cell as written returns to the page\'s engine', async () => {
  await page.click(`${cell('ex')} button.reset`);
  await page.click('button.run-all');
  await expect(page.locator(`${cell('grade')} .cell-status`)).toHaveText(/^0\/1 passed/);
  expect(await page.evaluate(() => window.pt2e.lesson.isolated)).toBe(false);
});
