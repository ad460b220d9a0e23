// prose.test.js — a lesson's prose reaches the page rendered ahead (scripts/bundle.js's renderProse, and
// scripts/serve.js when the .md is newer); cell_runner.js's loadProse renders it itself only when that
// file is missing. Both give markdown.js's proseParts of the lesson's prose.<lang>.md.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync, statSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.js';
import { loadProse, renderedProsePath } from '../../web/app/cell_runner.js';
import { proseParts } from '../../web/app/markdown.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const md = (id, lang) => readFileSync(`${root}lessons/${id}/prose.${lang}.md`, 'utf8');

test('proseParts: HTML with KaTeX math between the cells, in the prose\'s order', () => {
  const parts = proseParts(md('M01', 'en'));
  assert.deepEqual(parts.filter((p) => p.cell).map((p) => p.cell), ['A', 'B']);
  const html = parts.filter((p) => p.html).map((p) => p.html).join('');
  assert.match(html, /^<h1>/);
  assert.match(html, /class="katex"/);
  assert.doesNotMatch(html, /<!--\s*cell/);
});

test('serve.js serves a lesson\'s prose rendered, and renders it again when the .md is newer', async () => {
  const server = await startServer({ port: 0 });
  try {
    const rel = renderedProsePath('M02-1', 'zh-TW');
    const res = await fetch(server.url + rel);
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).parts, proseParts(md('M02-1', 'zh-TW')));
    const file = root + rel;
    utimesSync(file, new Date(0), new Date(0));  // older than its .md: stale
    assert.equal((await fetch(server.url + rel)).status, 200);
    assert.ok(statSync(file).mtimeMs > statSync(`${root}lessons/M02-1/prose.zh-TW.md`).mtimeMs, 'not rendered again');
    for (const bad of ['M77', 'x']) {
      assert.equal((await fetch(`${server.url}web/bundle/lessons/${bad}/prose.en.json`)).status, 404, bad);
    }
    assert.ok(!existsSync(`${root}web/bundle/lessons/M77`));
  } finally {
    await server.close();
  }
});

test('loadProse reads the rendered file, and renders prose.<lang>.md itself when that is missing', async () => {
  const asked = [];
  const files = (withRendered) => async (rel) => {
    asked.push(rel);
    if (rel === renderedProsePath('M01', 'en')) {
      if (!withRendered) throw new Error(`${rel}: HTTP 404`);
      return JSON.stringify({ parts: [{ html: '<p>rendered ahead</p>' }, { cell: 'A' }] });
    }
    return readFileSync(root + rel, 'utf8');
  };
  assert.deepEqual(await loadProse('M01', 'en', files(true)), [{ html: '<p>rendered ahead</p>' }, { cell: 'A' }]);
  assert.deepEqual(asked, [renderedProsePath('M01', 'en')]);
  assert.deepEqual(await loadProse('M01', 'en', files(false)), proseParts(md('M01', 'en')));
  await assert.rejects(loadProse('M01', 'fr', files(true)), /unknown language 'fr'/);
  await assert.rejects(loadProse('../x', 'en', files(true)), /unknown lesson id/);
});
