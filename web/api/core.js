// core.js — pt.Tensor and the torch-exact generator: manual_seed, randn, rand, tensor.
//   pt.manual_seed(0); const x = pt.randn([20000]); x.shape; x.dtype; x.data() // Float32Array copy
//   String(x)   // as print(x) in PyTorch: 'tensor([ 1.5410, -0.2934, ...])' (tensor_str.js)
import { RuntimeError } from './engine.js';
import { tensorRepr } from './tensor_str.js';

export function installCore(pt, M, tools) {
  const { call, own, release, check } = tools;

  class Tensor {
    #handle;
    constructor(handle) { this.#handle = handle; own(this, handle); }
    static fromHandle(handle) { return new Tensor(handle); }
    get handle() {
      if (this.#handle.isDeleted()) throw new RuntimeError('this Tensor was freed (by .delete() or the end of its pt.scope)');
      return this.#handle;
    }
    get shape() { return this.handle.shape(); }
    get dtype() { return this.handle.dtype(); }
    get numel() { return this.handle.numel(); }
    // torch's x.dim() and x.size() / x.size(d) (d may count from the end); shape is the same list as a property.
    dim() { return this.shape.length; }
    size(d) {
      const s = this.shape;
      if (d === undefined) return s;
      check.integer('size', d, 'dim');
      if (s.length === 0) throw new pt.errors.IndexError(`Dimension specified as ${d} but tensor has no dimensions`);
      const n = s.length, i = Number(d) < 0 ? Number(d) + n : Number(d);
      if (i < 0 || i >= n) throw new pt.errors.IndexError(`Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${d})`);
      return s[i];
    }
    data() { return call((h) => h.data(), this.handle); }
    tolist() { return Array.from(this.data()); }
    item() {
      const d = this.data();
      if (d.length !== 1) throw new pt.RuntimeError(`a Tensor with ${d.length} elements cannot be converted to Scalar`);
      return d[0];
    }
    // Elementwise helpers with PyTorch's float32 rules: a JS number meets a float32 tensor as
    // float32 (Math.fround), and every result is rounded to float32, as torch computes it.
    mul(s) { return this.#map('mul', s, (v, f) => v * f); }
    add(s) { return this.#map('add', s, (v, f) => v + f); }
    div(s) { return this.#map('div', s, (v, f) => v / f); }
    relu() { return this.#map('relu', 0, (v) => (v > 0 ? v : 0)); }
    abs() { return this.#map('abs', 0, (v) => Math.abs(v)); }
    clone() { return pt.tensor(this.data(), this.shape, this.dtype); }
    reshape(shape) {
      // A plain copy first (stopping at the first element that is not a number, which the check then names),
      // so a hostile list is read once; -1 (infer one size) aside, it must be a list of sizes.
      const dims = [];
      if (Array.isArray(shape)) {
        for (let i = 0; i < shape.length; i++) { const d = shape[i]; dims.push(d); if (typeof d !== 'number') break; }
      }
      check.shape('reshape', Array.isArray(shape) ? dims.map((d) => (d === -1 ? 1 : d)) : shape);
      const known = dims.reduce((a, d) => (d === -1 ? a : a * d), 1);
      const s = check.shape('reshape', dims.map((d) => (d === -1 && known > 0 ? this.numel / known : d)));
      if (dims.filter((d) => d === -1).length > 1) throw new pt.RuntimeError('only one dimension can be inferred');
      if (s.reduce((a, b) => a * b, 1) !== this.numel) throw new pt.RuntimeError(`shape '[${dims.join(', ')}]' is invalid for input of size ${this.numel}`);
      return pt.tensor(this.data(), s, this.dtype);
    }
    #map(fn, s, op) {
      if (this.dtype !== 'float32') throw new pt.errors.TypeError(`${fn}(): only float32 tensors, got ${this.dtype}`);
      check.number(fn, s, 'other');
      const f = Math.fround(s);
      const d = this.data();
      for (let i = 0; i < d.length; i++) d[i] = op(d[i], f);  // Float32Array stores round to float32
      return pt.tensor(d, this.shape);
    }
    isDeleted() { return this.#handle.isDeleted(); }
    delete() { release(this, this.#handle); }
    toString() { return tensorRepr(this.data(), this.shape, this.dtype); }
    [Symbol.for('nodejs.util.inspect.custom')]() { return this.isDeleted() ? 'Tensor(freed)' : this.toString(); }
  }
  pt.Tensor = Tensor;
  pt.relu = (x) => {
    if (!(x instanceof Tensor)) throw new pt.errors.TypeError(`relu(): argument 'input' must be a Tensor, got ${typeof x}`);
    return x.relu();
  };

  pt.manual_seed = (seed) => {
    check.integer('manual_seed', seed, 'seed');
    let s = BigInt(seed);
    if (s < -(2n ** 63n) || s >= 2n ** 64n) {
      throw new RuntimeError(`manual_seed(): seed ${s} is outside [-2^63, 2^64)`);
    }
    if (s < 0n) s += 2n ** 64n;  // torch wraps negative seeds into uint64
    call(M.manual_seed, s.toString());
  };
  pt.randn = (shape) => new Tensor(call(M.randn, check.shape('randn', shape)));
  pt.rand = (shape) => new Tensor(call(M.rand, check.shape('rand', shape)));
  // torch.tensor's nested lists: [[1, 2, 3], [4, 5, 6]] is a [2, 3] tensor. Each list's length is read once; every
  // list of a level must have the first one's length (torch's ValueError otherwise). Flat values and their dims.
  const nested = (values) => {
    const dims = [];
    for (let level = values; Array.isArray(level); level = level[0]) {
      dims.push(level.length);
      if (level.length === 0) break;
    }
    check.shape('tensor', dims);
    const count = dims.reduce((a, b) => a * b, 1);
    if (count > 2 ** 31 - 1) throw new pt.errors.ValueError(`tensor(): nested lists of shape [${dims}] hold more than 2^31 - 1 elements`);
    let flat;
    try {
      flat = new Float64Array(count);  // not a JS array: V8 aborts the process when one grows past ~2^27 elements
    } catch {
      throw new pt.errors.RuntimeError(`tensor(): out of memory for nested lists of shape [${dims}]`);
    }
    let k = 0;
    const walk = (a, depth) => {
      const n = Array.isArray(a) ? a.length : undefined;
      if (n !== dims[depth]) {
        throw new pt.errors.ValueError(`tensor(): expected sequence of length ${dims[depth]} at dim ${depth} (got ${n ?? typeof a})`);
      }
      for (let i = 0; i < n; i++) {
        const v = a[i];
        if (depth + 1 < dims.length) walk(v, depth + 1);
        else if (Array.isArray(v)) throw new pt.errors.ValueError(`tensor(): expected a number at dim ${depth + 1}, got a list`);
        else if (typeof v !== 'number') throw new pt.errors.TypeError(`tensor(): element ${k} of 'values' is not a number`);
        else flat[k++] = v;
      }
    };
    walk(values, 0);
    return { flat, dims };
  };
  pt.tensor = (values, shape, dtype = 'float32') => {
    const d = check.dtype('tensor', dtype);
    if (!ArrayBuffer.isView(values) && !Array.isArray(values)) {
      throw new pt.errors.TypeError(`tensor(): argument 'values' must be an array or typed array, got ${typeof values}`);
    }
    let inferred = [values.length];
    if (Array.isArray(values) && values.length > 0 && Array.isArray(values[0])) ({ flat: values, dims: inferred } = nested(values));
    const s = shape === undefined ? inferred : check.shape('tensor', shape);
    const range = { int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767], int32: [-(2 ** 31), 2 ** 31 - 1] }[d];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v !== 'number') throw new pt.errors.TypeError(`tensor(): element ${i} of 'values' is not a number`);
      if (range && !(Number.isInteger(v) && v >= range[0] && v <= range[1])) {
        throw new pt.errors.ValueError(`tensor(): element ${i} of 'values' (${v}) cannot be converted to ${d} without overflow`);
      }
    }
    return new Tensor(call(M.tensor, values, s, d));
  };
}
