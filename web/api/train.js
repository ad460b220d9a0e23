// train.js — training with torch's names: autograd through a GraphModule, losses, parameters, optimizers,
// and a train loop a page runs in slices.
//   pt.move_exported_model_to_train(gm);                     // or gm.train(): BatchNorm uses batch statistics
//   const opt = new pt.optim.SGD(gm.parameters(), { lr: 0.05, momentum: 0.9 });
//   const loss = pt.nn.functional.cross_entropy(gm.forward(x), labels);
//   opt.zero_grad(); loss.backward(); opt.step(); loss.item();
//   for (const [name, p] of gm.named_parameters()) p.grad;  // a Tensor, or null (None) before a backward
//   gm.load_state_dict(other.state_dict());                 // also { name: Tensor } or a Map; strict = true
//   const loop = new pt.TrainLoop(gm, opt, { loss: 'cross_entropy', batches });   // [{ x, labels }]
//   loop.run(5);                                             // five steps in one call: Float32Array of losses
//   new pt.TrainLoop(gm, opt, { loader: new pt.DataLoader(train, { batch_size: 32, shuffle: true }) });  // data.js
//
// How loss.backward() finds the graph: gm.forward(x) runs the graph through the engine's Tape (it
// records every node's value) and its output tensors carry a grad_fn pointing at that tape; a loss keeps
// the grad_fn of its input and the gradient of the loss with respect to it. A GraphModule keeps only
// its latest recorded forward: the next forward, a backward, or the end of the tape's pt.scope frees it
// (then backward on an older output is a RuntimeError). out.backward(gradient) seeds an output with a
// cotangent, as torch does.
import { show } from './engine.js';

export function installTrain(pt, M, tools) {
  const { call, own, release } = tools;
  const E = pt.errors;
  const T = (h) => pt.Tensor.fromHandle(h);
  const tensorArg = (fn, t, arg) => {
    if (!(t instanceof pt.Tensor)) throw new E.TypeError(`${fn}(): argument '${arg}' must be a Tensor, got ${typeof t}`);
    return t;
  };

  // ---- autograd ----
  class Tape {
    #handle;
    constructor(handle) { this.#handle = handle; own(this, handle); }
    backward(grads) {
      if (this.#handle.isDeleted()) {
        throw new E.RuntimeError('Trying to backward through a forward whose saved values were freed (a later forward of the same GraphModule, a backward, or the end of its pt.scope); run forward again');
      }
      call((h, g) => h.backward(g), this.#handle, grads.map((t) => (t ? t.handle : null)));
      this.delete();
    }
    isDeleted() { return this.#handle.isDeleted(); }
    delete() { release(this, this.#handle); }
  }

  // torch's grad_fn: how backward reaches the graph from this tensor. name as torch prints it.
  class GradFn {
    constructor(name, run) { this.name = name; this.run = run; }
    toString() { return `<${this.name}>`; }
  }
  const gradFns = new WeakMap();
  const latestTape = new WeakMap();  // GraphModule -> its latest Tape

  Object.defineProperty(pt.Tensor.prototype, 'grad_fn', { get() { return gradFns.get(this) ?? null; }, configurable: true });
  Object.defineProperty(pt.Tensor.prototype, 'requires_grad', { get() { return gradFns.has(this); }, configurable: true });
  // torch.Tensor.backward(gradient): gradient may be left out for a one-element tensor (it is 1).
  pt.Tensor.prototype.backward = function backward(gradient) {
    const fn = gradFns.get(this);
    if (!fn) throw new E.RuntimeError('element 0 of tensors does not require grad and does not have a grad_fn');
    if (gradient === undefined) {
      if (this.numel !== 1) throw new E.RuntimeError('grad can be implicitly created only for scalar outputs');
    } else {
      tensorArg('backward', gradient, 'gradient');
    }
    fn.run(gradient);
  };

  // gm.forward(...inputs): runs the graph and records it (see the header).
  pt.GraphModule.prototype.forward = function forward(...inputs) {
    // A list argument is read once through check.list (a learner's array may be a Proxy of any length).
    const xs = inputs.flatMap((x) => (Array.isArray(x) ? pt.check.list('forward', x, 'inputs') : [x]))
      .map((x, i) => tensorArg('forward', x, `input ${i}`).handle);
    const r = call((h, a) => M.forward_recorded(h, a), this.handle, xs);
    latestTape.get(this)?.delete();
    const tape = new Tape(r.tape);
    latestTape.set(this, tape);
    const outs = r.outputs.map(T);
    outs.forEach((out, i) => {
      gradFns.set(out, new GradFn('GraphModuleBackward0', (gradient) => {
        const seeds = outs.map(() => null);
        seeds[i] = gradient ?? pt.tensor([1], out.shape);
        tape.backward(seeds);
      }));
    });
    return outs.length === 1 ? outs[0] : outs;
  };

  // A loss of a recorded output: its value, with a grad_fn that seeds the output with d loss / d output.
  // With reduction 'none' the value holds one loss per sample (cross_entropy) or element (mse_loss), and
  // backward(gradient) scales each sample's row of the gradient by its cotangent.
  function lossOf(kind, name, input, target, o) {
    tensorArg(kind, input, 'input');
    const r = call(M.loss, kind, input.handle, target.handle, o.reduction, o.weight ? o.weight.handle : null, o.ignore_index, o.label_smoothing);
    const value = T(r.value);
    const grad = T(r.grad);
    const source = gradFns.get(input);
    if (source) {
      gradFns.set(value, new GradFn(name, (gradient) => {
        if (gradient !== undefined && !sameShape(gradient.shape, value.shape)) {
          throw new E.RuntimeError(`Mismatch in shape: grad_output[0] has a shape of ${shapeStr(gradient.shape)} and output[0] has a shape of ${shapeStr(value.shape)}.`);
        }
        let g = grad;
        if (gradient !== undefined && o.reduction !== 'none') g = grad.mul(gradient.item());
        else if (gradient !== undefined) {  // each sample's row (mse_loss: element) times its cotangent, in float
          const d = grad.data(), c = gradient.data(), row = d.length / Math.max(c.length, 1);
          for (let i = 0; i < d.length; i++) d[i] *= c[Math.floor(i / row)];
          g = pt.tensor(d, grad.shape);
        }
        source.run(g);
      }));
    } else {
      grad.delete();
    }
    return value;
  }
  const sameShape = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);
  const shapeStr = (s) => `torch.Size([${s.join(', ')}])`;
  // torch's keyword arguments of each loss, with their defaults.
  const lossKeys = {
    cross_entropy: { weight: null, ignore_index: -100, reduction: 'mean', label_smoothing: 0.0 },
    mse_loss: { reduction: 'mean' },
  };
  function lossOptions(kind, options) {
    const o = { ...lossKeys.cross_entropy, ...tools.check.options(kind, options, 'options', Object.keys(lossKeys[kind])) };
    tools.check.string(kind, o.reduction, 'reduction');
    if (!['none', 'mean', 'sum'].includes(o.reduction)) throw new E.ValueError(`${o.reduction} is not a valid value for reduction`);
    if (o.weight !== null && o.weight !== undefined) tensorArg(kind, o.weight, 'weight');
    else o.weight = null;
    o.ignore_index = Number(tools.check.integer(kind, o.ignore_index, 'ignore_index'));
    if (!Number.isSafeInteger(o.ignore_index)) throw new E.ValueError(`${kind}(): argument 'ignore_index' is too large to be exact`);
    o.label_smoothing = tools.check.number(kind, o.label_smoothing, 'label_smoothing');
    return o;
  }
  const labels = (fn, target) => {
    if (Array.isArray(target) || ArrayBuffer.isView(target)) return pt.tensor(Array.from(target), [target.length], 'int32');
    return tensorArg(fn, target, 'target');
  };
  pt.nn = pt.nn ?? {};
  pt.nn.functional = pt.nn.functional ?? {};
  // F.cross_entropy(input [N, C], target: int32 class indices (a Tensor or an array), { weight, ignore_index,
  // reduction, label_smoothing }): torch's keyword arguments and defaults (engine/train/loss.h).
  pt.nn.functional.cross_entropy = (input, target, options) => {
    const o = lossOptions('cross_entropy', options);
    return lossOf('cross_entropy', 'NllLossBackward0', input, labels('cross_entropy', target), o);
  };
  // F.mse_loss(input, target, { reduction }), same shape.
  pt.nn.functional.mse_loss = (input, target, options) => {
    const o = lossOptions('mse_loss', options);
    return lossOf('mse_loss', 'MseLossBackward0', input, tensorArg('mse_loss', target, 'target'), o);
  };

  // ---- parameters ----
  // nn.Parameter: a GraphModule's trainable tensor by name. data shares storage with the module (an
  // optimizer step shows in it); grad is a copy of the accumulated gradient, or null (None).
  class Parameter {
    #module;
    constructor(module, name, tensor) { this.#module = module; this.name = name; this.data = tensor; }
    get module() { return this.#module; }
    get grad() {
      const g = call((h, n) => M.parameter_grad(h, n), this.#module.handle, this.name);
      return g ? T(g) : null;
    }
    get shape() { return this.data.shape; }
    toString() { return `Parameter(${this.name}, shape=[${this.shape}])`; }
  }
  pt.Parameter = Parameter;

  const proto = pt.GraphModule.prototype;
  proto.named_parameters = function namedParameters() {
    return call((h) => M.named_parameters(h), this.handle).map((e) => [e.name, new Parameter(this, e.name, T(e.tensor))]);
  };
  proto.parameters = function parameters() { return this.named_parameters().map(([, p]) => p); };
  proto.zero_grad = function zeroGrad(set_to_none) { call((h, f) => M.zero_grad(h, f), this.handle, pt.check.flag('zero_grad', set_to_none, 'set_to_none', true)); };
  // sd: what state_dict() returns ([{ name, tensor }]), a plain { name: Tensor } object or a Map.
  proto.load_state_dict = function loadStateDict(sd, strict) {
    let entries;
    if (Array.isArray(sd)) entries = pt.check.list('load_state_dict', sd, 'state_dict').map((e) => [e?.name, e?.tensor]);
    else if (sd instanceof Map) entries = [...sd];
    else if (sd && typeof sd === 'object') entries = Object.entries(sd);
    else throw new E.TypeError(`load_state_dict(): expected a state dict (array of { name, tensor }, object or Map), got ${typeof sd}`);
    const list = entries.map(([name, t]) => {
      if (typeof name !== 'string') throw new E.TypeError('load_state_dict(): every entry needs a string name');
      return { name, tensor: tensorArg('load_state_dict', t, name).handle };
    });
    return call((h, l, f) => M.load_state_dict(h, l, f), this.handle, list, pt.check.flag('load_state_dict', strict, 'strict', true));
  };
  // torchao's _allow_exported_model_train_eval: train() / eval() move the exported model's BatchNorm.
  proto.train = function train(mode) {
    return pt.check.flag('train', mode, 'mode', true) ? pt.move_exported_model_to_train(this) : pt.move_exported_model_to_eval(this);
  };
  proto.eval = function evalMode() { return pt.move_exported_model_to_eval(this); };

  // ---- optimizers ----
  const optionKeys = {
    SGD: { lr: 'number', momentum: 'number', dampening: 'number', weight_decay: 'number', nesterov: 'boolean', maximize: 'boolean' },
    Adam: { lr: 'number', betas: 'betas', eps: 'number', weight_decay: 'number', amsgrad: 'boolean', maximize: 'boolean' },
  };
  // One hyper-parameter's value as given, type-checked (betas: two numbers, a fresh array).
  const optionValue = (kind, k, v) => {
    const want = optionKeys[kind][k];
    if (want === 'betas') {
      if (!Array.isArray(v) || v.length !== 2 || v.some((b) => typeof b !== 'number')) {
        throw new E.TypeError(`${kind}(): betas must be two numbers, got ${JSON.stringify(v)}`);
      }
      return [v[0], v[1]];
    }
    if (typeof v !== want) throw new E.TypeError(`${kind}(): ${k} must be a ${want}, got ${typeof v}`);
    return v;
  };
  class Optimizer {
    #handle;
    #params;
    constructor(params, options = {}) {
      const kind = this.constructor.name;
      if (!optionKeys[kind]) throw new E.TypeError(`pt.optim.${kind}() is not an optimizer the engine has: construct ${Object.keys(optionKeys).map((k) => `pt.optim.${k}`).join(' or ')}`);
      if (!Array.isArray(params)) throw new E.TypeError(`${kind}(): params must be an array of Parameters (gm.parameters())`);
      // A plain copy, checked element by element (the learner's array may be a Proxy, holey, or of any length).
      const list = [];
      for (let i = 0; i < params.length; i++) {
        const p = params[i];
        if (!(p instanceof Parameter)) throw new E.TypeError(`${kind}(): params[${i}] is not a Parameter (use gm.parameters())`);
        list.push(p);
      }
      params = list;
      if (options === null || typeof options !== 'object') throw new E.TypeError(`${kind}(): options must be an object`);
      // foreach / differentiable: torch's implementation switches, read below
      pt.check.keywords(`${kind}.__init__`, options, [...Object.keys(optionKeys[kind]), 'foreach', 'differentiable']);
      const o = {};
      for (const [k, v] of Object.entries(options)) {
        // torch's implementation switches: foreach (one kernel over all tensors, the same arithmetic per element)
        // and differentiable=False change nothing here, so torch code that passes them runs as written.
        if (k === 'foreach') {
          if (v === null || typeof v === 'boolean') continue;
          throw new E.TypeError(`${kind}(): foreach must be a bool or null, got ${typeof v}`);
        }
        if (k === 'differentiable' && v === false) continue;
        if (k === 'differentiable') throw new E.NotImplementedError(`${kind}(): differentiable=True (autograd through the step) is not supported`);
        o[k] = optionValue(kind, k, v);
      }
      this.#handle = call(M.make_optimizer, kind, params.map((p) => ({ module: p.module.handle, name: p.name })), o);
      own(this, this.#handle);
      this.defaults = { ...options };
      this.#params = params;
    }
    // torch's opt.param_groups: one group (every parameter) whose hyper-parameters are read from the engine and
    // written back by name between steps, as an LR schedule does (opt.param_groups[0].lr = 0.01). A value of the
    // wrong type is a TypeError; one the constructor would refuse is its ValueError, and the old values stay.
    get param_groups() {
      const kind = this.constructor.name;
      const hyper = () => call((h) => h.hyper(), this.handle);
      const group = { params: [...this.#params] };
      for (const k of Object.keys(optionKeys[kind])) {
        Object.defineProperty(group, k, {
          enumerable: true,
          get: () => hyper()[k],
          set: (v) => {
            const all = hyper();
            all[k] = optionValue(kind, k, v);
            call((h, o) => h.set_hyper(o), this.handle, all);
          },
        });
      }
      return [group];
    }
    get handle() {
      if (this.#handle.isDeleted()) throw new E.RuntimeError(`this ${this.constructor.name} was freed`);
      return this.#handle;
    }
    step() { call((h) => h.step(), this.handle); }
    zero_grad(set_to_none) { call((h, f) => h.zero_grad(f), this.handle, pt.check.flag('zero_grad', set_to_none, 'set_to_none', true)); }
    isDeleted() { return this.#handle.isDeleted(); }
    delete() { release(this, this.#handle); }
  }
  class SGD extends Optimizer {}
  class Adam extends Optimizer {}
  pt.optim = { Optimizer, SGD, Adam };

  // ---- training in slices ----
  class TrainLoop {
    #handle;
    // batches: [{ x, labels }], walked in order every epoch; or loader: a pt.DataLoader (data.js), whose next
    // epoch each pass takes (a new order when it shuffles). The loop takes a copy of the loader as it is now.
    constructor(model, optimizer, options) {
      const { loss = 'cross_entropy', batches, loader } = tools.check.options('TrainLoop', options, 'options', ['loss', 'batches', 'loader']);
      const gm = pt.gmArg('TrainLoop', model);
      if (!(optimizer instanceof Optimizer)) throw new E.TypeError('TrainLoop(): optimizer must be a pt.optim optimizer');
      if ((batches === undefined) === (loader === undefined)) throw new E.TypeError('TrainLoop(): give either batches or loader');
      if (loader !== undefined) {
        if (!(loader instanceof pt.DataLoader)) throw new E.TypeError('TrainLoop(): loader must be a pt.DataLoader');
        this.#handle = call(M.make_train_loop_over, gm, optimizer.handle, loss, loader.handle);
      } else {
        if (!Array.isArray(batches)) throw new E.TypeError('TrainLoop(): batches must be an array of { x, labels }');
        const bs = batches.map((b, i) => ({
          x: tensorArg('TrainLoop', b?.x, `batches[${i}].x`).handle,
          labels: tensorArg('TrainLoop', b?.labels, `batches[${i}].labels`).handle,
        }));
        this.#handle = call(M.make_train_loop, gm, optimizer.handle, loss, bs);
      }
      own(this, this.#handle);
    }
    get handle() {
      if (this.#handle.isDeleted()) throw new E.RuntimeError('this TrainLoop was freed');
      return this.#handle;
    }
    // Runs `steps` training steps (zero_grad, forward, loss, backward, step each); their losses.
    run(steps = 1) {
      if (!Number.isInteger(steps) || steps < 0) throw new E.ValueError(`TrainLoop.run(): steps must be a non-negative integer, got ${show(steps)}`);
      return call((h) => h.run(steps), this.handle);
    }
    get position() { return call((h) => h.position(), this.handle); }
    get epoch() { return call((h) => h.epoch(), this.handle); }
    isDeleted() { return this.#handle.isDeleted(); }
    delete() { release(this, this.#handle); }
  }
  pt.TrainLoop = TrainLoop;
}
