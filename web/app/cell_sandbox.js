// cell_sandbox.js — the page's side of cell_worker.js: runs a lesson's cells in a Worker with its own engine, one
// at a time, each under a time limit, and can be stopped. lesson.js sends a learner's edited code here (and, from
// then on, every run of that page state, since the state lives in the worker).
//
//   const box = createSandbox({ lesson, lang });
//   const result = await box.run('B', code, { replay: [{ cell: 'A', code }], timeLimitMs: 20000, onView });
//   // onView(index, output): a view the cell shows or updates while it runs (runCell's onView, from the worker)
//   box.stop();        // the running cell ends with a 'Stopped' error; the worker and its state are gone
//   box.destroy();
// A new worker starts when one is needed: its state is rebuilt by running `replay` (the page's runs so far, in
// order; their results are dropped) before the cell. A run that is stopped, or takes longer than its time limit,
// terminates the worker; its result is an error { name: 'Stopped' | 'TimeoutError', message } and the next run
// starts a fresh worker. The limit counts each cell alone (a replayed cell has the same time as the cell itself).
import { t } from './i18n.js';

export const DEFAULT_TIME_LIMIT_MS = 20000;

export function workersAvailable() {
  return typeof Worker === 'function';
}

export function createSandbox({ lesson, lang }) {
  let worker = null;       // { w, ready: Promise, pending: Map<id, { resolve, timer }> }
  let nextId = 1;
  let queue = Promise.resolve();
  let current = null;      // the run in flight: { stop() }
  let starting = false;    // a worker is starting for the next run (current is still null)
  let stopAsked = false;   // Stop was pressed while it started: that run ends as stopped once it is ready
  let destroyed = false;
  const stopped = (cell) => ({ cell, outputs: [], checks: [], error: { name: 'Stopped', message: t(lang, 'cell_stopped'), line: null } });

  function spawn() {
    const w = new Worker(new URL('./cell_worker.js', import.meta.url), { type: 'module', name: 'pt2e cells' });
    const pending = new Map();
    const viewListeners = new Map();   // run id -> onView
    const ready = new Promise((resolve, reject) => {
      w.addEventListener('message', ({ data }) => {
        if (data.type === 'ready') resolve();
        else if (data.type === 'failed') reject(new Error(data.message));
        else if (data.type === 'result') pending.get(data.id)?.(data.result);
        else if (data.type === 'view') viewListeners.get(data.id)?.(data.index, data.output);
      });
      // An error the worker did not catch (its script failed to load, or it ran out of JS memory).
      w.addEventListener('error', (e) => {
        e.preventDefault();
        const message = e.message || 'the worker stopped with an error';
        reject(new Error(message));
        if (worker?.w === w) kill();  // its state is no longer known: the next run starts afresh
        for (const settle of pending.values()) settle({ outputs: [], checks: [], error: { name: 'Error', message, line: null } });
      });
    });
    const preload = globalThis.pt2eWasmPreload;
    const wasmUrl = new URL('../../dist/pt2e_engine.wasm', import.meta.url).href;
    Promise.resolve(preload?.url === wasmUrl ? preload.module : null).catch(() => null)
      .then((wasm) => w.postMessage({ type: 'start', wasmUrl, wasm, lesson, lang }));
    return { w, ready, pending, viewListeners };
  }

  function kill() {
    worker?.w.terminate();
    worker = null;
  }

  // One cell in the worker, under the time limit; resolves to its result (an error result when stopped).
  function runOne(cell, code, timeLimitMs, onView) {
    const wk = worker;
    const id = nextId++;
    return new Promise((resolve) => {
      const finish = (result) => {
        clearTimeout(timer);
        wk.pending.delete(id);
        wk.viewListeners.delete(id);
        current = null;
        resolve(result);
      };
      const stopWith = (name, message) => {
        kill();
        finish({ cell, outputs: [], checks: [], error: { name, message, line: null } });
      };
      const timer = setTimeout(() => stopWith('TimeoutError', t(lang, 'cell_timeout').replace('{s}', String(Math.round(timeLimitMs / 1000)))), timeLimitMs);
      wk.pending.set(id, finish);
      if (onView) wk.viewListeners.set(id, onView);
      current = { stop: () => stopWith('Stopped', t(lang, 'cell_stopped')) };
      wk.w.postMessage({ type: 'run', id, cell, code });
    });
  }

  async function runNow(cell, code, { replay = [], timeLimitMs = DEFAULT_TIME_LIMIT_MS, onView }) {
    if (destroyed) return stopped(cell);
    stopAsked = false;
    if (!worker) {
      worker = spawn();
      starting = true;
      try {
        await worker.ready;
      } catch (e) {
        kill();
        return stopAsked ? stopped(cell)
          : { cell, outputs: [], checks: [], error: { name: 'Error', message: `${t(lang, 'cell_worker_failed')}: ${e.message}`, line: null } };
      } finally {
        starting = false;
      }
      // Stopped while the worker started: nothing of this run happened (the next run starts afresh).
      if (stopAsked) { kill(); return stopped(cell); }
      for (const r of replay) {
        const res = await runOne(r.cell, r.code, timeLimitMs);
        if (!worker) return { ...res, cell };  // stopped while the earlier cells ran again
      }
    }
    return runOne(cell, code, timeLimitMs, onView);
  }

  return {
    // Runs after every run asked before it.
    run(cell, code, opts = {}) {
      const p = queue.then(() => runNow(cell, code, opts));
      queue = p.catch(() => {});
      return p;
    },
    get running() { return current !== null || starting; },
    stop() {
      if (current) current.stop();
      else if (starting) stopAsked = true;
    },
    destroy() { destroyed = true; current?.stop(); kill(); },
  };
}
