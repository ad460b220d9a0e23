// test.js — `npm test` after set-up and build: runs every suite and sums them.
//   1. room order         node --test tests/scripts/      (scripts/check_rooms.js on the repo, and on bad trees)
//   2. engine, native     ctest --test-dir build/native   (Catch2)
//   3. engine, wasm       ctest --test-dir build/wasm     (the same Catch2 tests under Node)
//   4. JS API             node --test tests/api/          (the package's public API in Node)
//   5. lessons            node bin/pt2e-playground.js test  (the headless lesson runner)
//   6. browser            @playwright/test -c tests/e2e/playwright.config.js   (Debian's Chromium; one spec file per concern)
// The native suite (2.) includes the fuzz targets' regression runs (ctest "fuzz:<target>": every committed corpus input
// and crash reproducer, tests/fuzz/); the JS API suite (4.) a short JS-level fuzz run and a short soak (tests/api/
// js_fuzz.test.js, soak.test.js). The long runs are separate commands: npm run test:sanitize, npm run fuzz,
// npm run fuzz:js, npm run soak (README.md, docs/reliability.md).
// Each suite's own output is shown; the last line is `N passed, N failed` over all of them, and the
// exit code is non-zero if anything failed or a suite could not run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (chunk) => { out += chunk; process.stdout.write(chunk); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => resolve({ code, out }));
    child.on('error', (e) => resolve({ code: 127, out: String(e) }));
  });
}

const parsers = {
  ctest(out) {
    const m = out.match(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/);
    if (!m) return null;
    return { passed: Number(m[3]) - Number(m[2]), failed: Number(m[2]) };
  },
  nodeTest(out) {
    const p = out.match(/^# pass (\d+)/m);
    const f = out.match(/^# fail (\d+)/m);
    if (!p || !f) return null;
    return { passed: Number(p[1]), failed: Number(f[1]) };
  },
  plain(out) {
    const all = [...out.matchAll(/^(?:\w+: )?(\d+) passed, (\d+) failed/gm)];
    if (!all.length) return null;
    const m = all[all.length - 1];
    return { passed: Number(m[1]), failed: Number(m[2]) };
  },
};

const nodeTests = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.test.js')).map((f) => `${dir}/${f}`) : []);

const suites = [
  { name: 'room order', cmd: process.execPath, args: ['--test', '--test-reporter=tap', ...nodeTests('tests/scripts')], parse: parsers.nodeTest },
  { name: 'engine (native)', cmd: 'ctest', args: ['--test-dir', 'build/native', '--output-on-failure', '-j2'], parse: parsers.ctest },
  { name: 'engine (wasm)', cmd: 'ctest', args: ['--test-dir', 'build/wasm', '--output-on-failure', '-j2'], parse: parsers.ctest },
  {
    name: 'JS API', cmd: process.execPath,
    args: ['--test', '--test-reporter=tap', ...nodeTests('tests/api')],
    parse: parsers.nodeTest,
  },
  { name: 'lessons', cmd: process.execPath, args: ['bin/pt2e-playground.js', 'test'], parse: parsers.plain },
  { name: 'browser (e2e)', cmd: process.execPath, args: ['node_modules/@playwright/test/cli.js', 'test', '-c', 'tests/e2e/playwright.config.js'], parse: parsers.plain },
];

let passed = 0;
let failed = 0;
const summary = [];
for (const s of suites) {
  console.log(`\n=== ${s.name}: ${[s.cmd === process.execPath ? 'node' : s.cmd, ...s.args].join(' ')}`);
  const { code, out } = await run(s.cmd, s.args);
  const counts = s.parse(out);
  if (!counts) {
    failed += 1;
    summary.push(`${s.name}: did not report a count (exit ${code}) — counted as 1 failure`);
    continue;
  }
  if (code !== 0 && counts.failed === 0) counts.failed = 1;  // crashed after reporting
  passed += counts.passed;
  failed += counts.failed;
  summary.push(`${s.name}: ${counts.passed} passed, ${counts.failed} failed`);
}
console.log('\n=== summary');
for (const line of summary) console.log(`  ${line}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
