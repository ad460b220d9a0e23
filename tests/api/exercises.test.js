// exercises.test.js — grading through the runner, as a learner would: for every lesson with an
// exercise cell, `pt2e-playground test --lesson ID --solution FILE` passes the reference solution and
// fails every wrong solution in lessons/<id>/wrong/ with a message that says what is wrong.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writtenLessons } from '../../web/app/cell_runner.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const grade = (id, file, lang = 'en') => spawnSync(process.execPath,
  ['bin/pt2e-playground.js', 'test', '--lesson', id, '--lang', lang, '--solution', file], { cwd: root, encoding: 'utf8' });

const lessons = writtenLessons(JSON.parse(readFileSync(`${root}lessons/index.json`, 'utf8')));
const exercises = lessons.filter((id) => JSON.parse(readFileSync(`${root}lessons/${id}/lesson.json`, 'utf8')).cells.some((c) => c.exercise));

test('the three exercises the course promises exist', () => {
  for (const id of ['M02-1', 'M03-3', 'M03-4']) assert.ok(exercises.includes(id), id);
});

for (const id of exercises) {
  const cell = JSON.parse(readFileSync(`${root}lessons/${id}/lesson.json`, 'utf8')).cells.find((c) => c.exercise).id;
  test(`${id}: the reference solution passes`, () => {
    const r = grade(id, `lessons/${id}/cells/${cell}.solution.js`);
    assert.equal(r.status, 0, r.stdout.split('\n').filter((l) => l.startsWith('FAIL')).join('\n'));
    assert.match(r.stdout, /^\d+ passed, 0 failed$/m);
  });
  test(`${id}: the starting code fails its own cell's checks (no green check on an unsolved exercise)`, () => {
    const r = grade(id, `lessons/${id}/cells/${cell}.js`);
    assert.equal(r.status, 1, `exit ${r.status}`);
    const own = r.stdout.split('\n').filter((l) => l.includes(`] ${cell}: `));
    assert.ok(own.some((l) => l.startsWith('FAIL')), `the exercise cell itself shows no failing check:\n${own.join('\n')}`);
  });
  const wrongDir = `${root}lessons/${id}/wrong`;
  const wrong = existsSync(wrongDir) ? readdirSync(wrongDir).filter((f) => f.endsWith('.js')) : [];
  test(`${id}: has at least two wrong solutions to grade`, () => assert.ok(wrong.length >= 2, `${wrong.length} in lessons/${id}/wrong/`));
  for (const f of wrong) {
    for (const lang of ['en', 'zh-TW']) {
      test(`${id}: wrong/${f} fails with a message that says what is wrong (${lang})`, () => {
        const r = grade(id, `lessons/${id}/wrong/${f}`, lang);
        assert.equal(r.status, 1, `exit ${r.status}`);
        const fails = r.stdout.split('\n').filter((l) => l.startsWith('FAIL'));
        assert.ok(fails.length > 0, 'no failing check');
        for (const line of fails) {
          const message = line.replace(/^FAIL \S+ \[[^\]]+\] \S+: /, '');
          assert.ok(message.length >= 25, `a failing check must explain itself: "${message}"`);
          assert.doesNotMatch(message, /^cell raised/, `the grade must not crash: ${message}`);
        }
      });
    }
  }
}
