// pt2e.js — specs, annotations, quantizers, prepare_pt2e / convert_pt2e, with torchao's names:
//   const q = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
//   const prepared = pt.prepare_pt2e(gm, q);   // a new GraphModule; gm is left as it was
//   prepared.forward(x);                      // calibrate
//   const converted = pt.convert_pt2e(prepared);
// A quantizer written in JS (a lesson cell) subclasses pt.Quantizer:
//   class ReluOutput extends pt.Quantizer {
//     annotate(gm) { for (const n of gm.nodes) if (n.target === 'aten.relu.default')
//       gm.annotate(n, new pt.QuantizationAnnotation({ output_qspec: act, _annotated: true })); }
//     validate(gm) {}
//   }
// The backend quantizers (pt.XNNPACKQuantizer, pt.executorch.XNNPACKQuantizer, pt.X86InductorQuantizer, ...)
// and the config functions are made at load from the engine's registry (engine/pt2e/quantizer_registry.h):
// a quantizer added there appears here with its setters, with no edit in this file.
// Specs are plain tagged objects; nodes are named by node objects or names; edges are [producer, consumer].
import { show } from './engine.js';

export function installPt2e(pt, M, tools) {
  const { call } = tools;
  const E = pt.errors;

  // The engine calls a JS quantizer's methods through this, so a thrown error comes back as data.
  M.pt_safe_call = (fn, arg) => {
    let gm = null;
    try {
      if (arg instanceof M.GraphModule) { gm = pt.wrapGraphModule(arg); arg = gm; }
      return { ok: true, value: fn(arg) ?? null };
    } catch (e) {
      // Whatever was thrown (an Error, a string, an object whose getters throw) becomes two strings.
      const text = (get) => { try { const v = get(); return typeof v === 'string' ? v : null; } catch { return null; } };
      return { ok: false, name: text(() => e.name) ?? 'Error', message: text(() => e.message) ?? text(() => String(e)) ?? typeof e };
    } finally {
      gm?.delete();
    }
  };

  const nodeName = (n) => (typeof n === 'string' ? n : n?.name);
  const edgeOrNode = (e) => (Array.isArray(e) ? pt.check.list('edge_or_node', e, 'edge').map(nodeName) : nodeName(e));

  // Spec objects are built eagerly, as torchao's dataclasses. The engine reads each one as annotate and
  // prepare will (types, dtype names, and QuantizationSpec's __post_init__ range and ch_axis checks), so
  // an error is raised here, typed, and JS keeps no value checks or dtype list of its own.
  const checked = (spec) => { spec.dtype = call(M.check_spec, spec); return spec; };
  class QuantizationSpec {
    constructor(fields) {
      const { dtype, observer_or_fake_quant_ctr: given, quant_min = null, quant_max = null, qscheme = null, ch_axis = null, is_dynamic = false } = tools.check.options('QuantizationSpec', fields, 'fields', ['dtype', 'observer_or_fake_quant_ctr', 'quant_min', 'quant_max', 'qscheme', 'ch_axis', 'is_dynamic']);
      // An observer class written in JS (web/api/quant.js) crosses with its class; the engine's by name.
      const observer_or_fake_quant_ctr = pt.isJsObserverClass(given) ? pt.jsObserverCtr(given, {}) : given;
      checked(Object.assign(this, { kind: 'QuantizationSpec', dtype, observer_or_fake_quant_ctr, quant_min, quant_max, qscheme, ch_axis, is_dynamic }));
    }
  }
  class SharedQuantizationSpec {
    constructor(edge_or_node) { this.kind = 'SharedQuantizationSpec'; this.edge_or_node = edgeOrNode(edge_or_node); }
  }
  class FixedQParamsQuantizationSpec {
    constructor(fields) {
      const { dtype, scale, zero_point, quant_min = null, quant_max = null, qscheme = null, is_dynamic = false } = tools.check.options('FixedQParamsQuantizationSpec', fields, 'fields', ['dtype', 'scale', 'zero_point', 'quant_min', 'quant_max', 'qscheme', 'is_dynamic']);
      checked(Object.assign(this, { kind: 'FixedQParamsQuantizationSpec', dtype, scale, zero_point, quant_min, quant_max, qscheme, is_dynamic }));
    }
  }
  class DerivedQuantizationSpec {
    // derive_qparams_fn(observers) gets [{type, scale, zero_point}] and returns {scale: [...], zero_point: [...]}.
    constructor(fields) {
      const { derived_from, derive_qparams_fn, dtype, quant_min = null, quant_max = null, qscheme = null, ch_axis = null, is_dynamic = false } = tools.check.options('DerivedQuantizationSpec', fields, 'fields', ['derived_from', 'derive_qparams_fn', 'dtype', 'quant_min', 'quant_max', 'qscheme', 'ch_axis', 'is_dynamic']);
      checked(Object.assign(this, { kind: 'DerivedQuantizationSpec', derived_from: Array.isArray(derived_from) ? derived_from.map(edgeOrNode) : derived_from, derive_qparams_fn, dtype, quant_min, quant_max, qscheme, ch_axis, is_dynamic }));
    }
  }
  class QuantizationAnnotation {
    constructor(fields) {
      const { input_qspec_map = [], output_qspec = null, allow_implicit_sharing = true, _annotated = false } = tools.check.options('QuantizationAnnotation', fields, 'fields', ['input_qspec_map', 'output_qspec', 'allow_implicit_sharing', '_annotated']);
      const bad = () => new E.TypeError('QuantizationAnnotation(): input_qspec_map must be a Map or a list of [node, spec] pairs');
      if (!(input_qspec_map instanceof Map) && !Array.isArray(input_qspec_map)) throw bad();
      // Read once into plain arrays (check.list): a hostile list's own methods or iterator are never called.
      const entries = input_qspec_map instanceof Map ? [...input_qspec_map]
        : tools.check.list('QuantizationAnnotation', input_qspec_map, 'input_qspec_map');
      const pairs = entries.map((e) => (Array.isArray(e) && e.length === 2 ? [e[0], e[1]] : null));
      if (pairs.includes(null)) throw bad();
      Object.assign(this, { input_qspec_map: pairs.map(([n, s]) => [nodeName(n), s]), output_qspec, allow_implicit_sharing, _annotated });
    }
  }
  Object.assign(pt, { QuantizationSpec, SharedQuantizationSpec, FixedQParamsQuantizationSpec, DerivedQuantizationSpec, QuantizationAnnotation });

  // Annotation helpers, as torchao's quantizer/utils.py: annotate_input_qspec_map / annotate_output_qspec
  // edit the node's annotation object in place (creating one if missing; `_annotated` untouched), and
  // mark_nodes_as_annotated (torchao's _mark_nodes_as_annotated) sets `_annotated` on each node's object,
  // kept. gm.annotate(node, a) is Python's node.meta["quantization_annotation"] = a: it REPLACES the
  // annotation, flags included, so a ComposableQuantizer sees a changed annotation as torchao does.
  pt.annotate_input_qspec_map = (gm, node, input_node, qspec) =>
    call(M.annotate_input_qspec_map, pt.gmArg('annotate_input_qspec_map', gm), nodeName(node), nodeName(input_node), qspec ?? null);
  pt.annotate_output_qspec = (gm, node, qspec) => call(M.annotate_output_qspec, pt.gmArg('annotate_output_qspec', gm), nodeName(node), qspec ?? null);
  pt.mark_nodes_as_annotated = (gm, nodes) => {
    if (!Array.isArray(nodes)) throw new E.TypeError('mark_nodes_as_annotated(): expected an array of nodes');
    call(M.mark_nodes_as_annotated, pt.gmArg('mark_nodes_as_annotated', gm), nodes.map(nodeName));
  };
  pt.GraphModule.prototype.annotate = function annotate(node, a) {
    if (!(a instanceof QuantizationAnnotation)) throw new E.TypeError('annotate(): expected a pt.QuantizationAnnotation');
    call(M.set_annotation, this.handle, nodeName(node), a);
  };
  // The observer (or fake-quantize) object behind an observer node of a prepared graph.
  const nodeNameArg = (fn, n) => {
    const name = nodeName(n);
    if (typeof name !== 'string') throw new E.TypeError(`${fn}(): argument 'node' must be a node or a node name, got ${show(n)}`);
    return name;
  };
  pt.GraphModule.prototype.observer = function observer(node) { return pt.wrapObserver(call(M.observer_of, this.handle, nodeNameArg('observer', node))); };
  pt.GraphModule.prototype.annotation = function annotation(node) { return call(M.get_node_annotation, this.handle, nodeNameArg('annotation', node)); };

  // Quantizers: JS objects that hold their settings and describe themselves to the engine.
  class Quantizer {
    describe() {
      if (typeof this.annotate !== 'function') throw new E.TypeError(`${this.constructor.name}: a Quantizer must define annotate(gm)`);
      return {
        type: 'Quantizer', name: this.constructor.name,
        annotate: (gm) => this.annotate(gm),
        validate: typeof this.validate === 'function' ? (gm) => this.validate(gm) : null,
        transform_for_annotation: typeof this.transform_for_annotation === 'function' ? (gm) => this.transform_for_annotation(gm) : null,
      };
    }
  }
  // A backend quantizer of the engine's registry (engine/pt2e/quantizer_registry.h): its setters record
  // their calls, which the engine replays on a new instance for each prepare / annotate.
  class BackendQuantizer extends Quantizer {
    constructor() { super(); this.calls = []; }
    describe() { return { type: this.constructor.id, name: this.constructor.name, calls: this.calls }; }
    annotate(gm) { call(M.annotate, pt.gmArg('annotate', gm), this.describe()); return gm; }
  }
  const place = (ns, name, value) => { (ns ? (pt[ns] ??= {}) : pt)[name] = value; };
  for (const { id, name, ns, setters } of M.quantizer_classes()) {
    const cls = { [name]: class extends BackendQuantizer {} }[name];
    cls.id = id;
    for (const s of setters) {
      cls.prototype[s.name] = { [s.name](...args) { this.calls.push([s.name, args]); return this; } }[s.name];
    }
    place(ns, name, cls);
  }
  // The config functions (get_symmetric_quantization_config, ...) with their keyword options.
  for (const { id, name, ns } of M.config_functions()) {
    place(ns, name, { [name]: (kwargs = {}) => call(M.quantization_config, id, kwargs) }[name]);
  }
  class ComposableQuantizer extends Quantizer {
    constructor(quantizers) {
      super();
      if (!Array.isArray(quantizers) || !pt.check.list('ComposableQuantizer', quantizers, 'quantizers').every((q) => q instanceof Quantizer)) {
        throw new E.TypeError('ComposableQuantizer(): expected an array of quantizers');
      }
      this.quantizers = quantizers;
      // torchao's _graph_annotations: which annotation object each node had, kept across annotate calls
      // (node identity → annotation identity; engine/pt2e/quantizers/composable_quantizer.h).
      Object.defineProperty(this, '_graph_annotations', { value: new Map() });
    }
    describe() { return { type: 'ComposableQuantizer', name: 'ComposableQuantizer', quantizers: this.quantizers.map((q) => q.describe()), record: this._graph_annotations }; }
    annotate(gm) { call(M.annotate, pt.gmArg('annotate', gm), this.describe()); return gm; }
  }
  Object.assign(pt, { Quantizer, ComposableQuantizer });

  const quantizerArg = (fn, q) => {
    if (!(q instanceof Quantizer)) throw new E.TypeError(`${fn}(): argument 'quantizer' must be a pt.Quantizer`);
    return q.describe();
  };
  pt.prepare_pt2e = (gm, quantizer) => pt.wrapGraphModule(call(M.prepare, pt.gmArg('prepare_pt2e', gm), quantizerArg('prepare_pt2e', quantizer), false));
  // convert_pt2e(model, use_reference_representation = false, fold_quantize = true): torch's positional booleans, or
  // their names in an options object (convert_pt2e(prepared, { use_reference_representation: true })).
  pt.convert_pt2e = (model, use_reference_representation, fold_quantize) => {
    if (use_reference_representation !== null && typeof use_reference_representation === 'object') {
      ({ use_reference_representation, fold_quantize } = tools.check.options('convert_pt2e', use_reference_representation,
        'options', ['use_reference_representation', 'fold_quantize']));
    }
    return pt.wrapGraphModule(call(M.convert, pt.gmArg('convert_pt2e', model),
      tools.check.flag('convert_pt2e', use_reference_representation, 'use_reference_representation', false),
      tools.check.flag('convert_pt2e', fold_quantize, 'fold_quantize', true)));
  };
  // prepare_qat_pt2e: annotate, then _fuse_conv_bn_qat (conv -> bn becomes conv(x, w*sf) / sf -> bn in
  // training mode, so the weight fake quant sees the BN-scaled weight), then fake quants.
  pt.prepare_qat_pt2e = (gm, quantizer) => pt.wrapGraphModule(call(M.prepare, pt.gmArg('prepare_qat_pt2e', gm), quantizerArg('prepare_qat_pt2e', quantizer), true));
  // torchao.quantization.pt2e.move_exported_model_to_train / _eval: model.train() / .eval() for an
  // exported graph (batch norms use batch statistics and update their running stats, or use them).
  // In place and idempotent; returns the same GraphModule, as torchao does.
  pt.move_exported_model_to_train = (gm) => { call(M.move_exported_model_to_train, pt.gmArg('move_exported_model_to_train', gm)); return gm; };
  pt.move_exported_model_to_eval = (gm) => { call(M.move_exported_model_to_eval, pt.gmArg('move_exported_model_to_eval', gm)); return gm; };
}
