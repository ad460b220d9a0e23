// data.js — the course's data and feeding a model, with PyTorch's names:
//   const train = pt.synthetic_images('train', 2048);            // { x: [2048, 3, 16, 16], labels: int32 [2048] }
//   const test = pt.synthetic_images('test', 1024, { num_classes: 10, noise: 0.3 });
//   const loader = new pt.DataLoader(train, { batch_size: 32, shuffle: true, seed: 0 });
//   for (const { x, labels } of loader) ...                         // one epoch; a new order each time
//   loader.length;                                                  // len(loader): batches per epoch
//   pt.accuracy(gm.forward(x), labels);                             // top-1, percent
//   pt.evaluate_accuracy(gm, new pt.DataLoader(test, { batch_size: 256 }));   // over a loader or [{ x, labels }]
//   pt.randperm(10);                                                // torch.randperm(10): the default generator
// The data set (engine/graph/datasets.h): samples drawn in pixel space (bars, ring, checker, gradient, disc,
// plus, diagonal, frame, dots, cross — label i % num_classes), with noise, normalized per channel with the
// train split's own statistics; deterministic (a private generator seeded with `seed`, seed + 1 for the
// test split). Defaults are M06's: 10 classes, noise 0.3. A data set is a plain { x, labels } object
// (torch's TensorDataset); any { x, labels } pair of Tensors of the same length works.
// DataLoader (engine/train/data.h) is torch 1.13's DataLoader(dataset, batch_size, shuffle, drop_last,
// generator=torch.Generator().manual_seed(seed)): the same order, epoch after epoch.
import { show } from './engine.js';

export function installData(pt, M, tools) {
  const { call, own, release } = tools;
  const E = pt.errors;
  const T = (h) => pt.Tensor.fromHandle(h);
  const batchesOf = (raw) => raw.map((b) => ({ x: T(b.x), labels: T(b.labels) }));
  const positiveInt = (fn, v, arg) => {
    if (!Number.isInteger(v) || v < 1) throw new E.ValueError(`${fn}(): argument '${arg}' must be a positive integer, got ${show(v)}`);
    return v;
  };
  const datasetArg = (fn, d) => {
    if (!(d?.x instanceof pt.Tensor) || !(d?.labels instanceof pt.Tensor)) {
      throw new E.TypeError(`${fn}(): expected a data set { x: Tensor, labels: Tensor } (pt.synthetic_images)`);
    }
    return d;
  };
  const options = (fn, o, keys) => {
    if (o === null || typeof o !== 'object') throw new E.TypeError(`${fn}(): options must be an object`);
    pt.check.keywords(fn, o, Object.keys(keys));
    for (const [k, v] of Object.entries(o)) {
      if (keys[k] === 'shape') pt.check.shape(fn, v, k);
      else if (typeof v !== keys[k]) throw new E.TypeError(`${fn}(): ${k} must be a ${keys[k]}, got ${typeof v}`);
    }
    return o;
  };

  // n as a number (a BigInt too, as torch takes any Python int); past 2^53 it could not be passed exactly.
  pt.randperm = (n) => {
    const count = Number(pt.check.integer('randperm', n, 'n'));
    if (!Number.isSafeInteger(count)) throw new E.ValueError(`randperm(): argument 'n' (${show(n)}) is too large`);
    return T(call(M.randperm, count));
  };

  pt.synthetic_images = (split, n, opts = {}) => {
    if (typeof split !== 'string') throw new E.TypeError("synthetic_images(): argument 'split' must be 'train' or 'test'");
    options('synthetic_images', opts, { num_classes: 'number', noise: 'number', seed: 'number', sample_shape: 'shape' });
    const d = call(M.synthetic_images, split, positiveInt('synthetic_images', n, 'n'), opts);
    return { x: T(d.x), labels: T(d.labels) };
  };

  class DataLoader {
    #handle;
    constructor(dataset, opts = {}) {
      const d = datasetArg('DataLoader', dataset);
      options('DataLoader', opts, { batch_size: 'number', shuffle: 'boolean', drop_last: 'boolean', seed: 'number' });
      const { batch_size = 1, shuffle = false, drop_last = false, seed = 0 } = opts;
      positiveInt('DataLoader', batch_size, 'batch_size');
      if (!Number.isInteger(seed) || seed < 0) throw new E.ValueError(`DataLoader(): seed must be a non-negative integer, got ${show(seed)}`);
      this.#handle = call(M.make_data_loader, d.x.handle, d.labels.handle, { batch_size, shuffle, drop_last, seed });
      own(this, this.#handle);
      this.dataset = d;
    }
    get handle() {
      if (this.#handle.isDeleted()) throw new E.RuntimeError('this DataLoader was freed');
      return this.#handle;
    }
    // iter(loader): the next epoch's batches, [{ x, labels }].
    epoch() { return batchesOf(call((h) => h.epoch(), this.handle)); }
    [Symbol.iterator]() { return this.epoch()[Symbol.iterator](); }
    get length() { return call((h) => h.num_batches(), this.handle); }
    isDeleted() { return this.#handle.isDeleted(); }
    delete() { release(this, this.#handle); }
  }
  pt.DataLoader = DataLoader;

  pt.accuracy = (output, target) => {
    if (!(output instanceof pt.Tensor) || !(target instanceof pt.Tensor)) throw new E.TypeError('accuracy(): output and target must be Tensors');
    return call(M.accuracy, output.handle, target.handle);
  };
  // Top-1 accuracy in percent of a model over a loader's next epoch or a list of { x, labels }. The model
  // runs as it is (put batch norms in eval mode first: pt.move_exported_model_to_eval); nothing is recorded.
  pt.evaluate_accuracy = (gm, batches) => pt.scope(() => {
    const list = batches instanceof DataLoader ? batches.epoch() : batches;
    if (!Array.isArray(list)) throw new E.TypeError('evaluate_accuracy(): expected a DataLoader or an array of { x, labels }');
    const raw = pt.check.list('evaluate_accuracy', list, 'batches').map((b, i) => {
      if (!(b?.x instanceof pt.Tensor) || !(b?.labels instanceof pt.Tensor)) throw new E.TypeError(`evaluate_accuracy(): batches[${i}] must be { x: Tensor, labels: Tensor }`);
      return { x: b.x.handle, labels: b.labels.handle };
    });
    return call(M.evaluate_accuracy, pt.gmArg('evaluate_accuracy', gm), raw);
  });
}
