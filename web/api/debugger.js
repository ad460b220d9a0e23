// debugger.js — torchao's numeric debugger and lesson M05's layer experiments, with torchao's names:
//   pt.generate_numeric_debug_handle(exported);                  // node.meta.custom.numeric_debug_handle, in place
//   const ref = pt.prepare_for_propagation_comparison(floatModel); ref.forward(x);
//   const act = pt.prepare_for_propagation_comparison(converted);  act.forward(x);
//   const cmp = pt.compare_results(pt.extract_results_from_loggers(ref), pt.extract_results_from_loggers(act));
//   for (const [handle, s] of cmp) s.ref_node_name, s.results[0].sqnr, s.results[0].mse_loss;
//   show.view('graph', { ...converted.graph_view(), metric: { name: 'SQNR', unit: 'dB', values: pt.sqnr_by_node(converted, cmp) } });
// M05, on top (engine/pt2e/layer_sensitivity.h):
//   const quantizerFor = (keep_float) => keep_float.reduce((q, layer) => q.set_module_name_qconfig(layer, null),
//     new pt.X86InductorQuantizer().set_global(pt.get_default_x86_inductor_quantization_config()));
//   const data = { calibration: [x1, x2], inputs: x };           // calibration batches; what models are compared on
//   const c = pt.quantize_and_compare(exported, quantizerFor([]), data);  // { model_sqnr, nodes, reference, quantized }
//   const alone = pt.quantize_one_layer_alone(exported, quantizerFor, pt.layer_names(exported), data);
//   const kept = pt.keep_one_layer_float(exported, quantizerFor, pt.layer_names(exported), data);
//   const curve = pt.sqnr_vs_layers_kept_float(exported, quantizerFor, pt.rank_by_sensitivity(alone), data);
// Handles are carried by prepare / convert in meta.custom (an op's to its output observer, an observer's to its
// q / dq nodes), so after convert the op and the q / dq of its output match back to the node they came from;
// compare against the float model with batch norms folded (pt.fold_bn on a clone), as prepare folds them.
// extract_results_from_loggers returns a Map handle -> { node_name, nn_module_stack, stats: [Tensor] } (torchao:
// the tuple (node_name, nn_module_stack, stats)); compare_results a Map handle -> NodeAccuracySummary
// { handle, actual_node_name, actual_module_stack, ref_node_name, ref_module_stack, results: [{ sqnr, mse_loss }] }
// with compute_sqnr(actual, ref) in dB (Infinity when equal) and F.mse_loss(actual, ref), one result per forward.
// A quantizer maker gets the layers to keep in float and returns a pt.Quantizer that skips them, with a None
// config where the backend supports it (X86InductorQuantizer.set_module_name_qconfig(name, null)).
export function installDebugger(pt, M, tools) {
  const { call } = tools;
  const E = pt.errors;
  const T = (h) => pt.Tensor.fromHandle(h);
  const gmArg = pt.gmArg;
  const byHandle = (list) => new Map(list.map((e) => [e.handle, e]));

  pt.NUMERIC_DEBUG_HANDLE_KEY = 'numeric_debug_handle';
  pt.CUSTOM_KEY = 'custom';
  pt.generate_numeric_debug_handle = (gm) => { call(M.generate_numeric_debug_handle, gmArg('generate_numeric_debug_handle', gm)); };
  pt.prepare_for_propagation_comparison = (gm) =>
    pt.wrapGraphModule(call(M.prepare_for_propagation_comparison, gmArg('prepare_for_propagation_comparison', gm)));
  pt.extract_results_from_loggers = (gm) => new Map(call(M.extract_results_from_loggers, gmArg('extract_results_from_loggers', gm))
    .map(({ handle, node_name, nn_module_stack, stats }) => [handle, { node_name, nn_module_stack, stats: stats.map(T) }]));
  const resultsArg = (arg, m) => {
    if (!(m instanceof Map)) throw new E.TypeError(`compare_results(): argument '${arg}' must be what extract_results_from_loggers returns (a Map)`);
    return [...m].map(([handle, r]) => {
      if (!Number.isInteger(handle) || !Array.isArray(r?.stats) || !r.stats.every((t) => t instanceof pt.Tensor)) {
        throw new E.TypeError(`compare_results(): ${arg} entry ${handle} is not { node_name, nn_module_stack, stats: [Tensor] }`);
      }
      return { handle, node_name: String(r.node_name ?? ''), nn_module_stack: r.nn_module_stack ?? [], stats: r.stats.map((t) => t.handle) };
    });
  };
  pt.compare_results = (ref_results, actual_results) =>
    byHandle(call(M.compare_results, resultsArg('ref_results', ref_results), resultsArg('actual_results', actual_results)));

  // { node name: SQNR } of the first result of each node of gm whose handle was compared: an op and the q / dq
  // convert made of it share a handle, so they share a colour. Exact nodes (SQNR Infinity) are left out: the
  // graph view's metric (its colour scale, web/views/graph_metric.h) takes finite values.
  pt.sqnr_by_node = (gm, comparison) => {
    if (!(comparison instanceof Map)) throw new E.TypeError('sqnr_by_node(): expected what compare_results returns (a Map)');
    pt.gmArg('sqnr_by_node', gm);
    const out = {};
    for (const n of gm.nodes) {
      const s = comparison.get(n.meta?.custom?.[pt.NUMERIC_DEBUG_HANDLE_KEY])?.results?.[0]?.sqnr;
      if (Number.isFinite(s)) out[n.name] = s;
    }
    return out;
  };

  // ---- M05 ----
  const quantizerArg = (fn, q) => {
    if (!(q instanceof pt.Quantizer)) throw new E.TypeError(`${fn}(): expected a pt.Quantizer`);
    return q.describe();
  };
  const dataArg = (fn, d) => {
    if (!Array.isArray(d?.calibration) || !d.calibration.every((t) => t instanceof pt.Tensor) || !(d?.inputs instanceof pt.Tensor)) {
      throw new E.TypeError(`${fn}(): data must be { calibration: [Tensor], inputs: Tensor }`);
    }
    return { calibration: d.calibration.map((t) => t.handle), inputs: d.inputs.handle };
  };
  const layersArg = (fn, layers) => {
    if (!Array.isArray(layers) || !layers.every((l) => typeof l === 'string')) throw new E.TypeError(`${fn}(): layers must be an array of layer names`);
    return layers;
  };
  const makerArg = (fn, f) => {
    if (typeof f !== 'function') throw new E.TypeError(`${fn}(): quantizer_for must be a function (keep_float: string[]) => pt.Quantizer`);
    return (keep) => quantizerArg(`${fn}(): quantizer_for`, f(keep));
  };

  pt.layer_names = (gm) => call(M.layer_names, gmArg('layer_names', gm));
  pt.quantize_and_compare = (gm, quantizer, data) => {
    const r = call(M.quantize_and_compare, gmArg('quantize_and_compare', gm), quantizerArg('quantize_and_compare', quantizer),
      dataArg('quantize_and_compare', data));
    return { model_sqnr: r.model_sqnr, nodes: byHandle(r.nodes), reference: pt.wrapGraphModule(r.reference), quantized: pt.wrapGraphModule(r.quantized) };
  };
  for (const kind of ['quantize_one_layer_alone', 'keep_one_layer_float', 'sqnr_vs_layers_kept_float']) {
    pt[kind] = { [kind]: (gm, quantizer_for, layers, data) => call(M.layer_experiment, kind, gmArg(kind, gm),
      makerArg(kind, quantizer_for), layersArg(kind, layers), dataArg(kind, data)) }[kind];
  }
  pt.rank_by_sensitivity = (quantize_alone) => {
    if (!Array.isArray(quantize_alone) || !pt.check.list('rank_by_sensitivity', quantize_alone, 'quantize_alone').every((p) => typeof p?.layer === 'string' && typeof p?.model_sqnr === 'number')) {
      throw new E.TypeError('rank_by_sensitivity(): expected what quantize_one_layer_alone returns');
    }
    return call(M.rank_by_sensitivity, quantize_alone);
  };
}
