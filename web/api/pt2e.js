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
// Specs are plain tagged objects; nodes are named by node objects or names; edges are [producer, consumer].
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
      return { ok: false, name: e?.name ?? 'Error', message: e?.message ?? String(e) };
    } finally {
      gm?.delete();
    }
  };

  const nodeName = (n) => (typeof n === 'string' ? n : n?.name);
  const edgeOrNode = (e) => (Array.isArray(e) ? e.map(nodeName) : nodeName(e));

  class QuantizationSpec {
    constructor({ dtype, observer_or_fake_quant_ctr, quant_min = null, quant_max = null, qscheme = null, ch_axis = null, is_dynamic = false } = {}) {
      if (!observer_or_fake_quant_ctr?.name) throw new E.TypeError('QuantizationSpec(): observer_or_fake_quant_ctr must be an observer class or Class.with_args({...})');
      Object.assign(this, { kind: 'QuantizationSpec', dtype: pt.check.dtype('QuantizationSpec', dtype), observer_or_fake_quant_ctr, quant_min, quant_max, qscheme, ch_axis, is_dynamic });
      if (quant_min !== null && quant_max !== null && quant_min > quant_max) throw new E.ValueError(`QuantizationSpec(): quant_min ${quant_min} must be <= quant_max ${quant_max}`);
      if (ch_axis !== null && ch_axis < 0) throw new E.ValueError('QuantizationSpec(): ch_axis must be >= 0');
    }
  }
  class SharedQuantizationSpec {
    constructor(edge_or_node) { this.kind = 'SharedQuantizationSpec'; this.edge_or_node = edgeOrNode(edge_or_node); }
  }
  class FixedQParamsQuantizationSpec {
    constructor({ dtype, scale, zero_point, quant_min = null, quant_max = null, qscheme = null, is_dynamic = false } = {}) {
      Object.assign(this, { kind: 'FixedQParamsQuantizationSpec', dtype: pt.check.dtype('FixedQParamsQuantizationSpec', dtype), scale, zero_point, quant_min, quant_max, qscheme, is_dynamic });
    }
  }
  class DerivedQuantizationSpec {
    // derive_qparams_fn(observers) gets [{type, scale, zero_point}] and returns {scale: [...], zero_point: [...]}.
    constructor({ derived_from, derive_qparams_fn, dtype, quant_min = null, quant_max = null, qscheme = null, ch_axis = null, is_dynamic = false } = {}) {
      if (typeof derive_qparams_fn !== 'function') throw new E.TypeError('DerivedQuantizationSpec(): derive_qparams_fn must be a function');
      Object.assign(this, { kind: 'DerivedQuantizationSpec', derived_from: derived_from.map(edgeOrNode), derive_qparams_fn, dtype: pt.check.dtype('DerivedQuantizationSpec', dtype), quant_min, quant_max, qscheme, ch_axis, is_dynamic });
    }
  }
  class QuantizationAnnotation {
    constructor({ input_qspec_map = [], output_qspec = null, allow_implicit_sharing = true, _annotated = false } = {}) {
      const entries = input_qspec_map instanceof Map ? [...input_qspec_map] : input_qspec_map;
      Object.assign(this, { input_qspec_map: entries.map(([n, s]) => [nodeName(n), s]), output_qspec, allow_implicit_sharing, _annotated });
    }
  }
  Object.assign(pt, { QuantizationSpec, SharedQuantizationSpec, FixedQParamsQuantizationSpec, DerivedQuantizationSpec, QuantizationAnnotation });

  // Annotation helpers (torchao edits an existing annotation in place).
  pt.annotate_input_qspec_map = (gm, node, input_node, qspec) =>
    call(M.annotate_input_qspec_map, pt.gmArg('annotate_input_qspec_map', gm), nodeName(node), nodeName(input_node), qspec ?? null);
  pt.annotate_output_qspec = (gm, node, qspec) => call(M.annotate_output_qspec, pt.gmArg('annotate_output_qspec', gm), nodeName(node), qspec ?? null);
  pt.GraphModule.prototype.annotate = function annotate(node, a) {
    if (!(a instanceof QuantizationAnnotation)) throw new E.TypeError('annotate(): expected a pt.QuantizationAnnotation');
    for (const [input, spec] of a.input_qspec_map) pt.annotate_input_qspec_map(this, node, input, spec);
    if (a.output_qspec) pt.annotate_output_qspec(this, node, a.output_qspec);
    call(M.set_annotation_flags, this.handle, nodeName(node), { _annotated: a._annotated, allow_implicit_sharing: a.allow_implicit_sharing });
  };
  // The observer (or fake-quantize) object behind an observer node of a prepared graph.
  pt.GraphModule.prototype.observer = function observer(node) { return pt.wrapObserver(call(M.observer_of, this.handle, nodeName(node))); };
  pt.GraphModule.prototype.annotation = function annotation(node) { return call(M.get_node_annotation, this.handle, nodeName(node)); };

  pt.get_symmetric_quantization_config = (opts = {}) => call(M.get_symmetric_quantization_config, opts);
  pt.get_default_x86_inductor_quantization_config = ({ is_qat = false, is_dynamic = false, reduce_range = false } = {}) =>
    call(M.get_default_x86_inductor_quantization_config, !!is_qat, !!is_dynamic, !!reduce_range);

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
  class BackendQuantizer extends Quantizer {
    constructor(type) {
      super();
      this.type = type;
      this.global_config = null;
      this.operator_type_config = [];
      this.module_type_config = [];
      this.module_name_config = [];
    }
    set_global(config) { this.global_config = config; return this; }
    set_operator_type(op, config) { this.operator_type_config.push([op, config]); return this; }
    set_module_type(type, config) { this.module_type_config.push([type, config]); return this; }
    set_module_name(name, config) { this.module_name_config.push([name, config]); return this; }
    describe() {
      return { type: this.type, name: this.constructor.name, global: this.global_config, operator_type: this.operator_type_config,
        module_type: this.module_type_config, module_name: this.module_name_config };
    }
    annotate(gm) { call(M.annotate, pt.gmArg('annotate', gm), this.describe()); return gm; }
  }
  class XNNPACKQuantizer extends BackendQuantizer { constructor() { super('XNNPACKQuantizer'); } }
  class ExecuTorchXNNPACKQuantizer extends BackendQuantizer {
    constructor() { super('executorch.XNNPACKQuantizer'); }
    static get name() { return 'XNNPACKQuantizer'; }
  }
  class X86InductorQuantizer extends BackendQuantizer {
    constructor() { super('X86InductorQuantizer'); this.function_type_config = []; }
    set_module_name_qconfig(name, config) { return this.set_module_name(name, config); }
    set_module_type_qconfig(type, config) { return this.set_module_type(type, config); }
    set_function_type_qconfig(fn, config) { this.function_type_config.push([fn, config]); return this; }
    describe() { return { ...super.describe(), function_type: this.function_type_config }; }
  }
  class ComposableQuantizer extends Quantizer {
    constructor(quantizers) {
      super();
      if (!Array.isArray(quantizers) || !quantizers.every((q) => q instanceof Quantizer)) {
        throw new E.TypeError('ComposableQuantizer(): expected an array of quantizers');
      }
      this.quantizers = quantizers;
    }
    describe() { return { type: 'ComposableQuantizer', name: 'ComposableQuantizer', quantizers: this.quantizers.map((q) => q.describe()) }; }
    annotate(gm) { call(M.annotate, pt.gmArg('annotate', gm), this.describe()); return gm; }
  }
  Object.assign(pt, { Quantizer, XNNPACKQuantizer, X86InductorQuantizer, ComposableQuantizer });
  pt.executorch = { XNNPACKQuantizer: ExecuTorchXNNPACKQuantizer, get_symmetric_quantization_config: pt.get_symmetric_quantization_config };

  const quantizerArg = (fn, q) => {
    if (!(q instanceof Quantizer)) throw new E.TypeError(`${fn}(): argument 'quantizer' must be a pt.Quantizer`);
    return q.describe();
  };
  pt.prepare_pt2e = (gm, quantizer) => pt.wrapGraphModule(call(M.prepare, pt.gmArg('prepare_pt2e', gm), quantizerArg('prepare_pt2e', quantizer), false));
  pt.convert_pt2e = (model, use_reference_representation = false, fold_quantize = true) =>
    pt.wrapGraphModule(call(M.convert, pt.gmArg('convert_pt2e', model), !!use_reference_representation, !!fold_quantize));
  // prepare_qat_pt2e: annotate, then _fuse_conv_bn_qat (conv -> bn becomes conv(x, w*sf) / sf -> bn in
  // training mode, so the weight fake quant sees the BN-scaled weight), then fake quants.
  pt.prepare_qat_pt2e = (gm, quantizer) => pt.wrapGraphModule(call(M.prepare, pt.gmArg('prepare_qat_pt2e', gm), quantizerArg('prepare_qat_pt2e', quantizer), true));
  // torchao.quantization.pt2e.move_exported_model_to_train / _eval: model.train() / .eval() for an
  // exported graph (batch norms use batch statistics and update their running stats, or use them).
  // In place and idempotent; returns the same GraphModule, as torchao does.
  pt.move_exported_model_to_train = (gm) => { call(M.move_exported_model_to_train, pt.gmArg('move_exported_model_to_train', gm)); return gm; };
  pt.move_exported_model_to_eval = (gm) => { call(M.move_exported_model_to_eval, pt.gmArg('move_exported_model_to_eval', gm)); return gm; };
}
