// engine.js — loads the wasm module and gives every API file the same tools (makeTools):
//   call(fn, ...args)  run a raw Embind function and turn a recorded C++ error into a typed JS Error
//   own / release      hand an Embind object to JS with scope tracking and a GC safety net
//   memory_stats()     pt.memory_stats(): the wasm memory, the engine's heap in use, live engine objects
//   check.*            argument validation that names the argument, as PyTorch's messages do; a dtype
//                      name is checked by the engine (one list of names and aliases, engine/core/tensor.h)
// The raw module (dist/pt2e_engine.mjs) is built by scripts/build.sh; Node needs a small harness
// (Debian's emscripten 3.1.6 emits ES6 code that expects require/__dirname and fetch of a file URL).

// An error's message as given when it is a string (or absent), else shown (show() never throws).
function messageText(m) { return m === undefined || typeof m === 'string' ? m : show(m); }

export class PtError extends Error {
  constructor(message, options) { super(messageText(message), options); this.name = this.constructor.name; }
}
export class ValueError extends PtError {}
// Extends the built-in TypeError so `e instanceof TypeError` holds, as for JS's own type errors.
export class TypeError_ extends globalThis.TypeError { constructor(m, options) { super(messageText(m), options); this.name = 'TypeError'; } }
Object.defineProperty(TypeError_, 'name', { value: 'TypeError' });  // so Node's report of an uncaught one says TypeError
export class RuntimeError extends PtError {}
export class NotImplementedError extends PtError {}
export class IndexError extends PtError {}
export const errors = { ValueError, TypeError: TypeError_, RuntimeError, NotImplementedError, IndexError };

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';
// PT2E_DIST=<folder> (Node only): load the engine a developer built in their own build folder
// (<build>/dist, see CMakeLists.txt) instead of dist/; the browser tests (tests/e2e/fixtures.js) honour the same variable.
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
// Engine objects handed to JS and not yet freed (pt.memory_stats().live_objects).
let liveObjects = 0;
const owned = new WeakSet();
const registry = typeof FinalizationRegistry !== 'undefined'
  ? new FinalizationRegistry((handle) => { liveObjects--; if (!handle.isDeleted()) handle.delete(); })
  : null;

export function makeTools(M) {
  function raise(err) {
    const Cls = errors[err.kind] ?? RuntimeError;
    throw new Cls(err.message);
  }
  // What a JS exception thrown during an engine call becomes. The engine's own errors never arrive here
  // (bound functions record them, see web/bindings/common.h); what does is JS thrown through the wasm frames:
  // an argument Embind could not convert (BindingError, or its TypeError for a number), JS out of memory
  // for a result's copy (RangeError), a learner's own error from a callback, or a wasm trap — an engine bug,
  // passed on as it is. Embind's conversion errors become the TypeError they are, keeping the original as
  // `cause` (tests/fuzz/js_api.fuzz.js counts every such error: each is an argument check missing).
  // A C++ exception that got past guarded() arrives as an opaque WebAssembly.Exception (the module is built with
  // -fwasm-exceptions): on a full heap, Embind's own allocation of a result's wrapper throws std::bad_alloc there;
  // the engine says whether one was refused during the call (take_escaped_bad_alloc), and that one is the typed
  // out-of-memory error, any other a RuntimeError keeping the exception as `cause`.
  function fromCpp(e) {
    if (M.take_escaped_bad_alloc()) {
      return new RuntimeError("out of memory: the engine's heap (at most 2 GiB) is full; free tensors and models no longer needed (.delete() or pt.scope)");
    }
    return new RuntimeError('the engine failed outside its error handling (a C++ exception reached JS)', { cause: e });
  }
  function fromThrown(e) {
    if (e instanceof WebAssembly.Exception) return fromCpp(e);
    if (e instanceof M.BindingError || e instanceof M.InternalError || (e instanceof globalThis.TypeError && !(e instanceof TypeError_))) {
      return new TypeError_(`an argument of the wrong type reached the engine: ${e.message}`, { cause: e });
    }
    if (e instanceof RangeError && /allocation failed|out of memory|Invalid typed array length|Array buffer/i.test(e.message)) {
      return new RuntimeError(`out of memory: ${e.message}`, { cause: e });
    }
    return e;
  }
  function call(fn, ...args) {
    // A JS exception unwinds the wasm frames without restoring the engine's stack pointer: put it back,
    // or every such error would leak a little of the 5 MB wasm stack.
    const sp = M.stackSave();
    let result;
    try {
      result = fn(...args);
    } catch (e) {
      M.stackRestore(sp);
      M.take_error();  // a C++ error recorded before the JS one (none expected) must not surface later
      throw fromThrown(e);
    }
    const err = M.take_error();
    if (err) {
      if (result && typeof result.delete === 'function' && !result.isDeleted()) result.delete();
      raise(err);
    }
    return result;
  }
  // Registers a JS wrapper object `obj` owning Embind `handle`. Only an engine handle will do: a learner's
  // `new pt.Tensor([1, 2])` (as torch.Tensor([1, 2]) would be) is a TypeError saying where such objects come from.
  const EmbindObject = Object.getPrototypeOf(M.Tensor.prototype).constructor;
  function own(obj, handle) {
    if (!(handle instanceof EmbindObject)) {
      throw new TypeError_(`pt.${obj.constructor.name}() cannot be constructed from ${typeName(handle)}: engine objects come from the API's functions (pt.tensor, pt.randn, pt.get_model, pt.export, ...)`);
    }
    registry?.register(obj, handle, obj);
    owned.add(obj);
    liveObjects++;
    if (scopes.length) scopes[scopes.length - 1].push(obj);
    return obj;
  }
  function release(obj, handle) {
    registry?.unregister(obj);
    if (owned.delete(obj)) liveObjects--;
    if (!handle.isDeleted()) handle.delete();
  }
  // What the engine holds now: wasm_memory_bytes (the module's memory, which only grows), heap_in_use_bytes (what
  // its allocator has handed out), live_objects (engine objects handed to JS, not yet freed) and js_values_held
  // (JS values the C++ side holds through Embind).
  function memory_stats() {
    return { wasm_memory_bytes: M.HEAPU8.length, heap_in_use_bytes: M.heap_in_use(), live_objects: liveObjects,
      js_values_held: M.count_emval_handles() };
  }
  // check.dtype(fn, v, arg = 'dtype'): the canonical name of a dtype ('torch.qint8' -> 'int8'), or the
  // engine's TypeError naming fn and arg.
  const checks = { ...check, dtype: (fnName, v, argName = 'dtype') => call(M.canonical_dtype, fnName, argName, v) };
  return { call, own, release, raise, check: checks, memory_stats };
}

// pt.scope(fn): every engine object created inside fn is freed when fn returns, except the
// value(s) fn returns (a single object, or objects inside a returned array / plain object).
export function scope(fn) {
  if (typeof fn !== 'function') throw new TypeError_(`scope(): argument 'fn' must be a function, got ${show(fn)}`);
  const created = [];
  scopes.push(created);
  let result;
  try {
    result = fn();
  } finally {
    scopes.pop();
    const keep = new Set();
    // The returned value may hold itself, be a huge sparse array, or an array whose own methods were replaced:
    // each object once, and only the elements an array really has (Object.values).
    const seen = new Set();
    const collect = (v) => {
      if (!v || typeof v !== 'object' || seen.has(v)) return;
      seen.add(v);
      if (typeof v.delete === 'function') keep.add(v);
      else if (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype) for (const x of Object.values(v)) collect(x);
    };
    collect(result);
    for (const o of created) {
      if (keep.has(o)) { if (scopes.length) scopes[scopes.length - 1].push(o); } else o.delete();
    }
  }
  return result;
}

const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'list' : ArrayBuffer.isView(v) ? v.constructor.name : typeof v);

// A value as an error message shows it: primitives as they print (a string quoted and cut short), anything
// else by its kind. Never throws (a Symbol or an object without toString cannot go into a template string).
export function show(v) {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (v === null || v === undefined || ['number', 'bigint', 'boolean', 'symbol'].includes(typeof v)) return String(v);
  try { return typeName(v); } catch { return typeof v; }
}

export const check = {
  shape(fnName, shape, argName = 'shape') {
    if (!Array.isArray(shape)) {
      throw new TypeError_(`${fnName}(): argument '${argName}' must be a list of integers, got ${typeName(shape)}`);
    }
    for (let i = 0; i < shape.length; i++) {
      const d = shape[i];
      if (typeof d !== 'number' || !Number.isInteger(d)) {
        throw new TypeError_(`${fnName}(): argument '${argName}' must be a list of integers, but element ${i} is ${typeName(d)} ${show(d)}`);
      }
      if (d < 0) throw new ValueError(`${fnName}(): argument '${argName}' has a negative dimension ${d} at index ${i}`);
      if (!Number.isSafeInteger(d)) throw new ValueError(`${fnName}(): argument '${argName}' [${shape}] has a dimension too large to allocate (${d} at index ${i})`);
    }
    return shape;
  },
  integer(fnName, v, argName) {
    if (typeof v === 'bigint') return v;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw new TypeError_(`${fnName}(): argument '${argName}' must be an integer, got ${typeName(v)} ${show(v)}`);
    }
    return v;
  },
  number(fnName, v, argName) {
    if (typeof v !== 'number') throw new TypeError_(`${fnName}(): argument '${argName}' must be a number, got ${typeName(v)}`);
    return v;
  },
  string(fnName, v, argName) {
    if (typeof v !== 'string') throw new TypeError_(`${fnName}(): argument '${argName}' must be a string, got ${typeName(v)} ${show(v)}`);
    return v;
  },
  // A bool keyword argument, given positionally as torch code does (f(x, false)) or by name ({ strict: false });
  // undefined: the default; a number as Python's bool() of it. Anything else is a TypeError (an options object
  // must not pass for true by being truthy).
  flag(fnName, v, argName, dflt) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) v = check.options(fnName, v, 'options', [argName])[argName];
    if (v === undefined) return dflt;
    if (typeof v === 'number') return v !== 0;
    if (typeof v !== 'boolean') throw new TypeError_(`${fnName}(): argument '${argName}' must be a bool, got ${typeName(v)}`);
    return v;
  },
  // A list as a plain array read once by index (a Proxy or a sparse giant cannot run a loop of ours), at most
  // `max` long; each element as given.
  list(fnName, v, argName, max = 1 << 20) {
    if (!Array.isArray(v)) throw new TypeError_(`${fnName}(): argument '${argName}' must be a list, got ${typeName(v)}`);
    const n = v.length;
    if (!Number.isInteger(n) || n > max) throw new ValueError(`${fnName}(): argument '${argName}' has ${show(n)} elements (at most ${max})`);
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = v[i];
    return out;
  },
  // A plain object of options (undefined = none given). With `keys` (the names the function takes, torch's keyword
  // arguments), any other name is a TypeError in Python's words, so a misspelt option is not silently dropped.
  options(fnName, v, argName = 'options', keys = null) {
    if (v === undefined) return {};
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError_(`${fnName}(): argument '${argName}' must be an object of options, got ${typeName(v)}`);
    if (keys) check.keywords(fnName, v, keys);
    return v;
  },
  // The unexpected-keyword rule alone, for a caller that checks the object its own way: every own key of v is one
  // of `keys` (torch's keyword arguments), else Python's TypeError.
  keywords(fnName, v, keys) {
    for (const k of Object.keys(v)) {
      if (!keys.includes(k)) throw new TypeError_(`${fnName}() got an unexpected keyword argument '${k}'`);
    }
  },
};
