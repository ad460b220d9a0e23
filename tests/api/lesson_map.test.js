// lesson_map.test.js — docs/lesson-map.md (the course map, page → cell → check) is what `npx pt2e-playground map`
// prints now, and the map shows a check as the statement it makes, not the numbers of one run.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkStatement } from '../../web/app/lesson_map.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('docs/lesson-map.md is current: every written page, every cell, every check', () => {
  const printed = execFileSync(process.execPath, [`${root}bin/pt2e-playground.js`, 'map'], { encoding: 'utf8', cwd: root });
  const committed = readFileSync(`${root}docs/lesson-map.md`, 'utf8');
  assert.equal(committed, printed, 'docs/lesson-map.md is out of date: run `node bin/pt2e-playground.js map > docs/lesson-map.md`');
  const index = JSON.parse(readFileSync(`${root}lessons/index.json`, 'utf8'));
  for (const page of index.flatMap((ch) => ch.pages).filter((p) => !p.planned)) {
    assert.match(printed, new RegExp(`^### ${page.id} — `, 'm'), `the map has a section for ${page.id}`);
    const cells = JSON.parse(readFileSync(`${root}lessons/${page.id}/lesson.json`, 'utf8')).cells;
    const section = printed.split(/^### /m).find((s) => s.startsWith(`${page.id} — `));
    for (const c of cells) assert.ok(section.includes(`| ${c.title.en.replace(/\|/g, '\\|')} |`), `${page.id}: a row for cell ${c.id}`);
  }
});

test('a check is shown as its lesson string, or with its numbers as {n}', () => {
  const known = [{ text: 'bias scale {sb} = {sx} × {sw}', re: /^bias scale [\s\S]*? = [\s\S]*? × [\s\S]*?$/ }];
  assert.equal(checkStatement('bias scale 3.5e-2 = 0.18 × 0.19', known), 'bias scale {sb} = {sx} × {sw}');
  assert.equal(checkStatement('3 observers on conv2d, int8, 1.5e-3 and −2', []), '{n} observers on conv2d, int8, {n} and {n}');
  assert.equal(checkStatement('prediction "How many?": the cell reveals 4', known), 'prediction: How many?');
});
