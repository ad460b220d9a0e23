// bench/train/profile.js — one workload of bench/train in a loop, for a CPU profile of the wasm:
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/train/profile.js float_step [calls] [--build build/wasm]
//   node bench/train/profile.js --summary /tmp/prof/<file>.cpuprofile     # self time per function, top 30
//
// Workloads: float_step, qat_step, ptq, conv, forward (bench_train.cpp). The bench module keeps its
// function names (--profiling-funcs), so the profile names the engine's C++ functions.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
if (argv[0] === '--summary') {
  const prof = JSON.parse(readFileSync(argv[1], 'utf8'));
  const self = new Map();
  const dt = prof.timeDeltas;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  prof.samples.forEach((id, i) => {
    const name = byId.get(id).callFrame.functionName || '(anonymous)';
    self.set(name, (self.get(name) || 0) + (dt[i] || 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  for (const [name, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  process.exit(0);
}
const here = dirname(fileURLToPath(import.meta.url));
const i = argv.indexOf('--build');
const buildDir = resolve(here, '..', '..', i >= 0 ? argv[i + 1] : 'build/wasm');
const [workload = 'float_step', calls = '200'] = argv.filter((a, k) => !a.startsWith('--') && argv[k - 1] !== '--build');
const js = join(buildDir, 'bench', 'bench_train.js');
const M = await createRequire(import.meta.url)(js)({ wasmBinary: readFileSync(js.replace(/\.js$/, '.wasm')) });
M._bench_setup();
const fn = M[`_bench_${workload}`];
for (let k = 0; k < Number(calls); k++) fn();
