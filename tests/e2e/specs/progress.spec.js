// progress.spec.js — what the learner's browser keeps (progress.js): each lesson's checks passed when it last ran,
// shown in the navigator, kept across a reload and in this browser profile only; a prediction asked before a cell's
// results show, answered, marked against what the cell revealed (the headless runner's value), counted, kept.
import { loadEngine } from '../../../web/api/index.js';
import { loadLesson, runLesson } from '../../../web/app/cell_runner.js';
import { detail, expect, newSitePage, readRepoText, test } from '../fixtures.js';

test('navigator: each lesson shows the checks passed when it last ran, kept in this browser only', async ({ browser, guard, site }) => {
  const { context, page: p } = await newSitePage(browser, guard);
  try {
    await p.goto(`${site}?lesson=M02-1`);
    await p.waitForFunction(() => window.pt2e?.lesson && [...document.querySelectorAll('section.cell')].every((s) => s.querySelector('ul.checks, .error-box')), null, { timeout: 60_000 });
    const ran = await p.evaluate(() => ({ passed: document.querySelectorAll('ul.checks li.pass').length,
      total: document.querySelectorAll('ul.checks li').length + document.querySelectorAll('section.cell .error-box').length }));
    const badge = () => p.evaluate(() => ({ m021: document.querySelector('nav a[data-lesson="M02-1"] .progress')?.textContent ?? null,
      m01: document.querySelector('nav a[data-lesson="M01"] .progress')?.textContent ?? null }));
    const first = await badge();
    // The exercise cell starts from code that fails its grade: the badge counts the learner's checks as they are.
    expect(first.m021).toBe(`${ran.passed}/${ran.total}`);
    expect(ran.passed).toBeLessThan(ran.total);
    expect(first.m01).toBeNull();
    await p.goto(site);
    await p.waitForSelector('nav a[data-lesson="M02-1"]');
    expect((await badge()).m021, 'after a reload').toBe(first.m021);
    const other = await newSitePage(browser, guard);
    await other.page.goto(site);
    await other.page.waitForSelector('nav a[data-lesson="M02-1"]');
    const elsewhere = await other.page.evaluate(() => document.querySelectorAll('nav .progress').length);
    await other.context.close();
    expect(elsewhere, 'badges in another browser profile').toBe(0);
    detail(`M02-1 ${first.m021} (its exercise unsolved), kept across a reload`);
  } finally {
    await context.close();
  }
});

test('a prediction: asked before the results show, answered, revealed and marked, counted, kept across a reload', async ({ browser, guard, site }) => {
  // What M01's cells reveal, from the headless runner: the page must mark the learner's answers against these.
  const m01 = await loadLesson('M01', readRepoText);
  const revealed = Object.fromEntries(runLesson(await loadEngine(), m01, { lang: 'en' }).map((r) => [r.cell, r.revealed]));
  const lastCell = m01.cells.at(-1).id;
  const { context, page: p } = await newSitePage(browser, guard);
  try {
    await p.goto(`${site}?lesson=M01`);
    await p.waitForSelector(`section.cell[data-cell="${lastCell}"] ul.checks`, { timeout: 60_000 });
    const boxState = (c) => p.evaluate((id) => {
      const sec = document.querySelector(`section.cell[data-cell="${id}"]`);
      const box = sec.querySelector('.prediction');
      return { state: box?.dataset.state ?? null, veiled: sec.querySelector('.cell-results').classList.contains('veiled'),
        verdict: box?.querySelector('.verdict').textContent ?? '', value: box?.querySelector('input')?.value ?? null };
    }, c);
    expect(await boxState('A')).toMatchObject({ state: 'asked', veiled: true });
    // A: the right number; B: one off.
    await p.fill('section.cell[data-cell="A"] .prediction input', String(revealed.A));
    await p.click('section.cell[data-cell="A"] .prediction button.commit');
    await p.fill('section.cell[data-cell="B"] .prediction input', String(revealed.B + 1));
    await p.click('section.cell[data-cell="B"] .prediction button.commit');
    const a = await boxState('A'), b = await boxState('B');
    expect(a).toMatchObject({ state: 'right', veiled: false });
    expect(a.verdict).toContain(String(revealed.A));
    expect(b).toMatchObject({ state: 'off', veiled: false });
    expect(b.verdict).toContain(String(revealed.B));
    expect(new URL(p.url()).searchParams.get('pr.A')).toBe(String(revealed.A));
    const counted = await p.evaluate(() => ({ badge: document.querySelector('nav a[data-lesson="M01"] .progress')?.textContent ?? null,
      passed: document.querySelectorAll('ul.checks li.pass').length, total: document.querySelectorAll('ul.checks li').length }));
    expect(counted.badge).toBe(`${counted.passed + 1}/${counted.total + 2}`);
    // A reload of the plain lesson URL: the answers come back from this browser's storage.
    await p.goto(`${site}?lesson=M01`);
    await p.waitForSelector(`section.cell[data-cell="${lastCell}"] ul.checks`, { timeout: 60_000 });
    expect(await boxState('A')).toMatchObject({ state: 'right', veiled: false, value: String(revealed.A) });
    expect((await boxState('B')).state).toBe('off');
    detail(`M01 A answered ${revealed.A} (right), B ${revealed.B + 1} (off by one), badge ${counted.badge}, both kept across a reload`);
  } finally {
    await context.close();
  }
});
