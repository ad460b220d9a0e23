// harness.js — what every bench/*/run.js shares: its command line (--build DIR, --rounds N, other --name value
// options) and the timing of one round (wall-clock and CPU time per call, medians). The rounds themselves run
// round-robin over the steps in each run.js, so a burst of load from other processes hits every step alike.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `here` is the calling run.js's own import.meta.url.
export function benchArgs(here) {
  const root = resolve(dirname(fileURLToPath(here)), '..', '..');
  const argv = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : dflt;
  };
  return { root, argv, opt, buildDir: resolve(root, opt('--build', 'build/wasm')), rounds: Number(opt('--rounds', '3')) };
}

// One round: wall-clock per call (hrtime) and CPU time per call (process.cpuUsage, µs resolution; time spent
// preempted by other processes is not in it), after `warmup` calls, until both minCalls and minMs are reached.
export function timeRound(fn, { warmup, minCalls, minMs }) {
  for (let i = 0; i < warmup; i++) fn();
  const ts = [], cpu = [];
  const t0 = process.hrtime.bigint();
  while (ts.length < minCalls || Number(process.hrtime.bigint() - t0) / 1e6 < minMs) {
    const c = process.cpuUsage();
    const a = process.hrtime.bigint();
    fn();
    ts.push(Number(process.hrtime.bigint() - a) / 1e6);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1e3);
  }
  ts.sort((p, q) => p - q);
  cpu.sort((p, q) => p - q);
  return { min: ts[0], median: ts[ts.length >> 1], cpu: cpu[cpu.length >> 1], calls: ts.length };
}
