// bench/train/run.js — training and the PTQ pipeline, side by side in one run: our C++ engine compiled
// to wasm (this Node process), torch 1.13 native on one thread (a spawned /usr/bin/python3, one round at
// a time, interleaved with ours) and tfjs-wasm's conv2d (XNNPACK, in this process). Prints the four lines
// of issue #14's acceptance as ratios:
//   1. a float training step of `tiny` at batch 32 (forward + backward + SGD), ours / torch   goal ≤ 1.0
//   2. a QAT step (prepare_qat_pt2e, fake quant), ours / torch's float step                    goal ≤ 1.5
//   3. the tiny PTQ pipeline (export → prepare → 256 calibration samples → convert → SQNR)      goal ≤ 33 ms
//   4. float conv2d 3×3, 32 → 32 channels, 32×32, padding 1: GMAC/s, ours vs tfjs-wasm
//
//   node bench/train/run.js [--build build/wasm] [--rounds 3] [--calls 30] [--ms 1500] [--no-torch] [--no-tfjs]
//
// Needs the wasm build's bench module (cmake --build <build> --target bench_train) and, for line 4,
// tfjs installed next to this script, outside the project's dependencies (bench/train/README.md):
//   npm install --no-save --no-package-lock --prefix bench/train @tensorflow/tfjs-core@4.22.0 \
//     @tensorflow/tfjs-backend-wasm@4.22.0 @tensorflow/tfjs-backend-cpu@4.22.0
// Timing as docs/perf-anchors.md: JS drives every call (V8 tiers a wasm function up only on its next call),
// ≥30 warm-up calls per workload and round, then timed calls until a count and a time budget are both met;
// per call wall-clock (hrtime) and CPU time (process.cpuUsage); per round min / median / median CPU; over
// the rounds the lowest of each. Rounds go round-robin over every workload of all three sides, so a burst
// of load from other processes hits each alike. Single-threaded everywhere.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchArgs, timeRound } from '../harness.js';

const { root, argv, opt, buildDir, rounds } = benchArgs(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const BUDGET = { warmup: 30, minCalls: Number(opt('--calls', '30')), minMs: Number(opt('--ms', '1500')) };
const CONV_MACS = 32 * 32 * 9 * 32 * 32;  // out channels × in channels × 3·3 × 32·32 positions
const CONV_OUT = 32 * 32 * 32;

function keepBest(best, name, t) {
  const b = best[name];
  best[name] = !b ? t : { min: Math.min(b.min, t.min), median: Math.min(b.median, t.median), cpu: Math.min(b.cpu, t.cpu), calls: b.calls + t.calls };
}

// ---- ours: the engine's bench module --------------------------------------------------------------
async function loadOurs() {
  const js = join(buildDir, 'bench', 'bench_train.js');
  if (!existsSync(js)) throw new Error(`${js} missing: build it with cmake --build ${buildDir} --target bench_train`);
  const createBench = createRequire(import.meta.url)(js);
  const M = await createBench({ wasmBinary: readFileSync(js.replace(/\.js$/, '.wasm')) });
  M._bench_setup();
  const f32 = (ptr, n) => M.HEAPF32.slice(ptr >> 2, (ptr >> 2) + n);
  return {
    M,
    data: {
      x: f32(M._bench_step_data(), 32 * 3 * 16 * 16),
      labels: M.HEAP32.slice(M._bench_step_labels() >> 2, (M._bench_step_labels() >> 2) + 32),
      convX: f32(M._bench_conv_input(), 32 * 32 * 32),
      convW: f32(M._bench_conv_weight(), 32 * 32 * 9),
    },
    workloads: {
      float_step: () => M._bench_float_step(),
      qat_step: () => M._bench_qat_step(),
      ptq: () => M._bench_ptq(),
      conv: () => f32(M._bench_conv(), CONV_OUT),  // the output copied out to JS, as tfjs's dataSync
      forward: () => M._bench_forward(),
    },
    convOutput: () => f32(M._bench_conv(), CONV_OUT),
  };
}

// ---- torch 1.13 native: a child process answering one round per request ------------------------------
async function startTorch(data, dir) {
  const py = '/usr/bin/python3';
  if (argv.includes('--no-torch') || !existsSync(py)) return { skipped: 'not requested or no /usr/bin/python3' };
  const files = ['x.f32', 'labels.i32', 'conv_x.f32', 'conv_w.f32'].map((f) => join(dir, f));
  [data.x, data.labels, data.convX, data.convW].forEach((a, i) => writeFileSync(files[i], Buffer.from(a.buffer, a.byteOffset, a.byteLength)));
  const child = spawn(py, [join(here, 'torch_train.py'), ...files], { env: { ...process.env, OMP_NUM_THREADS: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const r = await lines.next();
    if (r.done) throw new Error('torch_train.py ended early');
    return JSON.parse(r.value);
  };
  let header;
  try {
    header = await next();
  } catch (e) {
    return { skipped: `torch_train.py failed (${e.message})` };
  }
  return {
    ...header,
    round: async (b) => {
      child.stdin.write(`round ${b.warmup} ${b.minCalls} ${b.minMs}\n`);
      return next();
    },
    stop: () => child.stdin.end(),
  };
}

// ---- tfjs-wasm conv2d (XNNPACK), NHWC, the same numbers transposed ------------------------------------
async function startTfjs(data) {
  const dir = join(here, 'node_modules', '@tensorflow');
  if (argv.includes('--no-tfjs')) return { skipped: 'not requested' };
  if (!existsSync(join(dir, 'tfjs-backend-wasm'))) return { skipped: 'not installed (bench/train/README.md)' };
  const require = createRequire(import.meta.url);
  const tf = require(join(dir, 'tfjs-core'));
  const wasm = require(join(dir, 'tfjs-backend-wasm'));
  wasm.setThreadsCount(1);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await tf.setBackend('wasm');
  const nhwc = new Float32Array(CONV_OUT), hwio = new Float32Array(32 * 32 * 9);
  for (let c = 0; c < 32; c++)
    for (let p = 0; p < 32 * 32; p++) nhwc[p * 32 + c] = data.convX[c * 1024 + p];
  for (let o = 0; o < 32; o++)
    for (let i = 0; i < 32; i++)
      for (let k = 0; k < 9; k++) hwio[(k * 32 + i) * 32 + o] = data.convW[(o * 32 + i) * 9 + k];
  const x = tf.tensor4d(nhwc, [1, 32, 32, 32]), w = tf.tensor4d(hwio, [3, 3, 32, 32]);
  const conv = () => {
    const y = tf.conv2d(x, w, 1, 'same');
    const out = y.dataSync();
    y.dispose();
    return out;
  };
  return { version: tf.version_core, conv };
}

// ---- the run ------------------------------------------------------------------------------------------
const load0 = loadavg()[0];
const ours = await loadOurs();
const dir = mkdtempSync(join(tmpdir(), 'bench-train-'));
const torch = await startTorch(ours.data, dir);
const tfjs = await startTfjs(ours.data);
const best = { ours: {}, torch: {}, tfjs: {} };
try {
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(ours.workloads)) keepBest(best.ours, name, timeRound(fn, BUDGET));
    if (torch.round) for (const [name, t] of Object.entries(await torch.round(BUDGET))) keepBest(best.torch, name, t);
    if (tfjs.conv) keepBest(best.tfjs, 'conv', timeRound(tfjs.conv, BUDGET));
  }
} finally {
  if (torch.stop) torch.stop();
  rmSync(dir, { recursive: true, force: true });
}

// The same convolution on both sides: max |ours − tfjs| relative to max |tfjs|.
let convCheck = '';
if (tfjs.conv) {
  const a = ours.convOutput(), b = tfjs.conv();
  let diff = 0, mag = 0;
  for (let o = 0; o < 32; o++)
    for (let p = 0; p < 1024; p++) {
      diff = Math.max(diff, Math.abs(a[o * 1024 + p] - b[p * 32 + o]));
      mag = Math.max(mag, Math.abs(b[p * 32 + o]));
    }
  convCheck = `conv outputs agree: max |ours − tfjs| = ${(diff / mag).toExponential(1)} · max |tfjs|`;
}

const ms = (t) => (t ? `${t.min.toFixed(2)} / ${t.median.toFixed(2)} / ${t.cpu.toFixed(2)}` : '—');
const ratio = (a, b) => (a && b ? `${(a.min / b.min).toFixed(2)} / ${(a.median / b.median).toFixed(2)} / ${(a.cpu / b.cpu).toFixed(2)}` : '—');
const gmacs = (t) => (t ? `${(CONV_MACS / t.min / 1e6).toFixed(1)} / ${(CONV_MACS / t.median / 1e6).toFixed(1)} / ${(CONV_MACS / t.cpu / 1e6).toFixed(1)}` : '—');
const O = best.ours, T = best.torch, J = best.tfjs;

console.log('tiny (TinyConvNet) at batch 32 and a 3×3 32→32 conv at 32×32, one thread everywhere');
console.log(`node ${process.version}; torch ${torch.torch ?? `skipped (${torch.skipped})`}${torch.threads ? `, ${torch.threads} thread` : ''}; ` +
            `tfjs-wasm ${tfjs.version ?? `skipped (${tfjs.skipped})`}; load average ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}; ${rounds} interleaved rounds`);
console.log('');
console.log('times in ms as wall min / wall median / median CPU time per call (each the best over the rounds); ratios likewise');
console.log('(goals judged on the median CPU time: on a shared machine a long call is preempted more often than a short one)');
console.log('');
console.log('| workload | ours (wasm) | anchor | ours / anchor | goal |');
console.log('|---|---|---|---|---|');
console.log(`| 1. float training step, tiny, batch 32 (fwd + bwd + SGD) | ${ms(O.float_step)} | torch ${ms(T.float_step)} | ${ratio(O.float_step, T.float_step)} | ≤ 1.0 |`);
console.log(`| 2. QAT step (fake quant), vs torch's float step | ${ms(O.qat_step)} | torch ${ms(T.float_step)} | ${ratio(O.qat_step, T.float_step)} | ≤ 1.5 |`);
console.log(`| 3. PTQ pipeline (export → prepare → 256 samples → convert → SQNR) | ${ms(O.ptq)} | — | — | ≤ 33 ms |`);
console.log(`| 4. conv 3×3 32→32 at 32×32, GMAC/s | ${gmacs(O.conv)} | tfjs-wasm ${gmacs(J.conv)} | ${ratio(J.conv, O.conv)} | — |`);
console.log(`| (tiny float forward, batch 32, eval) | ${ms(O.forward)} | torch ${ms(T.forward)} | ${ratio(O.forward, T.forward)} | — |`);
console.log(`| (conv as line 4, ms) | ${ms(O.conv)} | torch ${ms(T.conv)} | ${ratio(O.conv, T.conv)} | — |`);
console.log('');
console.log(`ours: last training loss ${ours.M._bench_last_loss().toFixed(4)}; PTQ SQNR ${ours.M._bench_last_sqnr().toFixed(2)} dB`);
if (convCheck) console.log(convCheck);
const goals = [
  ['1. float training step ≤ 1.0 × torch', T.float_step && O.float_step.cpu / T.float_step.cpu <= 1.0],
  ['2. QAT step ≤ 1.5 × torch\'s float step', T.float_step && O.qat_step.cpu / T.float_step.cpu <= 1.5],
  ['3. PTQ pipeline ≤ 33 ms', O.ptq.cpu <= 33],
];
for (const [g, ok] of goals) console.log(`${ok ? 'met ' : 'MISS'}  ${g}`);
