// quant.js — observers, fake quant and the quantize / dequantize ops, with torchao's names:
//   const o = new pt.MinMaxObserver({ dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: -128, quant_max: 127 });
//   o.forward(x);                       // returns x (fake-quantize classes return a new Tensor)
//   const { scale, zero_point } = o.calculate_qparams();   // Float32Array, Int32Array
//   o.min_val.item(); o.named_buffers(); fq.disable_observer();
//   pt.quantize_per_tensor(x, scale, zero_point, quant_min, quant_max, dtype); pt.sqnr(a, b); pt.student_t(df, shape)
// Every class is one engine handle built by class name (engine/quant/observer.h make_observer);
// keyword arguments are read and checked in C++, by the same reader for a constructor and for
// Class.with_args (web/bindings/kwargs.h; an unknown one is a TypeError, as in Python).
import { show } from './engine.js';
import { observerRepr } from './observer_str.js';

export function installQuant(pt, M, tools) {
  const { call, own, release, check } = tools;
  const T = (h) => pt.Tensor.fromHandle(h);
  const H = (fn, t, arg = 'input') => {
    if (!(t instanceof pt.Tensor)) throw new pt.errors.TypeError(`${fn}(): argument '${arg}' must be a Tensor, got ${typeof t}`);
    return t.handle;
  };

  const adopt = Symbol('adopt');
  let adopting = null;

  class ObserverBase {
    #handle;
    constructor(kwargs = {}) {
      if (kwargs === adopt) {
        this.#handle = adopting;  // pt.wrapObserver: an engine-made instance (e.g. inside a prepared graph)
      } else if (!this.constructor.className) {
        throw new pt.errors.TypeError(`pt.${this.constructor.name}() is a base class: construct an observer class (${pt.observer_classes.slice(0, 3).join(', ')}, ...)`);
      } else {
        this.#handle = call(M.make_observer, this.constructor.className, kwargs);
      }
      own(this, this.#handle);
    }
    // True when both objects are the same engine instance (shared observers after prepare_pt2e).
    is(other) { return other instanceof ObserverBase && this.handle.same_instance(other.handle); }
    get handle() {
      if (this.#handle.isDeleted()) throw new pt.RuntimeError('this observer was freed');
      return this.#handle;
    }
    forward(x) {
      const out = call((h, t) => h.forward(t), this.handle, H(`${this.constructor.className}.forward`, x, 'x'));
      if (!this.config.is_fake_quantize) { out.delete(); return x; }  // observers return their input
      return T(out);
    }
    calculate_qparams() { return call((h) => h.calculate_qparams(), this.handle); }
    get config() { return call((h) => h.config(), this.handle); }
    named_buffers() { return call((h) => h.buffer_names(), this.handle).map((n) => [n, this.buffer(n)]); }
    buffer(name) { return T(call((h, n) => h.buffer(n), this.handle, check.string(`${this.constructor.className}.buffer`, name, 'name'))); }
    get min_val() { return this.buffer('min_val'); }
    get max_val() { return this.buffer('max_val'); }
    get dtype() { return this.config.dtype; }
    get qscheme() { return this.config.qscheme; }
    get quant_min() { return this.config.quant_min; }
    get quant_max() { return this.config.quant_max; }
    get ch_axis() { return this.config.ch_axis; }
    isDeleted() { return this.#handle.isDeleted(); }
    delete() { release(this, this.#handle); }
    // As print(observer) in PyTorch: 'MinMaxObserver(min_val=-2.17..., max_val=1.54...)' (observer_str.js), the dtype
    // spelled as it was given (torch.quint8 by default, torch.uint8 from a QuantizationSpec that says uint8).
    toString() {
      const config = this.config;
      return pt.scope(() => observerRepr(this.constructor.name, config, (n) => this.buffer(n), config.torch_dtype));
    }
    [Symbol.for('nodejs.util.inspect.custom')]() { return this.isDeleted() ? `${this.constructor.name}(freed)` : this.toString(); }
  }

  class FakeQuantizeBase extends ObserverBase {
    get scale() { return this.buffer('scale'); }
    get zero_point() { return this.buffer('zero_point'); }
    get activation_post_process() { return this.config.activation_post_process; }
    enable_observer(enabled) { call((h, f) => h.set_flag('observer', f), this.handle, check.flag('enable_observer', enabled, 'enabled', true)); }
    disable_observer() { this.enable_observer(false); }
    enable_fake_quant(enabled) { call((h, f) => h.set_flag('fake_quant', f), this.handle, check.flag('enable_fake_quant', enabled, 'enabled', true)); }
    disable_fake_quant() { this.enable_fake_quant(false); }
  }

  // One JS class per class of the engine's registry, named as torchao names it. with_args is torchao's
  // Observer.with_args: a constructor with bound kwargs ({ name, kwargs }, what a QuantizationSpec's
  // observer_or_fake_quant_ctr holds). Python's functools.partial accepts any keyword and fails when
  // prepare_pt2e calls it; here the engine reads and checks the kwargs at once, with the constructor's
  // reader, so a typo is the constructor's TypeError, raised on the line that has it.
  const classes = M.observer_classes();
  pt.observer_classes = classes.map((c) => c.name);
  pt.observer_kwargs = M.observer_kwargs();  // the keyword table: [{ name, type, doc }]
  // A subclass written in JS (class PowerOfTwoObserver extends pt.MinMaxObserver { calculate_qparams() {...} },
  // as torchao's custom observers subclass MinMaxObserver) inherits with_args, which then describes it.
  for (const { name, default_observer } of classes) {
    const Base = default_observer ? FakeQuantizeBase : ObserverBase;
    const cls = { [name]: class extends Base {} }[name];
    cls.className = name;
    cls.with_args = function with_args(kwargs = {}) {
      call(M.check_observer_kwargs, name, kwargs);
      const c = typeof this === 'function' ? this : cls;  // detached (const f = X.with_args): the class it came from
      return pt.isJsObserverClass(c) ? jsObserverCtr(c, kwargs) : { name, kwargs: { ...kwargs } };
    };
    pt[name] = cls;
  }

  // Observer classes written in JS plug into a QuantizationSpec as the engine's do: the spec carries the class
  // ({ name, kwargs, js }), the engine registers it under its name (web/bindings/bind_pt2e.cpp) and prepare_pt2e
  // builds one instance per observer through js.make; the engine calls its forward(x) with each tensor and its
  // calculate_qparams() at convert, and checks what it returns (engine/quant/js_observer.h), naming the class.
  pt.isJsObserverClass = (c) => typeof c === 'function' && c.prototype instanceof ObserverBase && !Object.hasOwn(c, 'className');
  const qparamList = (v, field) => {
    if (v instanceof pt.Tensor) return Array.from(v.data(), Number);
    if (typeof v === 'number') return [v];
    if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v, Number);
    throw new pt.errors.TypeError(`must return { scale, zero_point } of numbers, lists or Tensors; ${field} is ${show(v)}`);
  };
  const jsObserverInstance = (cls, kwargs) => {
    const inst = new cls(kwargs);
    return {
      forward: (h) => {
        const x = pt.Tensor.fromHandle(h);
        try { inst.forward(x); } finally { x.delete(); }
        return null;
      },
      calculate_qparams: () => {
        const r = inst.calculate_qparams();
        if (r === null || typeof r !== 'object') throw new pt.errors.TypeError(`must return { scale, zero_point }, got ${show(r)}`);
        return { scale: qparamList(r.scale, 'scale'), zero_point: qparamList(r.zero_point, 'zero_point') };
      },
      release: () => { inst.delete?.(); return null; },
    };
  };
  const jsObserverCtr = (cls, kwargs) => {
    if (!pt.isJsObserverClass(cls)) {
      throw new pt.errors.TypeError(`jsObserverCtr(): expected an observer class written in JS (class ... extends pt.MinMaxObserver, or another observer class), got ${show(cls)}`);
    }
    return { name: cls.name, kwargs: { ...kwargs }, js: { base: cls.className, make: (kw) => jsObserverInstance(cls, kw) } };
  };
  pt.jsObserverCtr = jsObserverCtr;
  pt.ObserverBase = ObserverBase;
  pt.FakeQuantizeBase = FakeQuantizeBase;
  pt.wrapObserver = (handle) => {
    const cls = pt[handle.config().type] ?? ObserverBase;
    adopting = handle;
    try { return new cls(adopt); } finally { adopting = null; }
  };

  const num = (fn, v, a) => check.number(fn, v, a);
  const int = (fn, v, a) => check.integer(fn, v, a);
  const tensorArg = (fn, v, arg, dtype) => (v instanceof pt.Tensor ? v : pt.tensor(ArrayBuffer.isView(v) ? v : v, undefined, dtype));

  pt.quantize_per_tensor = (x, scale, zero_point, quant_min, quant_max, dtype) => T(call(M.quantize_per_tensor,
    H('quantize_per_tensor', x), num('quantize_per_tensor', scale, 'scale'), int('quantize_per_tensor', zero_point, 'zero_point'),
    int('quantize_per_tensor', quant_min, 'quant_min'), int('quantize_per_tensor', quant_max, 'quant_max'),
    check.dtype('quantize_per_tensor', dtype)));
  pt.dequantize_per_tensor = (q, scale, zero_point, quant_min, quant_max, dtype) => T(call(M.dequantize_per_tensor,
    H('dequantize_per_tensor', q), num('dequantize_per_tensor', scale, 'scale'), int('dequantize_per_tensor', zero_point, 'zero_point'),
    int('dequantize_per_tensor', quant_min, 'quant_min'), int('dequantize_per_tensor', quant_max, 'quant_max'),
    check.dtype('dequantize_per_tensor', dtype)));
  pt.quantize_per_channel = (x, scales, zero_points, axis, quant_min, quant_max, dtype) => pt.scope(() => T(call(M.quantize_per_channel,
    H('quantize_per_channel', x), tensorArg('quantize_per_channel', scales, 'scales', 'float32').handle,
    tensorArg('quantize_per_channel', zero_points, 'zero_points', 'int32').handle, int('quantize_per_channel', axis, 'axis'),
    int('quantize_per_channel', quant_min, 'quant_min'), int('quantize_per_channel', quant_max, 'quant_max'),
    check.dtype('quantize_per_channel', dtype))));
  pt.dequantize_per_channel = (q, scales, zero_points, axis, quant_min, quant_max, dtype) => pt.scope(() => T(call(M.dequantize_per_channel,
    H('dequantize_per_channel', q), tensorArg('dequantize_per_channel', scales, 'scales', 'float32').handle,
    zero_points == null ? null : tensorArg('dequantize_per_channel', zero_points, 'zero_points', 'int32').handle,
    int('dequantize_per_channel', axis, 'axis'), int('dequantize_per_channel', quant_min, 'quant_min'),
    int('dequantize_per_channel', quant_max, 'quant_max'), check.dtype('dequantize_per_channel', dtype))));
  pt.choose_qparams = (x, quant_min, quant_max, eps, dtype) => call(M.choose_qparams, H('choose_qparams', x),
    int('choose_qparams', quant_min, 'quant_min'), int('choose_qparams', quant_max, 'quant_max'), num('choose_qparams', eps, 'eps'),
    check.dtype('choose_qparams', dtype), false);
  pt.choose_qparams_symmetric = (x, quant_min, quant_max, eps, dtype) => call(M.choose_qparams, H('choose_qparams_symmetric', x),
    int('choose_qparams_symmetric', quant_min, 'quant_min'), int('choose_qparams_symmetric', quant_max, 'quant_max'),
    num('choose_qparams_symmetric', eps, 'eps'), check.dtype('choose_qparams_symmetric', dtype), true);
  pt.fake_quantize_per_tensor_affine = (x, scale, zero_point, quant_min, quant_max) => T(call(M.fake_quantize_per_tensor_affine,
    H('fake_quantize_per_tensor_affine', x), num('fake_quantize_per_tensor_affine', scale, 'scale'),
    int('fake_quantize_per_tensor_affine', zero_point, 'zero_point'), int('fake_quantize_per_tensor_affine', quant_min, 'quant_min'),
    int('fake_quantize_per_tensor_affine', quant_max, 'quant_max')));
  pt.fake_quantize_per_channel_affine = (x, scale, zero_point, axis, quant_min, quant_max) => pt.scope(() => T(call(
    M.fake_quantize_per_channel_affine, H('fake_quantize_per_channel_affine', x),
    tensorArg('fake_quantize_per_channel_affine', scale, 'scale', 'float32').handle,
    tensorArg('fake_quantize_per_channel_affine', zero_point, 'zero_point', 'int32').handle,
    int('fake_quantize_per_channel_affine', axis, 'axis'), int('fake_quantize_per_channel_affine', quant_min, 'quant_min'),
    int('fake_quantize_per_channel_affine', quant_max, 'quant_max'))));
  pt.sqnr = (a, b) => call(M.sqnr, H('sqnr', a, 'x'), H('sqnr', b, 'y'));
  pt.calculate_qmin_qmax = (quant_min, quant_max, dtype, reduce_range) =>
    call(M.calculate_qmin_qmax, quant_min ?? null, quant_max ?? null, check.dtype('calculate_qmin_qmax', dtype),
      check.flag('calculate_qmin_qmax', reduce_range, 'reduce_range', false));
  pt.student_t = (df, shape) => T(call(M.student_t, num('student_t', df, 'df'), check.shape('student_t', shape)));
}
