// bench/kernels/run.js — the integer kernels (engine/kernels, through engine/lower's int8 ops) side by side
// with two anchors, in one Node process, one thread everywhere:
//   onnxruntime-web 1.30.0   QLinearConv and MatMulInteger, U8S8 (the fair anchor: MLAS has SIMD int8 GEMMs
//                            for unsigned activations only) and S8S8 (our XNNPACK path's types)
//   @tensorflow/tfjs-backend-wasm 4.22.0   fp32 conv2d (XNNPACK inside, NHWC)
// Workloads: conv 3×3 32→32 at 32×32 (pad 1), conv 3×3 8→8 at 16×16 (pad 1), GEMM 256³ (the int8.linear op:
// activations packed, GEMM, requantized to int8; and the i16_gemm kernel alone on packed operands), and the
// whole `tiny` model lowered for XNNPACK (batch 1: quantize, int8 ops, dequantize) against our float `tiny`.
// Prints median ms, GMAC/s, % of the 54.4 GMAC/s SIMD128 int8 peak (i32x4.dot_i16x8_s at 3.4 GHz) and the
// ratio of each anchor's time to ours (> 1: we are faster), with the load average.
//
//   npm install --no-save --no-package-lock --ignore-scripts --prefix bench/kernels \
//       onnxruntime-web@1.30.0 @tensorflow/tfjs-core@4.22.0 @tensorflow/tfjs-backend-wasm@4.22.0 @tensorflow/tfjs-backend-cpu@4.22.0
//   cmake --build build/wasm --target bench_kernels
//   node bench/kernels/run.js [--build build/wasm] [--rounds 3] [--quick]
//
// Timing: JS drives every call; per step and round ≥ 30 warm-up calls, then timed calls until
// ≥ 200 calls and ≥ 3 s (--quick: 10 / 50 / 0.5 s); the median per round, the lowest median of the rounds.
// The rounds run round-robin over every step (ours and the anchors), so a burst of load from the machine's
// other processes hits them alike. (CPU time is no better a clock here: process.cpuUsage counts every
// thread of the process, V8's compiler and GC threads too; in a trial every step's CPU time a call was
// above its wall-clock median, the anchors' up to 5×.)
// Anchors are timed with their JS↔wasm copies (ORT: session.run with the same input; tfjs: op, dataSync,
// dispose); ours on codes already in wasm memory, as the engine's graphs pass them. The ONNX models are
// written by a small protobuf encoder below (ir_version 8, opset 13, one node, raw_data initializers).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../harness.js';

const { root, argv, opt, buildDir, rounds } = benchArgs(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const quick = argv.includes('--quick');
const budget = quick ? { warmup: 10, minCalls: 50, minMs: 500 } : { warmup: 30, minCalls: 200, minMs: 3000 };
const PEAK_INT8 = 54.4;
const require = createRequire(join(here, 'node_modules', 'x.js'));

// ---- timing harness -------------------------------------------------------------------------------
// One round of one step: the median wall-clock call, in ms.
async function timeRound(fn) {
  for (let i = 0; i < budget.warmup; i++) await fn();
  const ts = [];
  const t0 = process.hrtime.bigint();
  while (ts.length < budget.minCalls || Number(process.hrtime.bigint() - t0) / 1e6 < budget.minMs) {
    const a = process.hrtime.bigint();
    await fn();
    ts.push(Number(process.hrtime.bigint() - a) / 1e6);
  }
  ts.sort((x, y) => x - y);
  return ts[ts.length >> 1];
}

// ---- a minimal protobuf / ONNX writer ---------------------------------------------------------------
const varint = (n) => {
  const out = [];
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
};
const field = (num, wire, payload) => [...varint((num << 3) | wire), ...payload];
const bytesField = (num, bytes) => field(num, 2, [...varint(bytes.length), ...bytes]);
const str = (num, s) => bytesField(num, [...Buffer.from(s)]);
const int = (num, v) => field(num, 0, varint(v));
const ONNX = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6 };
const tensorProto = (name, type, dims, raw) =>
  [...dims.flatMap((d) => int(1, d)), ...int(2, type), ...str(8, name), ...bytesField(9, [...new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)])];
const valueInfo = (name, type, dims) =>
  [...str(1, name), ...bytesField(2, bytesField(1, [...int(1, type), ...bytesField(2, dims.flatMap((d) => bytesField(1, int(1, d))))]))];
const attrInts = (name, ints) => [...str(1, name), ...int(20, 7), ...ints.flatMap((v) => int(8, v))];
function model({ op, inputs, output, attrs = [], initializers, input, outputInfo }) {
  const node = [...inputs.flatMap((i) => str(1, i)), ...str(2, output), ...str(4, op), ...attrs.flatMap((a) => bytesField(5, a))];
  const graph = [...bytesField(1, node), ...str(2, 'g'), ...initializers.flatMap((t) => bytesField(5, t)),
    ...bytesField(11, valueInfo(...input)), ...bytesField(12, valueInfo(...outputInfo))];
  return new Uint8Array([...int(1, 8), ...bytesField(7, graph), ...bytesField(8, [...str(1, ''), ...int(2, 13)])]);
}

let lcg = 12345;
const rnd = () => ((lcg = (lcg * 1103515245 + 12345) >>> 0) >>> 8) / 16777216;
const fill = (T, n, lo, hi) => T.from({ length: n }, () => Math.floor(lo + rnd() * (hi - lo + 1)));
const scalarF = (v) => new Float32Array([v]);

// QLinearConv (x u8 or s8, per-output-channel s8 weights, int32 bias, pads 1) or MatMulInteger (A input, B initializer).
function qlinearConv(C, O, H, W, signed) {
  const X = signed ? ONNX.INT8 : ONNX.UINT8, XA = signed ? Int8Array : Uint8Array;
  return {
    bytes: model({
      op: 'QLinearConv', inputs: ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz', 'b'], output: 'y',
      attrs: [attrInts('pads', [1, 1, 1, 1]), attrInts('kernel_shape', [3, 3])],
      initializers: [tensorProto('xs', ONNX.FLOAT, [], scalarF(0.02)), tensorProto('xz', X, [], new XA([signed ? 0 : 128])),
        tensorProto('w', ONNX.INT8, [O, C, 3, 3], fill(Int8Array, O * C * 9, -127, 127)),
        tensorProto('ws', ONNX.FLOAT, [O], Float32Array.from({ length: O }, (_, i) => 0.001 + 0.0001 * (i % 7))),
        tensorProto('wz', ONNX.INT8, [O], new Int8Array(O)), tensorProto('ys', ONNX.FLOAT, [], scalarF(0.05)),
        tensorProto('yz', X, [], new XA([signed ? 0 : 128])), tensorProto('b', ONNX.INT32, [O], fill(Int32Array, O, -1000, 1000))],
      input: ['x', X, [1, C, H, W]], outputInfo: ['y', X, [1, O, H, W]],
    }),
    input: ['x', signed ? 'int8' : 'uint8', fill(XA, C * H * W, signed ? -128 : 0, signed ? 127 : 255), [1, C, H, W]],
  };
}
function matMulInteger(M, K, N, signed) {
  const X = signed ? ONNX.INT8 : ONNX.UINT8, XA = signed ? Int8Array : Uint8Array;
  return {
    bytes: model({
      op: 'MatMulInteger', inputs: ['a', 'b', 'az', 'bz'], output: 'y',
      initializers: [tensorProto('b', ONNX.INT8, [K, N], fill(Int8Array, K * N, -127, 127)),
        tensorProto('az', X, [], new XA([signed ? 0 : 128])), tensorProto('bz', ONNX.INT8, [], new Int8Array([0]))],
      input: ['a', X, [M, K]], outputInfo: ['y', ONNX.INT32, [M, N]],
    }),
    input: ['a', signed ? 'int8' : 'uint8', fill(XA, M * K, signed ? -128 : 0, signed ? 127 : 255), [M, K]],
  };
}

// ---- the runs ---------------------------------------------------------------------------------------
// A step: { workload, impl, macs, ours, prepare() (makes it the module's current call, for ours), fn }.
const steps = [];

async function main() {
  const benchJs = join(buildDir, 'bench', 'bench_kernels.js');
  if (!existsSync(benchJs)) throw new Error(`missing ${benchJs}: cmake --build ${buildDir} --target bench_kernels`);
  const createBench = createRequire(import.meta.url)(benchJs);
  const M = await createBench({ wasmBinary: readFileSync(join(buildDir, 'bench', 'bench_kernels.wasm')) });
  const run = () => M._bench_run();

  const conv32 = 32 * 32 * 9 * 32 * 32, conv8 = 8 * 8 * 9 * 16 * 16, gemm = 256 ** 3;
  const ours = [
    ['conv 3x3 32->32 32x32', 'ours int8.conv2d s8 (xnnpack)', () => M._bench_conv_setup(32, 32, 32, 32, 3, 1, 0), conv32],
    ['conv 3x3 32->32 32x32', 'ours int8.conv2d u8 (x86)', () => M._bench_conv_setup(32, 32, 32, 32, 3, 1, 1), conv32],
    ['conv 3x3 8->8 16x16', 'ours int8.conv2d s8 (xnnpack)', () => M._bench_conv_setup(8, 8, 16, 16, 3, 1, 0), conv8],
    ['GEMM 256^3', 'ours int8.linear s8 (pack + GEMM + requant)', () => M._bench_linear_setup(256, 256, 256, 0), gemm],
    ['GEMM 256^3', 'ours i16_gemm kernel alone', () => M._bench_gemm_setup(256, 256, 256), gemm],
    ['tiny, batch 1', 'ours lowered int8 (xnnpack)', () => M._bench_tiny_setup(1, 1), 0],
    ['tiny, batch 1', 'ours float', () => M._bench_tiny_setup(0, 1), 0],
  ];
  for (const [workload, impl, prepare, macs] of ours) steps.push({ workload, impl, macs, ours: true, prepare, fn: run });

  let ort = null;
  try { ort = require('onnxruntime-web'); } catch { console.log('onnxruntime-web not installed: see the header of this file'); }
  if (ort) {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    const anchors = [
      ['conv 3x3 32->32 32x32', 'ORT-web QLinearConv U8S8', qlinearConv(32, 32, 32, 32, false), conv32],
      ['conv 3x3 32->32 32x32', 'ORT-web QLinearConv S8S8', qlinearConv(32, 32, 32, 32, true), conv32],
      ['conv 3x3 8->8 16x16', 'ORT-web QLinearConv U8S8', qlinearConv(8, 8, 16, 16, false), conv8],
      ['GEMM 256^3', 'ORT-web MatMulInteger U8S8', matMulInteger(256, 256, 256, false), gemm],
      ['GEMM 256^3', 'ORT-web MatMulInteger S8S8', matMulInteger(256, 256, 256, true), gemm],
    ];
    for (const [workload, impl, m, macs] of anchors) {
      const session = await ort.InferenceSession.create(m.bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
      const [name, type, data, dims] = m.input;
      const feeds = { [name]: new ort.Tensor(type, data, dims) };
      steps.push({ workload, impl, macs, ours: false, prepare: () => {}, fn: () => session.run(feeds) });
    }
  }

  let tf = null;
  try {
    tf = require('@tensorflow/tfjs-core');
    require('@tensorflow/tfjs-backend-cpu');
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    wasm.setThreadsCount(1);
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    await tf.setBackend('wasm');
  } catch (e) { console.log(`tfjs-backend-wasm unavailable (${e.message}): see the header of this file`); tf = null; }
  if (tf) {
    for (const [workload, C, H, macs] of [['conv 3x3 32->32 32x32', 32, 32, conv32], ['conv 3x3 8->8 16x16', 8, 16, conv8]]) {
      const x = tf.tensor4d(Float32Array.from({ length: H * H * C }, () => rnd() - 0.5), [1, H, H, C]);
      const f = tf.tensor4d(Float32Array.from({ length: 9 * C * C }, () => rnd() - 0.5), [3, 3, C, C]);
      steps.push({ workload, impl: 'tfjs-wasm conv2d fp32', macs, ours: false, prepare: () => {},
        fn: () => { const y = tf.conv2d(x, f, 1, 'same'); y.dataSync(); y.dispose(); } });
    }
  }

  for (const st of steps) st.ms = Infinity;
  for (let r = 0; r < rounds; r++)
    for (const st of steps) {
      st.prepare();
      st.ms = Math.min(st.ms, await timeRound(st.fn));
    }

  console.log(`bench/kernels: node ${process.version}, ${rounds} round(s)${quick ? ' (quick)' : ''}, load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}, checksum ${M._bench_checksum()}`);
  console.log('| workload | implementation | median ms | GMAC/s | % of 54.4 int8 peak | anchor time / ours |');
  console.log('|---|---|---|---|---|---|');
  for (const r of steps) {
    const gmacs = r.macs ? r.macs / (r.ms * 1e6) : null;
    const mine = steps.filter((o) => o.ours && o.workload === r.workload);
    const ratios = r.ours ? '' : mine.map((o) => `${(r.ms / o.ms).toFixed(2)}x vs ${o.impl.replace(/^ours /, '')}`).join('; ');
    console.log(`| ${r.workload} | ${r.impl} | ${r.ms.toFixed(4)} | ${gmacs ? gmacs.toFixed(1) : '-'} | ${gmacs ? ((100 * gmacs) / PEAK_INT8).toFixed(0) + ' %' : '-'} | ${ratios} |`);
  }
  const tinyI = steps.find((r) => r.impl === 'ours lowered int8 (xnnpack)'), tinyF = steps.find((r) => r.impl === 'ours float');
  if (tinyI && tinyF) console.log(`tiny: lowered int8 is ${(tinyF.ms / tinyI.ms).toFixed(2)}x the speed of our float tiny`);
  // GMAC/s counts each workload's direct multiply-adds, whatever algorithm ran them: our conv 32ch runs integer
  // Winograd F(2x2, 3x3) (engine/lower/int8_ops.cpp conv_takes_winograd), 16 of the direct 36 per 2x2 outputs.
  console.log('GMAC/s and % of peak count the direct convolution\'s multiply-adds; our conv 3x3 32->32 runs integer Winograd ' +
    'F(2x2, 3x3), which performs 16/36 of them (4.19 M of 9.44 M), so its % of peak is not the kernel\'s own');
}

await main();
