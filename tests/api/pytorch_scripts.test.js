// pytorch_scripts.test.js — every page's PyTorch side, as a learner takes it away: the page's PyTorch cells in order
// (notebook.js's lessonScript) next to the course's helper module (lessons/pt2e_course.py) must compile
// (py_compile) and name nothing undefined (Debian's pyflakes3); the notebook the page's "download as notebook"
// button builds must pass nbformat.validate (Debian's python3-nbformat), in both languages. torch 2.x / torchao
// 0.18 / ExecuTorch 1.5 are not on this machine, so the scripts are checked, not run.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGS, loadIndex, loadLesson, writtenLessons } from '../../web/app/cell_runner.js';
import { HELPER_FILE, lessonNotebook, lessonScript } from '../../web/app/notebook.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readText = (rel) => readFile(path.join(root, rel), 'utf8');
// Debian's interpreter (python3-nbformat lives there), not whatever python3 comes first on PATH.
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const dir = mkdtempSync(path.join(tmpdir(), 'pt2e-scripts-'));
const helper = readFileSync(path.join(root, HELPER_FILE), 'utf8');
writeFileSync(path.join(dir, 'pt2e_course.py'), helper);
const run = (cmd, args) => spawnSync(cmd, args, { cwd: dir, encoding: 'utf8' });
const ids = writtenLessons(await loadIndex(readText));

function pyflakesProblems(file) {
  const r = run('pyflakes3', [file]);
  if (r.error) throw new Error(`pyflakes3 did not run (${r.error.message}): bash scripts/setup.sh installs python3-pyflakes`);
  // Undefined names and syntax errors break a run; unused imports and the like do not.
  return `${r.stdout}${r.stderr}`.split('\n').filter((l) => /undefined name|invalid syntax|SyntaxError|unexpected|expected/i.test(l));
}

test('the helper module compiles and names nothing undefined', () => {
  assert.deepEqual(pyflakesProblems('pt2e_course.py'), []);
  const r = run(python, ['-m', 'py_compile', 'pt2e_course.py']);
  assert.equal(r.status, 0, r.stderr);
});

for (const id of ids) {
  test(`${id}: the page's PyTorch cells, in order, compile and name nothing undefined`, async () => {
    const lesson = await loadLesson(id, readText);
    const file = `${id}.py`;
    writeFileSync(path.join(dir, file), lessonScript(lesson));
    assert.deepEqual(pyflakesProblems(file), []);
    const r = run(python, ['-m', 'py_compile', file]);
    assert.equal(r.status, 0, r.stderr);
  });
}

test('every page\'s notebook passes nbformat.validate, in both languages, with the helper module and each PyTorch cell', async () => {
  const files = [];
  for (const id of ids) {
    const lesson = await loadLesson(id, readText);
    for (const lang of LANGS) {
      const nb = lessonNotebook(lesson, await readText(`lessons/${id}/prose.${lang}.md`), helper, lang);
      const code = nb.cells.filter((c) => c.cell_type === 'code').map((c) => c.source.join(''));
      assert.ok(code[0].startsWith('%%writefile pt2e_course.py'), `${id} ${lang}: the first cell writes the helper module`);
      assert.equal(code.length - 1, lesson.cells.filter((c) => c.torch).length, `${id} ${lang}: one code cell per PyTorch cell`);
      const file = path.join(dir, `${id}.${lang}.ipynb`);
      writeFileSync(file, JSON.stringify(nb));
      files.push(file);
    }
  }
  const r = run(python, ['-c', 'import sys, nbformat\nfor f in sys.argv[1:]:\n    nbformat.validate(nbformat.read(f, as_version=4))\nprint(len(sys.argv) - 1)', ...files]);
  assert.equal(r.status, 0, `${r.stderr}\n(bash scripts/setup.sh installs python3-nbformat)`);
  assert.equal(r.stdout.trim(), String(files.length));
});
