// js_api.fuzz.js — the JS-level fuzzer: random calls through the public API (what a learner's cell reaches:
// every function on `pt`, every class, every method and getter of the objects they return) with arguments of
// every kind — right ones from a pool of live engine objects, and wrong ones: wrong types, NaN / ±Inf / -0,
// huge and negative numbers, strings with markup, holey and huge arrays, objects whose getters throw, proxies,
// symbols, bigints, functions, deleted objects (methods on them, double delete), nodes of another graph — and
// JS quantizers whose annotate throws (an Error or not), returns garbage, annotates nodes of another graph or
// re-enters prepare_pt2e. After every call that throws, the canary (canary.js) proves the engine still works.
//
//   node tests/fuzz/js_api.fuzz.js [--calls 100000] [--seed 1] [--verbose] [--trace (each call and what it is given, to stderr)]
//   import { fuzzApi } from './js_api.fuzz.js'; const report = await fuzzApi(pt, { calls: 5000, seed: 7 });
//
// An error is typed when it is one of the engine's five classes (pt.errors) and did not come through
// engine.js's safety net for Embind's own errors (those keep the original as `cause`): then the argument
// reached the bindings unchecked, which counts as untyped — as do a wasm trap (RuntimeError: unreachable,
// memory access out of bounds), Embind's BindingError, and any plain JS error raised inside the API (a
// TypeError "x is not a function" from a missing check). The fuzzer's own callbacks throw FuzzThrow; one that
// comes back unchanged (the learner's own error, passed through) counts as typed.
// The internal helpers on pt (module: the raw Embind module; wrapGraphModule / wrapObserver / gmArg / check:
// the API files' plumbing) are not part of the surface.
import { canary } from './canary.js';

export class FuzzThrow extends Error {
  constructor(m) { super(m); this.name = 'FuzzThrow'; }
}

const INTERNAL = new Set(['module', 'wrapGraphModule', 'wrapObserver', 'gmArg', 'check', 'errors']);

// mulberry32: a small seeded generator, so a failure can be replayed with its --seed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function fuzzApi(pt, { calls = 100000, seed = 1, verbose = false, log = console.log, trace = null } = {}) {
  const rand = rng(seed);
  const int = (n) => Math.floor(rand() * n);
  const pick = (xs) => xs[int(xs.length)];
  const chance = (p) => rand() < p;

  // ---- the pool of live objects, each with what it is ----
  const pool = [];          // { kind, value }
  const POOL_MAX = 60;
  const deleted = [];       // objects deleted on purpose (methods on them must be typed errors)
  const add = (kind, value) => {
    if (value === null || value === undefined) return;
    pool.push({ kind, value });
    if (pool.length > POOL_MAX) {
      const [old] = pool.splice(int(pool.length - 10), 1);
      if (typeof old.value?.delete === 'function' && alive(old.value)) old.value.delete();
    }
  };
  const ofKind = (kind) => pool.filter((e) => e.kind === kind).map((e) => e.value);
  const alive = (x) => { try { return !x.isDeleted?.(); } catch { return false; } };
  const anyOf = (kind, make) => {
    const xs = ofKind(kind).filter(alive);
    return xs.length && chance(0.8) ? pick(xs) : make();
  };

  const models = pt.model_names();
  const inputShapes = models.map((name) => pt.scope(() => pt.get_model(name).input_shape));
  const dtypes = ['float32', 'int8', 'uint8', 'int16', 'int32', 'torch.qint8', 'quint8', 'qint32', 'complex64', '', 'INT8'];
  const qschemes = ['per_tensor_affine', 'per_tensor_symmetric', 'per_channel_affine', 'per_channel_symmetric', 'per_channel_affine_float_qparams', 'torch.per_tensor_affine', 'nope'];
  const kwargNames = pt.observer_kwargs.map((k) => k.name);

  // ---- values ----
  const numbers = [0, -0, 1, -1, 2, 3, 0.5, -2.5, 127, -128, 255, 256, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 2 ** 32, 2 ** 53, 2 ** 53 + 2,
    1e20, -1e300, 1e-45, Number.MIN_VALUE, NaN, Infinity, -Infinity, Number.EPSILON, 2 ** -12, 1e-5, 0.01, 4, 8, 16];
  const strings = () => ['', 'x', 'relu', 'conv2d', 'aten.relu.default', 'int8', 'MinMaxObserver', 'HistogramObserver', 'min_val', 'scale',
    '<img src=x onerror=alert(1)>', '__proto__', 'constructor', 'a'.repeat(5000), '\u0000', '😀', 'cross_entropy', 'SGD', 'observer', 'fake_quant',
    ...gmNodeNames()];
  const gmNodeNames = () => {
    const gms = ofKind('gm').filter(alive);
    if (!gms.length) return [];
    try { return pick(gms).nodes.map((n) => n.name); } catch { return []; }
  };
  const throwingGetter = () => Object.defineProperty({}, pick(['dtype', 'length', 'name', 'kind', 'scale', 'ch', 'n']), { get() { throw new FuzzThrow('getter'); }, enumerable: true });
  const weird = () => pick([
    null, undefined, true, false, 10n, -(2n ** 70n), Symbol('s'), () => 1, () => { throw new FuzzThrow('fn'); },
    {}, [], [[]], [1, [2]], new Array(5), [1, , 3], Object.create(null), throwingGetter(),
    new Proxy({}, { get: () => { throw new FuzzThrow('proxy'); } }), new Proxy([], { get: (t, k) => (k === 'length' ? 2 ** 32 - 1 : undefined) }),
    new Float32Array([NaN, Infinity, -0]), new Int8Array(3), new Uint8Array(0), new Float64Array(4), new ArrayBuffer(8), new Date(0), /re/, new Map([['a', 1]]),
    { length: 2 ** 40 }, { length: -1 }, { length: 3, 0: 1, 1: 2, 2: 3 }, { valueOf() { throw new FuzzThrow('valueOf'); } }, Object.freeze({ a: 1 }),
    pick(deleted.length ? deleted : [null]),
  ]);
  // A shape: small (at most SMALL_NUMEL elements), or past what a tensor may hold (negative, fractional or
  // non-finite sizes, 2^31 elements and more) — never the slow middle, where a legal shape of millions of elements
  // makes one call take seconds to minutes (the libFuzzer targets' shapes avoid it too: fuzz_input.h).
  const SMALL_NUMEL = 4096;
  const pastOrSmall = (s) => {
    const numel = s.reduce((p, d) => p * d, 1);
    if (s.every((d) => Number.isInteger(d) && d > 0) && numel > SMALL_NUMEL && numel < 2 ** 31) s[0] = 2 ** 31;
    return s;
  };
  const shape = () => (chance(0.7) ? pastOrSmall(Array.from({ length: int(5) }, () => (chance(0.85) ? 1 + int(6) : pick(numbers))))
    : pick([[], [0], [2 ** 30], [-1], [1.5], ['2'], [NaN], [null], [2 ** 20, 2 ** 20], [65536, 16385], [1e20], 'abc', 3, null]));
  const number = () => (chance(0.5) ? pick(numbers) : (rand() - 0.5) * 10 ** int(6));
  const kwargs = () => {
    const o = {};
    for (let i = 0, n = int(4); i < n; i++) {
      const k = chance(0.85) ? pick([...kwargNames, 'is_per_channel', 'is_qat', 'is_dynamic', 'ch', 'n', 'batch_size', 'lr', 'momentum', 'betas', 'loss', 'batches',
        'input_qspec_map', 'output_qspec', '_annotated', 'allow_implicit_sharing', 'dtype', 'quant_min', 'quant_max', 'observer_or_fake_quant_ctr',
        'derived_from', 'derive_qparams_fn', 'edge_or_node', 'zero_point', 'scale', 'range']) : pick(strings());
      // An own property whatever the key: a drawn '__proto__' must not turn o's prototype into an engine object.
      Object.defineProperty(o, k, { value: value(1), enumerable: true, writable: true, configurable: true });
    }
    return o;
  };

  // ---- engine objects, made through the API (errors while making them are fine: they are calls too) ----
  const makers = {
    tensor: () => pick([() => pt.randn(shapeSmall()), () => pt.rand(shapeSmall()), () => pt.tensor([number(), number(), number()], [3]),
      () => pt.tensor([-1, 0, 5, 127], [4], 'int8'), () => pt.tensor([1, 2, 3, 0], [4], 'int32'), () => pt.tensor(new Float32Array([NaN, Infinity, -Infinity, -0]), [2, 2]),
      () => pt.randn([0]), () => pt.randn([])])(),
    observer: () => {
      const cls = pick(pt.observer_classes);
      return new pt[cls](chance(0.5) ? {} : kwargs());
    },
    model: () => pt.get_model(chance(0.95) ? pick(models) : pick(strings()), chance(0.8) ? {} : kwargs()),
    gm: () => {
      const m = anyOf('model', makers.model);
      const g = pt.export(m, [pt.randn([1 + int(2), ...m.input_shape])]);
      if (chance(0.4)) {
        const p = pt.prepare_pt2e(g, makers.quantizer());
        if (chance(0.5)) { p.forward(pt.randn([1, ...m.input_shape])); return chance(0.5) ? pt.convert_pt2e(p) : p; }
        return p;
      }
      return g;
    },
    // A lowered graph (XNNPACK / X86 / the VPU simulation) of a converted one, or of whatever gm the pool holds.
    lowered: () => {
      const g = anyOf('gm', makers.gm);
      const r = rand();
      if (r < 0.45) return pt.lower(g, chance(0.9) ? pick(['xnnpack', 'x86']) : value(1), chance(0.7) ? undefined : kwargs());
      if (r < 0.7) return pt.simulate_vpu(g);
      return pt.to_edge_transform_and_lower(g, { partitioner: [new pt.XnnpackPartitioner()] }).exported_program();
    },
    // integer_picture on a lowered graph's node: an int8 op's name usually, indices often inside the output. Its
    // result is plain data (an object or an array of them), not an API object, so it does not join the pool.
    picture: () => {
      const g = anyOf('lowered', makers.lowered);
      const nodes = g.nodes.filter((n) => chance(0.2) || /int8\.(conv2d|linear)/.test(String(n.target)));
      const node = nodes.length && chance(0.9) ? pick(nodes).name : pick(strings());
      const x = chance(0.8) ? pt.randn([1 + int(2), ...pick(inputShapes)]) : value(1);
      const index = () => (chance(0.8) ? int(64) : value(1));
      const opts = chance(0.45) ? { index: index() } : chance(0.8) ? { indices: Array.from({ length: int(6) }, index) } : kwargs();
      pt.integer_picture(g, node, x, opts);
    },
    quantizer: () => (chance(0.6) ? backendQuantizer() : chance(0.8) ? jsQuantizer() : new pt.ComposableQuantizer([backendQuantizer(), jsQuantizer()])),
    config: () => pick(configFunctions)(chance(0.6) ? {} : kwargs()),
    spec: () => pick([
      () => new pt.QuantizationSpec({ dtype: pick(dtypes), observer_or_fake_quant_ctr: chance(0.7) ? pt[pick(pt.observer_classes)].with_args(chance(0.5) ? {} : { eps: 2 ** -12 }) : value(1),
        quant_min: chance(0.5) ? null : number(), quant_max: chance(0.5) ? null : number(), qscheme: chance(0.5) ? null : pick(qschemes), ch_axis: chance(0.8) ? null : number() }),
      () => new pt.SharedQuantizationSpec(chance(0.5) ? pick(strings()) : [pick(strings()), pick(strings())]),
      () => new pt.FixedQParamsQuantizationSpec({ dtype: pick(dtypes), scale: number(), zero_point: number(), quant_min: chance(0.5) ? null : number(), quant_max: chance(0.5) ? null : number() }),
      () => new pt.DerivedQuantizationSpec({ derived_from: [[pick(strings()), pick(strings())]], derive_qparams_fn: deriveFn(), dtype: pick(dtypes), quant_min: -(2 ** 31), quant_max: 2 ** 31 - 1, qscheme: 'per_tensor_symmetric' }),
    ])(),
    annotation: () => new pt.QuantizationAnnotation(chance(0.7) ? { input_qspec_map: [[pick(strings()), anyOf('spec', makers.spec)]], output_qspec: chance(0.5) ? null : anyOf('spec', makers.spec), _annotated: chance(0.5) } : value(1)),
    optimizer: () => {
      const g = anyOf('gm', makers.gm);
      return new (chance(0.5) ? pt.optim.SGD : pt.optim.Adam)(chance(0.8) ? g.parameters() : value(1), chance(0.6) ? { lr: 0.01 } : kwargs());
    },
    // A loss of a recorded output with torch's keyword arguments, often valid, then backward with or without a
    // cotangent. Its result is a tensor, kept out of the pool like integer_picture's.
    loss: () => {
      const g = anyOf('gm', makers.gm);
      const x = pt.randn([1 + int(3), ...pick(inputShapes)]);
      let out;
      try { out = g.forward(x); } catch { out = x; }
      const o = Array.isArray(out) ? out[0] : out;
      const kw = chance(0.7) ? { reduction: pick(['mean', 'sum', 'none', 'avg', value(1)]), label_smoothing: chance(0.5) ? Math.random() : value(1),
        ignore_index: chance(0.5) ? int(4) : value(1), weight: chance(0.5) ? null : chance(0.5) ? pt.rand([o.shape?.[1] ?? 1]) : value(1) } : kwargs();
      const loss = chance(0.7) ? pt.nn.functional.cross_entropy(o, chance(0.8) ? Array.from({ length: o.shape?.[0] ?? 1 }, () => int(5)) : value(1), kw)
        : pt.nn.functional.mse_loss(o, chance(0.8) ? pt.randn(o.shape ?? [1]) : value(1), chance(0.5) ? { reduction: kw.reduction } : kw);
      loss.backward(chance(0.5) ? undefined : chance(0.7) ? pt.rand(loss.shape) : value(1));
    },
    loop: () => {
      const g = anyOf('gm', makers.gm);
      const opt = new pt.optim.SGD(g.parameters(), { lr: 0.01 });
      return new pt.TrainLoop(g, opt, chance(0.7) ? { loss: pick(['cross_entropy', 'mse_loss', 'nope']), batches: pt.calibration_batches({ n: 2, batch_size: 1 }) } : kwargs());
    },
  };
  const shapeSmall = () => Array.from({ length: int(4) }, () => 1 + int(5));
  const configFunctions = Object.keys(pt).filter((k) => /^get_.*config$/.test(k)).map((k) => pt[k]);
  const quantizerClasses = [pt.XNNPACKQuantizer, pt.X86InductorQuantizer, ...Object.values(pt.executorch ?? {})].filter((c) => c?.prototype instanceof pt.Quantizer);
  function backendQuantizer() {
    const Q = pick(quantizerClasses);
    const q = new Q();
    const setters = Object.getOwnPropertyNames(Q.prototype).filter((n) => n.startsWith('set_'));
    for (let i = 0, n = int(3); i < n; i++) {
      const s = pick(setters);
      const args = Array.from({ length: int(3) }, () => (chance(0.5) ? anyOf('config', makers.config) : chance(0.5) ? pick(strings()) : value(1)));
      try { q[s](...args); } catch { /* a setter records only */ }
    }
    return q;
  }
  function deriveFn() {
    return pick([
      // The fuzzer may call a spec's derive_qparams_fn itself (it is a property like any other): then the learner's
      // function, not the API, meets a wrong argument, and says so with the fuzzer's own error.
      (obs) => {
        if (!Array.isArray(obs)) throw new FuzzThrow('derive_qparams_fn called without a list of observers');
        return { scale: obs.map((o) => o?.scale?.[0] ?? 1), zero_point: obs.map(() => 0) };
      },
      () => { throw new FuzzThrow('derive'); },
      () => value(1),
      () => ({ scale: [NaN, Infinity], zero_point: [2 ** 40] }),
      () => ({ scale: { length: 2 ** 31 }, zero_point: [] }),
    ]);
  }
  // A learner's quantizer in JS: its annotate does one of the things a cell gets wrong.
  function jsQuantizer() {
    const behaviour = int(7);
    const other = ofKind('gm').find(alive);
    const spec = anyOf('spec', makers.spec);
    class FuzzQuantizer extends pt.Quantizer {
      annotate(gm) {
        switch (behaviour) {
          case 0: throw new FuzzThrow('annotate');
          case 1: throw pick(['a string', 42, undefined, null, { message: 5 }]);  // not an Error
          case 2: return value(1);                                                // garbage
          case 3: if (other) pt.annotate_output_qspec(other, pick(other.nodes), spec); return gm;  // another graph
          case 4: return pt.prepare_pt2e(gm, this);                               // re-enters prepare
          case 5: for (const n of gm.nodes) if (chance(0.5)) pt.annotate_output_qspec(gm, n, chance(0.5) ? spec : value(1)); return gm;
          default: for (const n of gm.nodes) if (n.kind === 'op') gm.annotate(n, new pt.QuantizationAnnotation({ output_qspec: spec, input_qspec_map: n.args.filter((a) => typeof a === 'string').map((a) => [a, spec]), _annotated: true })); return gm;
        }
      }
    }
    if (chance(0.3)) FuzzQuantizer.prototype.validate = () => { if (chance(0.5)) throw new FuzzThrow('validate'); };
    if (chance(0.2)) FuzzQuantizer.prototype.transform_for_annotation = (gm) => value(1);
    return new FuzzQuantizer();
  }

  // Any value: usually of the kind some API takes, often not.
  function value(depth = 0) {
    const r = rand();
    if (r < 0.30 && pool.length) return pick(pool).value;
    if (r < 0.40) return number();
    if (r < 0.52) return pick(strings());
    if (r < 0.62) return shape();
    if (r < 0.70) return pick(dtypes);
    if (r < 0.76 && depth < 2) return kwargs();
    if (r < 0.80 && depth < 2) return Array.from({ length: int(4) }, () => value(depth + 1));
    if (r < 0.84) { const n = pick(pool.filter((e) => e.kind === 'gm'))?.value; try { return n ? pick(n.nodes) : null; } catch { return null; } }
    return weird();
  }

  // ---- the callables: pt's functions and constructors, and the methods / getters of pooled objects ----
  const ptFunctions = [];
  const walk = (obj, prefix) => {
    for (const k of Object.keys(obj)) {
      if (INTERNAL.has(k) && obj === pt) continue;
      const v = obj[k];
      if (typeof v === 'function') ptFunctions.push([`${prefix}${k}`, v]);
      else if (v && typeof v === 'object' && !Array.isArray(v) && prefix.split('.').length < 3) walk(v, `${prefix}${k}.`);
    }
  };
  walk(pt, 'pt.');
  // The API's methods of an object (a learner's quantizer's own annotate / validate are the learner's code, not the API's).
  const methodsOf = (obj) => {
    const names = new Set();
    for (let p = Object.getPrototypeOf(obj); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
      if (p.constructor?.name === 'FuzzQuantizer') continue;
      for (const n of Object.getOwnPropertyNames(p)) if (n !== 'constructor') names.add(n);
    }
    for (const n of Object.keys(obj)) names.add(n);
    return [...names];
  };

  // ---- classification ----
  const typedClasses = Object.values(pt.errors);
  const report = { calls: 0, ok: 0, typed: {}, untyped: 0, untypedExamples: [], canaryRuns: 0, slow: [], seed };
  function classify(e, where) {
    const name = e?.name ?? typeof e;
    const isTyped = (typedClasses.some((C) => e instanceof C) && !e.cause) || e instanceof FuzzThrow;
    if (isTyped) {
      report.typed[name] = (report.typed[name] ?? 0) + 1;
      return;
    }
    report.untyped++;
    const line = `${where}: ${e?.constructor?.name ?? typeof e} ${name}: ${String(e?.message ?? e).slice(0, 200)}${e?.cause ? ` (cause: ${e.cause.name}: ${String(e.cause.message).slice(0, 120)})` : ''}`;
    const key = line.replace(/\d+/g, 'N').slice(0, 160);
    if (!report.untypedExamples.some((x) => x.key === key)) report.untypedExamples.push({ key, line, stack: String(e?.stack ?? '').split('\n').slice(1, 4).join(' | ') });
  }

  // With trace: the receiver and arguments of the call about to run (a call that never returns shows what it was given).
  const describe = (v) => {
    try {
      if (v instanceof pt.Tensor) return `Tensor[${v.shape}] ${v.dtype}`;
      if (v instanceof pt.GraphModule) return `GraphModule(${v.nodes.filter((n) => n.op === 'call_function').map((n) => n.target).join(' ')})`;
      if (Array.isArray(v)) return `[${v.slice(0, 8).map(describe).join(', ')}${v.length > 8 ? ', …' : ''}]`;
      if (v && typeof v === 'object') return v.constructor?.name && v.constructor !== Object ? v.constructor.name : JSON.stringify(v)?.slice(0, 120) ?? 'object';
      return typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : String(v);
    } catch {
      return typeof v;
    }
  };
  const traceArgs = (self, args) => { if (trace) trace(`    ${self === pt ? 'pt' : describe(self)} (${args.map(describe).join(', ')})`); };

  // One random call; engine objects it returns join the pool.
  function oneCall() {
    let where, fn;
    if (pool.length && chance(0.55)) {
      const { kind, value: obj } = pick(pool);
      const names = methodsOf(obj);
      if (!names.length) return;
      const m = pick(names);
      where = `${kind}.${m}`;
      if (m === 'delete' && chance(0.5)) { deleted.push(obj); if (deleted.length > 20) deleted.shift(); }
      fn = () => {
        const desc = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(obj), m);
        if (desc?.get && !desc.value) return obj[m];
        const f = obj[m];
        if (typeof f !== 'function') return f;
        const args = Array.from({ length: int(4) }, () => value());
        traceArgs(obj, args);
        return f.apply(obj, args);
      };
    } else if (chance(0.25)) {
      const kind = pick(Object.keys(makers));
      where = `make ${kind}`;
      fn = () => { const v = makers[kind](); add(kind, v); return v; };
    } else {
      const [name, f] = pick(ptFunctions);
      where = name;
      const args = Array.from({ length: chance(0.7) ? f.length : int(5) }, () => value());
      fn = () => {
        traceArgs(pt, args);
        return /^pt\.[A-Z]|^pt\.\w+\.[A-Z]/.test(name) ? new f(...args) : f(...args);
      };
    }
    report.calls++;
    if (trace) trace(`${report.calls} ${where}`);
    const t0 = performance.now();
    try {
      const out = pt.scope(fn);
      report.ok++;
      keep(where, out);
    } catch (e) {
      classify(e, where);
      report.canaryRuns++;
      try {
        canary(pt);
      } catch (c) {
        report.canaryFailed = `${where}: ${c.message} (after ${e?.name}: ${String(e?.message).slice(0, 200)})`;
        throw c;
      }
    } finally {
      const ms = performance.now() - t0;
      if (ms > 2000) report.slow.push(`${where} ${Math.round(ms)} ms`);
    }
  }
  // What a call returned (pt.scope kept it alive, with any engine objects in a returned array or plain object):
  // engine objects and specs join the pool, the rest of what can be freed is freed.
  const kindOf = (v) => (v instanceof pt.Tensor ? 'tensor' : v instanceof pt.GraphModule ? 'gm' : v instanceof pt.Model ? 'model'
    : v instanceof pt.ObserverBase ? 'observer' : v instanceof pt.Quantizer ? 'quantizer' : v instanceof pt.optim.Optimizer ? 'optimizer'
      : v instanceof pt.TrainLoop ? 'loop' : v instanceof pt.QuantizationAnnotation ? 'annotation'
        : v && typeof v === 'object' && typeof v.kind === 'string' && /Spec$/.test(v.kind) ? 'spec' : null);
  function keep(where, out, depth = 0) {
    if (where.startsWith('make') || !out || typeof out !== 'object') return;
    const k = kindOf(out);
    if (k) { if (!pool.some((e) => e.value === out)) add(k, out); return; }
    if (typeof out.delete === 'function') { if (alive(out)) out.delete(); return; }
    if (depth < 2 && (Array.isArray(out) || Object.getPrototypeOf(out) === Object.prototype)) for (const v of Object.values(out)) keep(where, v, depth + 1);
  }

  // Seed the pool, then fuzz.
  for (const kind of Object.keys(makers)) for (let i = 0; i < 2; i++) { try { const v = pt.scope(() => makers[kind]()); add(kind, v); } catch { /* fine */ } }
  const t0 = Date.now();
  for (let i = 0; i < calls; i++) {
    oneCall();
    if (verbose && i % 10000 === 0) log(`  ${i} calls, ${report.untyped} untyped, pool ${pool.length}, ${Math.round((Date.now() - t0) / 1000)} s`);
  }
  for (const { value: v } of pool) if (typeof v?.delete === 'function' && alive(v)) v.delete();
  report.seconds = Math.round((Date.now() - t0) / 1000);
  return report;
}

if (process.argv[1] && (await import('node:url')).fileURLToPath(import.meta.url) === (await import('node:path')).resolve(process.argv[1])) {
  const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : dflt; };
  const { loadEngine } = await import('../../web/api/index.js');
  const pt = await loadEngine();
  const report = await fuzzApi(pt, { calls: Number(arg('--calls', 100000)), seed: Number(arg('--seed', 1)), verbose: process.argv.includes('--verbose'),
    trace: process.argv.includes('--trace') ? (line) => process.stderr.write(`${line}\n`) : null });
  console.log(`js fuzz (seed ${report.seed}): ${report.calls} calls in ${report.seconds} s, ${report.ok} returned, typed errors ${JSON.stringify(report.typed)}, ` +
    `${report.untyped} untyped, canary run ${report.canaryRuns} times${report.canaryFailed ? `, FAILED: ${report.canaryFailed}` : ', passed every time'}`);
  for (const x of report.untypedExamples.slice(0, 40)) console.log(`  untyped: ${x.line}\n      at ${x.stack}`);
  if (report.slow.length) console.log(`  slow calls (> 2 s): ${report.slow.slice(0, 10).join('; ')}`);
  process.exit(report.untyped || report.canaryFailed ? 1 : 0);
}
