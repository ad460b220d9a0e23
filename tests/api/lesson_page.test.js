// lesson_page.test.js — a lesson reaches the page as one file written ahead, web/bundle/lessons/<id>/page.<lang>.json
// (scripts/bundle.js's renderLessonPages, and scripts/serve.js when a file of the lesson is newer): the lesson as
// loadLesson reads it and its prose rendered by markdown.js's proseParts. cell_runner.js's loadLessonPage reads the
// lesson's own files and renders the prose itself only when that file is missing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, utimesSync, statSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.js';
import { loadLesson, loadLessonPage, lessonPagePath } from '../../web/app/cell_runner.js';
import { proseParts } from '../../web/app/markdown.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readRepo = async (rel) => readFileSync(root + rel, 'utf8');
const md = (id, lang) => readFileSync(`${root}lessons/${id}/prose.${lang}.md`, 'utf8');

test('proseParts: HTML with KaTeX math between the cells, in the prose\'s order', () => {
  const parts = proseParts(md('M01', 'en'));
  assert.deepEqual(parts.filter((p) => p.cell).map((p) => p.cell), ['A', 'B']);
  const html = parts.filter((p) => p.html).map((p) => p.html).join('');
  assert.match(html, /^<h1>/);
  assert.match(html, /class="katex"/);
  assert.doesNotMatch(html, /<!--\s*cell/);
});

test('serve.js serves a lesson page written ahead, and writes it again when a file of the lesson is newer', async () => {
  const server = await startServer({ port: 0 });
  try {
    const rel = lessonPagePath('M02-1', 'zh-TW');
    const res = await fetch(server.url + rel);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { lesson: await loadLesson('M02-1', readRepo), parts: proseParts(md('M02-1', 'zh-TW')) });
    const file = root + rel;
    utimesSync(file, new Date(0), new Date(0));  // older than the lesson's files: stale
    assert.equal((await fetch(server.url + rel)).status, 200);
    assert.ok(statSync(file).mtimeMs > statSync(`${root}lessons/M02-1/lesson.json`).mtimeMs, 'not written again');
    for (const bad of ['M77', 'x']) {
      assert.equal((await fetch(`${server.url}web/bundle/lessons/${bad}/page.en.json`)).status, 404, bad);
    }
    assert.ok(!existsSync(`${root}web/bundle/lessons/M77`));
  } finally {
    await server.close();
  }
});

test('loadLessonPage reads the page file, and reads and renders the lesson\'s own files when it is missing', async () => {
  const asked = [];
  const ahead = { lesson: { id: 'M01', cells: [] }, parts: [{ html: '<p>written ahead</p>' }, { cell: 'A' }] };
  const files = (built) => async (rel) => {
    asked.push(rel);
    if (rel === lessonPagePath('M01', 'en')) {
      if (!built) throw new Error(`${rel}: HTTP 404`);
      return JSON.stringify(ahead);
    }
    return readRepo(rel);
  };
  assert.deepEqual(await loadLessonPage('M01', 'en', files(true)), ahead);
  assert.deepEqual(asked, [lessonPagePath('M01', 'en')]);
  assert.deepEqual(await loadLessonPage('M01', 'en', files(false)), { lesson: await loadLesson('M01', readRepo), parts: proseParts(md('M01', 'en')) });
  await assert.rejects(loadLessonPage('M01', 'fr', files(true)), /unknown language 'fr'/);
  await assert.rejects(loadLessonPage('../x', 'en', files(true)), /unknown lesson id/);
});
