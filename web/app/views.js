// views.js — puts Dear ImGui views (drawn in C++ by the wasm module, web/views/) on <canvas>es.
//
//   const views = createViewHost(pt.module);
//   const h = views.mount(canvas, { view: 'histogram', lo: -4, hi: 4, counts, range: { min, max } });
//   // also { view: 'line', series, marks, x_label, y_label }, { view: 'bar', labels, series, y_label },
//   // { view: 'graph', stages: [{ title, ...gm.graph_view() }], focus, hops, metric: { name, unit, values } }
//   // (the view kinds and their fields: web/bindings/bind_views.cpp)
//   h.update({ ...newData });   // redraws
//   h.destroy();                // frees the WebGL2 + ImGui contexts
//
// Controls (web/views/view_content.h): numbers the learner sets on a view, e.g. a histogram with
// range: { min, max, draggable: true } (and `values`, `quant`) has the control `range`, which the
// learner drags. h.controls() -> { range: [min, max] } (null for a view without controls);
// h.setControls({ range: [min, max] }) sets them (typed error on bad input, checked by the view in
// C++, also before the view is live); h.readout() -> what the view computes for them, e.g.
// { sqnr, clipped, scale, zero_point } (null until live); mount(canvas, spec, { onControls }) is told
// the controls after a frame in which the learner's input changed them. The handle's spec follows
// the controls (each control names the spec fields it lives in), so a released view comes back
// with the range the learner left.
//
// One module, many canvases: each live view is a C++ ViewCanvas (its own WebGL2 context and ImGui
// context). This file feeds it pointer events and its CSS size, and draws frames only when
// something changed: an event or new data marks the view dirty, and one requestAnimationFrame loop
// calls frame() on dirty views until each says it has settled. No busy loop.
//
// Lazy: a view is created when its canvas is on screen or within LAZY_MARGIN of it
// (IntersectionObserver; the first report comes with the next frame), so a page's start-up draws
// only what can be seen; a canvas not in the document is created at once (and fails). Browsers cap live WebGL contexts (Chromium: 16): when more
// than LIVE_BUDGET views are live, those scrolled out of reach are released (C++ view deleted, the
// WebGL context lost, the canvas replaced by a fresh one) and recreated from their spec when they
// come back (hover / selection / pan start afresh). canvas.dataset.view says 'pending', 'live' or
// 'released'; a handle's framesDrawn() counts the frames of its current context.
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
  canvas.dataset.kind = spec?.view ?? '';   // style.css gives graph views more height than charts (data-view is the lazy state)
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', title || `${spec?.view ?? 'view'} chart`);
  figure.append(canvas);
  return { figure, canvas };
}

const LAZY_MARGIN = 400;   // px around the visible area within which views are created
const LIVE_BUDGET = 8;     // live views kept before off-screen ones are released

// The element whose scrolling moves the canvas (index.html: <main>), or null for the viewport.
function scrollRoot(el) {
  for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll') return p;
  }
  return null;
}

// Controls cross from C++ as [{ name, value: [numbers], fields: ['range.min', 'range.max'] }]
// (bind_views.cpp): the page sees { name: value }, and the spec holds each number at its field.
const controlsObject = (list) => (list.length ? Object.fromEntries(list.map((c) => [c.name, c.value])) : null);
const setField = (obj, [key, ...rest], x) => ({ ...obj, [key]: rest.length ? setField(obj?.[key] ?? {}, rest, x) : x });
function specWithControls(spec, list) {
  let out = spec;
  for (const c of list) c.fields.forEach((field, i) => { out = setField(out, field.split('.'), c.value[i]); });
  return out;
}

export function createViewHost(M) {
  const dirty = new Set();
  const live = new Set();        // handles' states with a C++ view
  let scheduled = false;
  const observers = new Map();   // scroll root (or null) -> IntersectionObserver

  function raiseIfError() {
    const err = M.take_error();
    if (err) throw new (errors[err.kind] ?? errors.RuntimeError)(err.message);
  }

  function tick(now) {
    scheduled = false;
    for (const v of [...dirty]) {
      const t0 = performance.now();
      if (v.isDeleted() || !v.frame(now)) dirty.delete(v);
      if (!v.isDeleted()) v.pt2eAfterFrame?.();
      if (!v.isDeleted() && v.frames_drawn() === 1 && !v.pt2eTimed) {
        v.pt2eTimed = true;
        performance.measure('pt2e:view first frame', { start: t0, end: performance.now() });
      }
    }
    if (dirty.size) schedule();
  }
  function schedule() {
    if (!scheduled) { scheduled = true; requestAnimationFrame(tick); }
  }
  function wake(v) { dirty.add(v); schedule(); }

  function observerFor(root) {
    if (!observers.has(root)) {
      observers.set(root, new IntersectionObserver((entries) => {
        for (const e of entries) e.target.pt2eView?.visibility(e.isIntersecting);
      }, { root, rootMargin: `${LAZY_MARGIN}px 0px` }));
    }
    return observers.get(root);
  }

  // Releases off-screen live views (oldest first) while more than `keep` are live.
  function trim(keep) {
    for (const s of [...live]) {
      if (live.size <= keep) break;
      if (!s.near) s.release();
    }
  }

  // Raises the view's typed error (ValueError: unknown view) unless spec.view names a view kind.
  function checkKind(spec) {
    M.check_view_kind(spec);
    raiseIfError();
  }

  function mount(canvas, spec, { onError, onControls } = {}) {
    if (!(canvas instanceof HTMLCanvasElement)) throw new errors.TypeError('views.mount(): the first argument must be a <canvas>');
    checkKind(spec);
    if (!canvas.id) canvas.id = `pt2e-view-${nextCanvasId++}`;

    let v = null;            // the C++ ViewCanvas while live
    let current = spec;
    let destroyed = false;
    let resizeObserver = null;
    let observed = null;     // the IntersectionObserver watching the canvas
    let changes = 0;         // the view's count of control changes made by the learner's input, last seen
    let cursor = '';

    // After each frame of this view: the cursor it asks for, and the controls when the learner's
    // input changed them (the spec follows, then onControls is told; at most once per frame).
    function afterFrame() {
      const want = M.view_cursor(v);
      if (want !== cursor) { cursor = want; handle.canvas.style.cursor = want; }
      const n = M.view_input_changes(v);
      if (n === changes) return;
      changes = n;
      const list = M.view_controls(v);
      current = specWithControls(current, list);
      if (onControls && list.length) {
        try { onControls(controlsObject(list)); } catch (e) { console.error(`pt2e: onControls failed: ${e.name}: ${e.message}`); }
      }
    }

    const pos = (e) => {
      const r = handle.canvas.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    const on = {
      pointermove: (e) => { if (v) { v.pointer_move(...pos(e)); wake(v); } },
      pointerdown: (e) => { if (v) { handle.canvas.setPointerCapture(e.pointerId); v.pointer_button(...pos(e), e.button, true); wake(v); } },
      pointerup: (e) => { if (v) { v.pointer_button(...pos(e), e.button, false); wake(v); } },
      pointerleave: () => { if (v) { v.pointer_leave(); wake(v); } },
      // A plain vertical wheel scrolls the page, as over any other figure; ctrl + wheel (also a trackpad
      // pinch) and a horizontal wheel go to the view (zoom, pan) and not to the page.
      // Browser wheel: +deltaY = scroll down; ImGui: +1 = one notch up.
      wheel: (e) => {
        if (!v || !(e.ctrlKey || e.metaKey || Math.abs(e.deltaX) > Math.abs(e.deltaY))) return;
        e.preventDefault();
        v.wheel(-e.deltaX / 100, -e.deltaY / 100);
        wake(v);
      },
      contextmenu: (e) => e.preventDefault(),
    };
    const listen = (c) => { for (const [name, fn] of Object.entries(on)) c.addEventListener(name, fn, { passive: !['contextmenu', 'wheel'].includes(name) }); };
    const unlisten = (c) => { for (const [name, fn] of Object.entries(on)) c.removeEventListener(name, fn); };

    const fit = () => {
      if (!v) return;
      const c = handle.canvas;
      const r = c.getBoundingClientRect();
      const ratio = window.devicePixelRatio || 1;
      const w = Math.max(1, Math.round(r.width)), h = Math.max(1, Math.round(r.height));
      c.width = Math.round(w * ratio);
      c.height = Math.round(h * ratio);
      v.resize(w, h, ratio);
      wake(v);
    };

    const state = {
      near: false,
      // Creates the C++ view (WebGL2 + ImGui contexts) and gives it the current spec; throws.
      create() {
        if (v || destroyed) return;
        trim(LIVE_BUDGET - 1);
        const c = handle.canvas;
        const t0 = performance.now();
        const made = M.create_view_canvas(`#${CSS.escape(c.id)}`);
        performance.measure(`pt2e:view create ${c.id}`, { start: t0, end: performance.now() });
        raiseIfError();
        v = made;
        v.pt2eAfterFrame = afterFrame;
        changes = 0;
        live.add(state);
        c.dataset.view = 'live';
        resizeObserver = new ResizeObserver(fit);
        resizeObserver.observe(c);
        fit();
        try {
          const t1 = performance.now();
          M.set_view(v, current);
          raiseIfError();
          performance.measure(`pt2e:view set ${current.view}`, { start: t1, end: performance.now() });
        } catch (e) {
          state.release();
          throw e;
        }
        wake(v);
      },
      // Frees the C++ view and the canvas' WebGL context; a fresh canvas takes the old one's place.
      release() {
        if (!v) return;
        resizeObserver?.disconnect();
        resizeObserver = null;
        dirty.delete(v);
        live.delete(state);
        if (!v.isDeleted()) v.delete();
        v = null;
        if (cursor) handle.canvas.style.cursor = '';
        cursor = '';
        const old = handle.canvas;
        if (destroyed) return;
        old.getContext('webgl2')?.getExtension('WEBGL_lose_context')?.loseContext();
        const fresh = old.cloneNode(false);  // same id, class, style and aria attributes
        fresh.dataset.view = 'released';
        unlisten(old);
        observed?.unobserve(old);
        delete old.pt2eView;
        old.replaceWith(fresh);
        handle.canvas = fresh;
        fresh.pt2eView = state;
        listen(fresh);
        observed?.observe(fresh);
      },
      visibility(near) {
        state.near = near;
        if (!near || v || destroyed) { if (!near) trim(LIVE_BUDGET); return; }
        try {
          state.create();
        } catch (e) {
          if (onError) onError(e);
          else console.error(`pt2e: a view could not be drawn: ${e.name}: ${e.message}`);
        }
      },
    };

    const handle = {
      canvas,
      get spec() { return current; },
      get live() { return !!v; },
      update(next) {
        checkKind(next);
        if (v) {
          M.set_view(v, next);
          raiseIfError();
          wake(v);
        }
        current = next;
      },
      // The item (bin, point, bar group) under the pointer / picked by a click, -1 for none.
      hoveredItem: () => (v ? v.hovered_item() : -1),
      selectedItem: () => (v ? v.selected_item() : -1),
      // Graph views: hovered / selected node names and the laid-out boxes per stage (null until live).
      graphState: () => (v ? M.graph_state(v) : null),
      // The view's controls ({ range: [min, max] }), null for a view without any; live or not.
      controls() {
        const list = v ? M.view_controls(v) : M.spec_controls(current, undefined);
        raiseIfError();
        return controlsObject(list);
      },
      // Sets controls as the learner's input would (not reported to onControls: the caller knows).
      setControls(controls) {
        let list;
        if (v) {
          M.set_view_controls(v, controls);
          raiseIfError();
          list = M.view_controls(v);
          wake(v);
        } else {
          list = M.spec_controls(current, controls);
          raiseIfError();
        }
        current = specWithControls(current, list);
      },
      // What the view computes for its controls ({ sqnr, clipped, scale, zero_point }), null until live.
      readout: () => (v ? M.view_readout(v) : null),
      framesDrawn: () => (v ? v.frames_drawn() : 0),
      destroy() {
        destroyed = true;
        observed?.unobserve(handle.canvas);
        unlisten(handle.canvas);
        delete handle.canvas.pt2eView;
        state.release();
      },
    };

    canvas.pt2eView = state;
    listen(canvas);
    // A canvas in the page waits for the IntersectionObserver's first report (the next frame; no
    // forced layout here) and is created once it is near. One not in the document is created now,
    // so it fails here with RuntimeError, as no selector finds it.
    if (canvas.isConnected) {
      canvas.dataset.view = 'pending';
      observed = observerFor(scrollRoot(canvas));
      observed.observe(canvas);
    } else {
      try {
        state.near = true;
        state.create();
      } catch (e) {
        handle.destroy();
        throw e;
      }
    }
    return handle;
  }

  return { mount, liveCount: () => live.size };
}
