// views.js — puts Dear ImGui views (drawn in C++ by the wasm module, web/views/) on <canvas>es.
//
//   const views = createViewHost(pt.module);
//   const h = views.mount(canvas, { view: 'histogram', lo: -4, hi: 4, counts, range: { min, max } });
//   // also { view: 'line', series, marks, x_label, y_label }, { view: 'bar', labels, series, y_label },
//   // { view: 'graph', stages: [{ title, ...gm.graph_view() }], focus, hops, value_label }
//   // (fields: web/bindings/bind_views.cpp)
//   h.update({ ...newData });   // redraws
//   h.destroy();                // frees the WebGL2 + ImGui contexts
//
// One module, many canvases: each mount creates a C++ ViewCanvas (its own WebGL2 context and ImGui
// context). This file feeds it pointer events and its CSS size, and draws frames only when
// something changed: an event or new data marks the view dirty, and one requestAnimationFrame loop
// calls frame() on dirty views until each says it has settled. No busy loop.
//
// A view spec is plain data (`{ view: 'histogram', ... }`, see web/app/README.md); the lesson
// runner keeps the same object as a cell's output in headless mode.
import { errors } from '../api/engine.js';

let nextCanvasId = 1;

// A <figure> for a view: the spec's title as HTML caption (any script; ImGui's font is ASCII only)
// and as the canvas' accessible label. Append it to the page, then mount(canvas, spec).
export function viewFigure(spec) {
  const figure = document.createElement('figure');
  figure.className = 'view';
  const title = typeof spec?.title === 'string' ? spec.title : '';
  if (title) {
    const caption = document.createElement('figcaption');
    caption.textContent = title;
    figure.append(caption);
  }
  const canvas = document.createElement('canvas');
  canvas.className = 'view';
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', title || `${spec?.view ?? 'view'} chart`);
  figure.append(canvas);
  return { figure, canvas };
}

export function createViewHost(M) {
  const dirty = new Set();
  let scheduled = false;

  function raiseIfError() {
    const err = M.take_error();
    if (err) throw new (errors[err.kind] ?? errors.RuntimeError)(err.message);
  }

  function tick(now) {
    scheduled = false;
    for (const v of [...dirty]) {
      if (v.isDeleted() || !v.frame(now)) dirty.delete(v);
    }
    if (dirty.size) schedule();
  }
  function schedule() {
    if (!scheduled) { scheduled = true; requestAnimationFrame(tick); }
  }
  function wake(v) { dirty.add(v); schedule(); }

  const KINDS = ['histogram', 'line', 'bar', 'graph'];

  function mount(canvas, spec) {
    if (!(canvas instanceof HTMLCanvasElement)) throw new errors.TypeError('views.mount(): the first argument must be a <canvas>');
    if (!canvas.id) canvas.id = `pt2e-view-${nextCanvasId++}`;
    const v = M.create_view_canvas(`#${CSS.escape(canvas.id)}`);
    raiseIfError();

    const pos = (e) => {
      const r = canvas.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    const on = {
      pointermove: (e) => { v.pointer_move(...pos(e)); wake(v); },
      pointerdown: (e) => { canvas.setPointerCapture(e.pointerId); v.pointer_button(...pos(e), e.button, true); wake(v); },
      pointerup: (e) => { v.pointer_button(...pos(e), e.button, false); wake(v); },
      pointerleave: () => { v.pointer_leave(); wake(v); },
      // Browser wheel: +deltaY = scroll down; ImGui: +1 = one notch up. The page keeps scrolling.
      wheel: (e) => { v.wheel(-e.deltaX / 100, -e.deltaY / 100); wake(v); },
      contextmenu: (e) => e.preventDefault(),
    };
    for (const [name, fn] of Object.entries(on)) canvas.addEventListener(name, fn, { passive: name !== 'contextmenu' });

    const fit = () => {
      const r = canvas.getBoundingClientRect();
      const ratio = window.devicePixelRatio || 1;
      const w = Math.max(1, Math.round(r.width)), h = Math.max(1, Math.round(r.height));
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(h * ratio);
      v.resize(w, h, ratio);
      wake(v);
    };
    const resizeObserver = new ResizeObserver(fit);
    resizeObserver.observe(canvas);
    fit();

    let current = null;
    const handle = {
      canvas,
      get spec() { return current; },
      update(next) {
        if (!KINDS.includes(next?.view)) throw new errors.ValueError(`views: unknown view ${JSON.stringify(next?.view)}; known: ${KINDS.join(', ')}`);
        M.set_view(v, next.view, next);
        raiseIfError();
        current = next;
        wake(v);
      },
      // The item (bin, point, bar group) under the pointer / picked by a click, -1 for none.
      hoveredItem: () => v.hovered_item(),
      selectedItem: () => v.selected_item(),
      // Graph views: hovered / selected node names and the laid-out boxes per stage.
      graphState: () => M.graph_state(v),
      framesDrawn: () => v.frames_drawn(),
      destroy() {
        resizeObserver.disconnect();
        for (const [name, fn] of Object.entries(on)) canvas.removeEventListener(name, fn);
        dirty.delete(v);
        if (!v.isDeleted()) v.delete();
      },
    };
    try {
      handle.update(spec);
    } catch (e) {
      handle.destroy();
      throw e;
    }
    return handle;
  }

  return { mount };
}
