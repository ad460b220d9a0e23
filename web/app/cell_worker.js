// cell_worker.js — a Worker (module) that runs a lesson's cells on its own engine instance, so a learner's
// edited code never runs on the page's thread: an endless loop there is ended by terminating the worker
// (the page's Stop button or its time limit, cell_sandbox.js), and the page stays usable.
// Messages (cell_sandbox.js sends and reads them):
//   in:  { type: 'start', wasmUrl, wasm?: WebAssembly.Module, lesson, lang }   load the engine (the page's compiled
//                                                                            module when it has one) and keep the lesson
//        { type: 'run', id, cell: '<cell id>', code }                         runCell on this worker's state (cell_runner.js)
//   out: { type: 'ready' } | { type: 'failed', message }                      after 'start'
//        { type: 'view', id, index, output }                                  a view shown or updated while the cell runs
//        { type: 'result', id, result }                                       runCell's result, as plain data
import { loadEngine } from '../api/index.js';
import { runCell } from './cell_runner.js';

let pt = null;
let lesson = null;
let lang = 'en';
const state = {};

self.addEventListener('message', async ({ data }) => {
  if (data?.type === 'start') {
    try {
      lesson = data.lesson;
      lang = data.lang;
      if (data.wasm) globalThis.pt2eWasmPreload = { url: data.wasmUrl, module: Promise.resolve(data.wasm) };
      pt = await loadEngine();
      self.postMessage({ type: 'ready' });
    } catch (e) {
      self.postMessage({ type: 'failed', message: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
    }
  } else if (data?.type === 'run') {
    const cell = lesson.cells.find((c) => c.id === data.cell);
    // A view's data as the cell shows or updates it, posted at once (the page draws a training chart as it grows);
    // data that cannot be cloned waits for the result, which says so.
    const onView = (index, output) => { try { self.postMessage({ type: 'view', id: data.id, index, output }); } catch { /* see plain() */ } };
    const result = runCell(pt, lesson, cell, { state, lang, code: data.code, onView });
    self.postMessage({ type: 'result', id: data.id, result: plain(result) });
  }
});

// A result as structured-clonable data. A table cell holding an object the page would print with String()
// (a Tensor, say) is printed here, as a clone would lose its class; anything else that cannot be cloned (a
// function in a view's data) turns the cell's result into an error saying so.
function plain(result) {
  const cellValue = (v) => (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) ? v
    : Array.isArray(v) ? v.map(cellValue) : Object.getPrototypeOf(v) === Object.prototype ? v : String(v));
  const outputs = result.outputs.map((o) => (o.kind === 'table' ? { ...o, rows: o.rows.map((r) => r.map(cellValue)) } : o));
  const out = { ...result, outputs };
  try {
    return structuredClone(out);
  } catch (e) {
    return { ...result, outputs: [], error: { name: 'DataCloneError', message: `the cell's output cannot be shown: ${e.message}`, line: null } };
  }
}
