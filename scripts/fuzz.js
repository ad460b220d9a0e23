// fuzz.js — `npm run fuzz`: builds the libFuzzer targets (tests/fuzz/targets/*.cpp) with clang, AddressSanitizer and
// UndefinedBehaviorSanitizer in build/fuzz, and runs each in turn for a time budget.
//   node scripts/fuzz.js [--time SECONDS | --runs N] [--merge] [--nice] [TARGET ...]
//     --time 60      seconds per target (the default); --runs N stops after N executions instead
//     --merge        afterwards, minimise what the run found into the committed corpus tests/fuzz/corpus/<target>/
//     --nice         run the fuzzers under nice -n 19 (a shared machine)
//     TARGET         only these targets (default: every file of tests/fuzz/targets/)
// Each target starts from its committed corpus (read, never written by the run: new inputs go to
// build/fuzz/corpus/<target>/) and writes any crash, leak, timeout or out-of-memory reproducer to
// tests/fuzz/crashes/<target>/ — commit it with the fix: ctest replays that folder in every native build
// ("fuzz:<target>", tests/fuzz/replay_main.cpp). Per target it prints executions, time, executions per
// second, coverage (libFuzzer's cov / ft) and the result; build/fuzz/summary.json keeps the figures.
// Limits per input: 10 s (-timeout; 120 s with --nice, where a busy machine can leave a nice-19 fuzzer unscheduled for
// seconds and libFuzzer's clock is wall time), 2.5 GB of memory (-rss_limit_mb; one tensor may hold 2 GiB).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const seconds = Number(opt('--time', 60));
const runs = opt('--runs', null);
const merge = flag('--merge');
const nice = flag('--nice');
const all = readdirSync('tests/fuzz/targets').filter((f) => f.endsWith('.cpp')).map((f) => f.slice(0, -4)).sort();
const targets = args.length ? args : all;
for (const t of targets) if (!all.includes(t)) throw new Error(`fuzz: no target '${t}' (targets: ${all.join(', ')})`);

function sh(cmd, cmdArgs, env = {}) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// clang (Debian's clang-14 + libclang-rt-14-dev; scripts/setup.sh fuzz installs them).
sh('bash', ['scripts/setup.sh', 'fuzz']);
if (!existsSync('build/fuzz/build.ninja')) {
  sh('cmake', ['-S', '.', '-B', 'build/fuzz', '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release', '-DPT_FUZZ=ON',
    '-DCMAKE_CXX_COMPILER=clang++-14'], {});
}
sh('cmake', ['--build', 'build/fuzz', '-j', process.env.JOBS ?? '2', '--target', ...targets.map((t) => `pt_fuzz_${t}`)]);

function runFuzzer(target) {
  const corpus = `build/fuzz/corpus/${target}`;
  const committed = `tests/fuzz/corpus/${target}`;
  const crashes = `tests/fuzz/crashes/${target}`;
  for (const d of [corpus, committed, crashes]) mkdirSync(d, { recursive: true });
  const before = new Set(readdirSync(crashes));
  const fuzzArgs = [corpus, committed, `-artifact_prefix=${crashes}/`, `-timeout=${nice ? 120 : 10}`, '-rss_limit_mb=2560',
    '-print_final_stats=1', runs ? `-runs=${runs}` : `-max_total_time=${seconds}`];
  const exe = `build/fuzz/pt_fuzz_${target}`;
  const [cmd, cmdArgs] = nice ? ['nice', ['-n', '19', exe, ...fuzzArgs]] : [exe, fuzzArgs];
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1', UBSAN_OPTIONS: 'print_stacktrace=1' } });
    let log = '';
    const keep = (d) => { log += d; if (log.length > 4e6) log = log.slice(-2e6); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => {
      const num = (re) => Number(log.match(re)?.[1] ?? NaN);
      const last = [...log.matchAll(/#(\d+)\s+(?:DONE|pulse|NEW|REDUCE|INITED)\s+cov: (\d+) ft: (\d+) corp: (\d+)/g)].at(-1);
      const found = readdirSync(crashes).filter((f) => !before.has(f));
      const result = {
        target,
        executions: num(/stat::number_of_executed_units:\s*(\d+)/) || Number(last?.[1] ?? 0),
        seconds: Math.round((Date.now() - t0) / 1000),
        exec_per_sec: num(/stat::average_exec_per_sec:\s*(\d+)/),
        cov: Number(last?.[2] ?? NaN),
        ft: Number(last?.[3] ?? NaN),
        corpus: Number(last?.[4] ?? NaN),
        peak_rss_mb: num(/stat::peak_rss_mb:\s*(\d+)/),
        exit: code,
        found,
        result: code === 0 && !found.length ? 'no crash, leak or UB report' : `FOUND: exit ${code}; ${found.join(', ')}`,
      };
      if (code !== 0) {
        const report = log.split('\n').filter((l) => /ERROR|SUMMARY|runtime error|==\d+==|#\d+ 0x/.test(l)).slice(0, 40).join('\n');
        result.report = report;
        console.log(report);
      }
      resolve(result);
    });
  });
}

mkdirSync('build/fuzz', { recursive: true });
const results = [];
for (const t of targets) {
  console.log(`\n=== fuzz ${t} (${runs ? `${runs} runs` : `${seconds} s`})`);
  const r = await runFuzzer(t);
  results.push(r);
  console.log(`${t}: ${r.executions} executions in ${r.seconds} s (${r.exec_per_sec}/s), cov ${r.cov}, ft ${r.ft}, corpus ${r.corpus}, peak RSS ${r.peak_rss_mb} MB — ${r.result}`);
  if (merge) sh(`build/fuzz/pt_fuzz_${t}`, ['-merge=1', `tests/fuzz/corpus/${t}`, `build/fuzz/corpus/${t}`]);
}
writeFileSync('build/fuzz/summary.json', JSON.stringify(results, null, 1));
console.log('\n| target | executions | time (s) | exec/s | cov | ft | result |\n|---|---|---|---|---|---|---|');
for (const r of results) console.log(`| ${r.target} | ${r.executions} | ${r.seconds} | ${r.exec_per_sec} | ${r.cov} | ${r.ft} | ${r.result} |`);
process.exit(results.every((r) => r.exit === 0 && !r.found.length) ? 0 : 1);
