// engine.js — loads the wasm module and gives every API file the same tools (makeTools):
//   call(fn, ...args)  run a raw Embind function and turn a recorded C++ error into a typed JS Error
//   own / release      hand an Embind object to JS with scope tracking and a GC safety net
//   check.*            argument validation that names the argument, as PyTorch's messages do; a dtype
//                      name is checked by the engine (one list of names and aliases, engine/core/tensor.h)
// The raw module (dist/pt2e_engine.mjs) is built by scripts/build.sh; Node needs a small harness
// (Debian's emscripten 3.1.6 emits ES6 code that expects require/__dirname and fetch of a file URL).

export class PtError extends Error {
  constructor(message) { super(message); this.name = this.constructor.name; }
}
export class ValueError extends PtError {}
// Extends the built-in TypeError so `e instanceof TypeError` holds, as for JS's own type errors.
export class TypeError_ extends globalThis.TypeError { constructor(m) { super(m); this.name = 'TypeError'; } }
export class RuntimeError extends PtError {}
export class NotImplementedError extends PtError {}
export class IndexError extends PtError {}
export const errors = { ValueError, TypeError: TypeError_, RuntimeError, NotImplementedError, IndexError };

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';
// PT2E_DIST=<folder> (Node only): load the engine a developer built in their own build folder
// (<build>/dist, see CMakeLists.txt) instead of dist/; tests/e2e/run.js honours the same variable.
const distUrl = isNode && process.env.PT2E_DIST
  ? new URL(`file://${process.env.PT2E_DIST.startsWith('/') ? '' : `${process.cwd()}/`}${process.env.PT2E_DIST.replace(/\/?$/, '/')}`)
  : new URL('../../dist/', import.meta.url);

export async function loadModule() {
  const moduleUrl = new URL('pt2e_engine.mjs', distUrl).href;
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    const { createRequire } = await import('node:module');
    const { fileURLToPath } = await import('node:url');
    globalThis.require ??= createRequire(import.meta.url);
    globalThis.__dirname ??= fileURLToPath(distUrl);
    const wasmBinary = await readFile(new URL('pt2e_engine.wasm', distUrl));
    const { default: create } = await import(moduleUrl);
    return create({ wasmBinary, print: () => {}, printErr: (t) => console.error(t) });
  }
  // Browser: the wasm is fetched and compiled (streaming, off the main thread) in parallel with the
  // import of the JS glue; a page may have started that compile before any module loaded
  // (index.html sets globalThis.pt2eWasmPreload = { url, module: Promise<WebAssembly.Module> }).
  const wasmUrl = new URL('pt2e_engine.wasm', distUrl).href;
  const preload = globalThis.pt2eWasmPreload;
  const compiled = preload?.url === wasmUrl ? preload.module.catch(() => compileWasm(wasmUrl)) : compileWasm(wasmUrl);
  const [{ default: create }, wasmModule] = await Promise.all([import(moduleUrl), compiled]);
  mark('pt2e:engine-compiled');
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const M = await Promise.race([failed, create({
    locateFile: (p) => new URL(p, distUrl).href,
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(wasmModule, imports).then((instance) => receive(instance, wasmModule), fail);
      return {};
    },
  })]);
  mark('pt2e:engine-instantiated');
  return M;
}

// Fetches and compiles the engine's wasm: streaming when the server says application/wasm.
async function compileWasm(url) {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  if (typeof WebAssembly.compileStreaming === 'function' && (res.headers.get('content-type') ?? '').startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

// A performance mark in the browser (the start-up profile, tests/e2e/startup.js, lists them).
function mark(name) {
  if (!isNode) globalThis.performance?.mark?.(name);
}

// Objects handed out since the innermost pt.scope() began; freed when it ends.
const scopes = [];
const registry = typeof FinalizationRegistry !== 'undefined'
  ? new FinalizationRegistry((handle) => { if (!handle.isDeleted()) handle.delete(); })
  : null;

export function makeTools(M) {
  function raise(err) {
    const Cls = errors[err.kind] ?? RuntimeError;
    throw new Cls(err.message);
  }
  function call(fn, ...args) {
    const result = fn(...args);
    const err = M.take_error();
    if (err) {
      if (result && typeof result.delete === 'function' && !result.isDeleted()) result.delete();
      raise(err);
    }
    return result;
  }
  // Registers a JS wrapper object `obj` owning Embind `handle`.
  function own(obj, handle) {
    registry?.register(obj, handle, obj);
    if (scopes.length) scopes[scopes.length - 1].push(obj);
    return obj;
  }
  function release(obj, handle) {
    registry?.unregister(obj);
    if (!handle.isDeleted()) handle.delete();
  }
  // check.dtype(fn, v, arg = 'dtype'): the canonical name of a dtype ('torch.qint8' -> 'int8'), or the
  // engine's TypeError naming fn and arg.
  const checks = { ...check, dtype: (fnName, v, argName = 'dtype') => call(M.canonical_dtype, fnName, argName, v) };
  return { call, own, release, raise, check: checks };
}

// pt.scope(fn): every engine object created inside fn is freed when fn returns, except the
// value(s) fn returns (a single object, or objects inside a returned array / plain object).
export function scope(fn) {
  const created = [];
  scopes.push(created);
  let result;
  try {
    result = fn();
  } finally {
    scopes.pop();
    const keep = new Set();
    const collect = (v) => {
      if (!v || typeof v !== 'object') return;
      if (typeof v.delete === 'function') keep.add(v);
      else if (Array.isArray(v)) v.forEach(collect);
      else if (Object.getPrototypeOf(v) === Object.prototype) Object.values(v).forEach(collect);
    };
    collect(result);
    for (const o of created) {
      if (keep.has(o)) { if (scopes.length) scopes[scopes.length - 1].push(o); } else o.delete();
    }
  }
  return result;
}

const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'list' : ArrayBuffer.isView(v) ? v.constructor.name : typeof v);

export const check = {
  shape(fnName, shape, argName = 'shape') {
    if (!Array.isArray(shape)) {
      throw new TypeError_(`${fnName}(): argument '${argName}' must be a list of integers, got ${typeName(shape)}`);
    }
    shape.forEach((d, i) => {
      if (typeof d !== 'number' || !Number.isInteger(d)) {
        throw new TypeError_(`${fnName}(): argument '${argName}' must be a list of integers, but element ${i} is ${typeName(d)} ${String(d)}`);
      }
      if (d < 0) throw new ValueError(`${fnName}(): argument '${argName}' has a negative dimension ${d} at index ${i}`);
    });
    return shape;
  },
  integer(fnName, v, argName) {
    if (typeof v === 'bigint') return v;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw new TypeError_(`${fnName}(): argument '${argName}' must be an integer, got ${typeName(v)} ${String(v)}`);
    }
    return v;
  },
  number(fnName, v, argName) {
    if (typeof v !== 'number') throw new TypeError_(`${fnName}(): argument '${argName}' must be a number, got ${typeName(v)}`);
    return v;
  },
};
