// graph.js — the model zoo, export and GraphModule, with the seed notebooks' names:
//   const model = pt.get_model('residual', { ch: 8 });
//   const gm = pt.export(model, [pt.randn([4, 8, 16, 16])]);
//   gm.nodes            // [{ name, op, kind, target: 'aten.conv2d.default', args, users, meta }]
//   gm.set_meta_custom('conv2d', 'numeric_debug_handle', 7)   // node.meta["custom"][key] = value
//   gm.forward(x)       // runs the graph: a Tensor (or an array when the graph has several outputs); train.js
//                       // defines it, as it records what loss.backward() needs
//   gm.code; gm.clone(); gm.graph_view({ conv2d: 41.2 })   // values: engine data; a view draws them as its `metric`
//   pt.fold_bn(gm); pt.diff_ops(a, b); pt.observer_nodes(g); pt.qdq_nodes(g); pt.annotation_table(g);
//   pt.observer_placement_table(g); pt.unannotated_ops(g); pt.example_inputs(4); pt.calibration_batches({ n, batch_size })
// Node objects are snapshots: read gm.nodes again after a change.
// A node's `kind` says what it is, computed once by the engine (engine/graph/targets.h node_kind):
// 'placeholder', 'get_attr', 'op' (any other call_function), 'observer' (an observer / fake-quantize
// module prepare_pt2e inserted), 'quantize', 'dequantize', 'choose_qparams' (the quantized_decomposed
// ops convert_pt2e writes), 'delegate' (an int8 op of a lowered graph, lower.js) or 'output'. Key on it
// rather than on target strings.
// meta: { shape, dtype (when known), nn_module_stack: [{ fqn, type }], custom: { key: value },
// quantization_annotation (when annotated) }. meta.custom is torchao's node.meta["custom"]: plain values
// (string, boolean, number) that prepare_pt2e / convert_pt2e carry forward (a node's to its output observer,
// an observer's to its quantize / dequantize nodes) and clone() keeps; write it with gm.set_meta_custom(node,
// key, value) (null removes the key).
import { show } from './engine.js';

export function installGraph(pt, M, tools) {
  const { call, own, release } = tools;
  const T = (h) => pt.Tensor.fromHandle(h);
  const tensorsIn = (fn, xs) => {
    // A list is read once through check.list: holes become undefined (map would keep them, and Embind fail on them).
    xs = Array.isArray(xs) ? pt.check.list(fn, xs, 'inputs') : [xs];
    return xs.map((x, i) => {
      if (!(x instanceof pt.Tensor)) throw new pt.errors.TypeError(`${fn}(): input ${i} must be a Tensor, got ${typeof x}`);
      return x.handle;
    });
  };

  class Handle {
    #handle;
    constructor(handle) { this.#handle = handle; own(this, handle); }
    get handle() {
      if (this.#handle.isDeleted()) throw new pt.RuntimeError(`this ${this.constructor.name} was freed`);
      return this.#handle;
    }
    isDeleted() { return this.#handle.isDeleted(); }
    delete() { release(this, this.#handle); }
  }

  class Model extends Handle {
    get name() { return call((h) => h.info(), this.handle).name; }
    get class_name() { return call((h) => h.info(), this.handle).class_name; }
    get input_shape() { return call((h) => h.info(), this.handle).input_shape; }
    state_dict() { return call((h) => h.state_dict(), this.handle).map((e) => ({ name: e.name, tensor: T(e.tensor) })); }
    eval() { return this; }  // zoo models are always in eval mode; kept so cells read like PyTorch
  }

  class GraphModule extends Handle {
    get nodes() { return call((h) => h.nodes(), this.handle); }
    node(name) {
      const n = this.nodes.find((x) => x.name === name);
      if (!n) throw new pt.errors.ValueError(`no node named ${show(name)} in the graph`);
      return n;
    }
    clone() { return new GraphModule(call((h) => h.clone(), this.handle)); }
    set_meta_custom(node, key, value) {
      const name = typeof node === 'object' && node !== null ? node.name : node;
      if (typeof name !== 'string') throw new pt.errors.TypeError('set_meta_custom(): argument \'node\' must be a node name or a node object');
      if (typeof key !== 'string') throw new pt.errors.TypeError('set_meta_custom(): argument \'key\' must be a string');
      if (value !== null && !['string', 'boolean', 'number'].includes(typeof value)) {
        throw new pt.errors.TypeError(`set_meta_custom(): value for '${key}' must be a string, boolean, number or null, got ${typeof value}`);
      }
      call((h) => h.set_meta_custom(name, key, value), this.handle);
      return this;
    }
    get code() { return call((h) => h.code(), this.handle); }
    lint() { call((h) => h.lint(), this.handle); }
    state_dict() {
      return call((h) => h.state_dict(), this.handle).map((e) => ({ name: e.name, tensor: T(e.tensor), is_buffer: e.is_buffer }));
    }
    // values: { node name: number } (null / undefined: none), read into a plain object before the engine sees it.
    graph_view(values = {}) {
      const own = {};
      if (values !== null && values !== undefined) {
        if (typeof values !== 'object' || Array.isArray(values)) {
          throw new pt.errors.TypeError(`graph_view(): argument 'values' must be an object of node name -> number, got ${show(values)}`);
        }
        for (const k of Object.keys(values)) own[k] = pt.check.number('graph_view', values[k], `values[${show(k)}]`);
      }
      return call((h, v) => h.graph_view(v), this.handle, own);
    }
    toString() { return this.code; }
  }
  pt.Model = Model;
  pt.GraphModule = GraphModule;
  pt.wrapGraphModule = (h) => new GraphModule(h);  // for other API files (pt2e.js)

  const gmArg = (fn, g, arg = 'model') => {
    if (!(g instanceof GraphModule)) throw new pt.errors.TypeError(`${fn}(): argument '${arg}' must be a GraphModule`);
    return g.handle;
  };
  pt.gmArg = gmArg;

  pt.model_names = () => M.model_names();
  pt.get_model = (name, opts = {}) => {
    if (typeof name !== 'string') throw new pt.errors.TypeError(`get_model(): argument 'name' must be a string`);
    opts = tools.check.options('get_model', opts, 'opts', ['ch', 'num_classes']);
    for (const k of ['ch', 'num_classes']) {
      if (opts[k] !== undefined && !(Number.isInteger(opts[k]) && opts[k] > 0)) {
        throw new pt.errors.ValueError(`get_model(): option '${k}' must be a positive integer, got ${show(opts[k])}`);
      }
    }
    return new Model(call(M.get_model, name, opts));
  };
  pt.export = (model, inputs) => {
    if (!(model instanceof Model)) throw new pt.errors.TypeError(`export(): argument 'model' must be a Model from pt.get_model`);
    return new GraphModule(call(M.export_module, model.handle, tensorsIn('export', inputs)));
  };
  pt.export_module = pt.export;
  pt.example_inputs = (batch) => call(M.example_inputs, check('example_inputs', batch, 'batch')).map(T);
  // The synthetic 4-class image set (engine/graph/models.h): n samples of (3, 16, 16) in batches of batch_size,
  // label i % 4 (bars, ring, checker, gradient), drawn in [0, 1] and normalized per channel with the set's own
  // mean / std; deterministic, from a private generator (the default generator is untouched). [{ x, labels }]
  pt.calibration_batches = (opts) => {
    const { n, batch_size } = tools.check.options('calibration_batches', opts, 'opts', ['n', 'batch_size']);
    return call(M.calibration_batches, check('calibration_batches', n, 'n'), check('calibration_batches', batch_size, 'batch_size'))
      .map((b) => ({ x: T(b.x), labels: T(b.labels) }));
  };
  pt.fold_bn = (gm) => call(M.fold_bn, gmArg('fold_bn', gm));
  pt.eliminate_dead_code = (gm) => call(M.eliminate_dead_code, gmArg('eliminate_dead_code', gm));
  pt.diff_ops = (a, b) => call(M.diff_ops, gmArg('diff_ops', a, 'a'), gmArg('diff_ops', b, 'b'));
  pt.count_ops = (g) => call(M.count_ops, gmArg('count_ops', g));
  pt.observer_nodes = (g) => call(M.observer_nodes, gmArg('observer_nodes', g));
  pt.qdq_nodes = (g) => call(M.qdq_nodes, gmArg('qdq_nodes', g));
  pt.unannotated_ops = (g) => call(M.unannotated_ops, gmArg('unannotated_ops', g));
  pt.annotation_table = (g) => call(M.annotation_table, gmArg('annotation_table', g));
  pt.observer_placement_table = (g) => call(M.observer_placement_table, gmArg('observer_placement_table', g));

  function check(fn, v, arg) {
    if (!Number.isInteger(v) || v <= 0) throw new pt.errors.ValueError(`${fn}(): argument '${arg}' must be a positive integer, got ${show(v)}`);
    return v;
  }
}
