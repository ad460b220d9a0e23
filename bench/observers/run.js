// bench/observers/run.js — HistogramObserver on 1,000,000 floats, side by side in one run:
// our C++ engine compiled to wasm (Node), torch 1.13 native (a spawned /usr/bin/python3), and a
// plain-JS min/max + 2048-bin histogram. Prints the timings and their ratios.
//
//   node bench/observers/run.js [--build build/wasm] [--rounds 3] [--no-torch]
//
// Needs the wasm build's bench module (cmake --build <build> --target bench_observers). Data: a
// fixed pseudo-random normal sample with every 1000th value ×8 (docs/performance.md), written
// to a temp file so torch times the very same floats. Timing: JS drives every call (V8 tiers a wasm
// function up only on its next call); per step warm-up calls, then timed calls until both a count and
// a time budget are met; median per round, lowest median of the rounds. Single-threaded everywhere.
// The torch side runs torchao 0.18's algorithm through the torch 1.13 transcription in
// tests/golden/gen_histogram.py (1.13's own HistogramObserver is a different algorithm,
// docs/algorithms.md, Checking against torch 1.13; its forward is shown for reference only).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, timeRound } from '../harness.js';

const { root, argv, opt, buildDir, rounds } = benchArgs(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const N = 1_000_000;
const BINS = 2048;

// ---- data: xorshift32 uniforms -> Box–Muller normals, ×8 outlier every 1000th value -------------
function makeData(n) {
  let s = 0x9e3779b9;
  const uniform = () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return (s + 0.5) / 4294967296;
  };
  const x = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(uniform())), t = 2 * Math.PI * uniform();
    x[i] = r * Math.cos(t);
    if (i + 1 < n) x[i + 1] = r * Math.sin(t);
  }
  for (let i = 0; i < n; i += 1000) x[i] *= 8;
  return x;
}

// ---- timing harness ---------------------------------------------------------------------------
// Rounds run round-robin over all steps (so a burst of load from other processes hits every step
// alike); per step the lowest minimum and the lowest median over the rounds (the minimum is the
// figure least disturbed by a shared machine; both are printed).
function timeAll(steps, budget) {
  const best = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(steps)) {
      const t = timeRound(fn, budget);
      const b = best[name];
      best[name] = !b ? t : { min: Math.min(b.min, t.min), median: Math.min(b.median, t.median), cpu: Math.min(b.cpu, t.cpu), calls: b.calls + t.calls };
    }
  }
  return best;
}
const BUDGET = { warmup: 30, minCalls: 100, minMs: 1000 };

// ---- wasm: our engine -----------------------------------------------------------------------------
async function loadWasm(data) {
  const js = join(buildDir, 'bench', 'bench_observers.js');
  if (!existsSync(js)) throw new Error(`${js} missing: build it with cmake --build ${buildDir} --target bench_observers`);
  const createBench = createRequire(import.meta.url)(js);
  const M = await createBench({ wasmBinary: readFileSync(js.replace(/\.js$/, '.wasm')) });
  const ptr = M._bench_input(data.length);
  M.HEAPF32.set(data, ptr >> 2);
  return M;
}

// ---- plain JS: min/max pass + 2048-bin histogram pass ---------------------------------------------
function jsForward(data) {
  const hist = new Float64Array(BINS);
  return () => {
    let mn = Infinity, mx = -Infinity;
    for (let i = 0; i < data.length; i++) {
      const v = data[i];
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
    const k = BINS / (mx - mn);
    for (let i = 0; i < data.length; i++) {
      let b = ((data[i] - mn) * k) | 0;
      if (b >= BINS) b = BINS - 1;
      hist[b]++;
    }
  };
}

// ---- torch 1.13 native (spawned) ----------------------------------------------------------------
function torchSide(data) {
  const py = '/usr/bin/python3';
  if (argv.includes('--no-torch') || !existsSync(py)) return { skipped: 'not requested or no /usr/bin/python3' };
  if (spawnSync(py, ['-c', 'import torch'], { stdio: 'ignore' }).status !== 0) return { skipped: 'torch not importable' };
  const dir = mkdtempSync(join(tmpdir(), 'bench-observers-'));
  try {
    const file = join(dir, 'data.f32');
    writeFileSync(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    const r = spawnSync(py, [join(here, 'torch_observers.py'), file, String(rounds)], { encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
    if (r.status !== 0) return { skipped: `torch_observers.py failed: ${r.stderr.trim().split('\n').pop()}` };
    return JSON.parse(r.stdout.trim().split('\n').pop());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- report ---------------------------------------------------------------------------------------
const ms = (t) => (t ? `${t.min.toFixed(3)} / ${t.median.toFixed(3)} / ${t.cpu.toFixed(3)}` : '—');
const ratio = (a, b) => (a && b ? `${(a.min / b.min).toFixed(1)}× / ${(a.median / b.median).toFixed(1)}× / ${(a.cpu / b.cpu).toFixed(1)}×` : '—');

const data = makeData(N);
const load0 = loadavg()[0];
const M = await loadWasm(data);
M._bench_reset();
const t = timeAll({
  wasmForward: () => M._bench_forward(),
  jsForward: jsForward(data),
  wasmCalculate: () => M._bench_calculate_qparams(),
}, BUDGET);
const res = M._bench_result();
const wasm = { forward: t.wasmForward, calculate: t.wasmCalculate, scale: M.HEAPF32[res >> 2],
               zero_point: M.HEAP32[(res >> 2) + 1], evaluations: M._bench_evaluations() };
const js = { forward: t.jsForward };
const torch = torchSide(data);
console.log(`HistogramObserver, ${N.toLocaleString('en')} float32 (normal, ×8 outlier every 1000th), int8 affine, ${BINS} bins`);
console.log(`node ${process.version}; torch ${torch.torch ?? `skipped (${torch.skipped})`}${torch.threads ? `, ${torch.threads} thread` : ''}; load average ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}; ${rounds} rounds`);
console.log('');
console.log('times in ms as wall min / wall median / median CPU time per call; ratios likewise');
console.log('(goals judged on the CPU-time ratio: on a shared machine a long call is preempted more often than a short one)');
console.log('');
console.log('| step | ours (wasm) | torch 1.13 native | plain JS | torch / ours | JS / ours |');
console.log('|---|---|---|---|---|---|');
console.log(`| forward | ${ms(wasm.forward)} | ${ms(torch.forward)} | ${ms(js.forward)} | ${ratio(torch.forward, wasm.forward)} | ${ratio(js.forward, wasm.forward)} |`);
console.log(`| calculate_qparams | ${ms(wasm.calculate)} | ${ms(torch.calculate_qparams)} | — | ${ratio(torch.calculate_qparams, wasm.calculate)} | — |`);
if (torch.forward_1_13_class) console.log(`| (1.13's own class, forward) | — | ${ms(torch.forward_1_13_class)} | — | ${ratio(torch.forward_1_13_class, wasm.forward)} | — |`);
console.log('');
console.log(`ours:  scale ${wasm.scale} zero_point ${wasm.zero_point} (${wasm.evaluations} quant_error evaluations)`);
if (torch.scale !== undefined) {
  const same = Math.fround(torch.scale) === wasm.scale && torch.zero_point === wasm.zero_point;
  console.log(`torch: scale ${Math.fround(torch.scale)} zero_point ${torch.zero_point} (${torch.evaluations} evaluations) — ${same ? 'identical' : 'DIFFERENT'}`);
}
const goals = [
  ['forward ≥ 2× faster than torch', torch.forward && torch.forward.cpu / wasm.forward.cpu >= 2],
  ['calculate_qparams ≥ 10× faster than torch', torch.calculate_qparams && torch.calculate_qparams.cpu / wasm.calculate.cpu >= 10],
  ['forward ≥ 3× faster than plain JS', js.forward.cpu / wasm.forward.cpu >= 3],
];
for (const [g, ok] of goals) console.log(`${ok ? 'met ' : 'MISS'}  ${g}`);
