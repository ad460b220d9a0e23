// A. Train TinyConvNet for a few steps, quantize it (X86InductorQuantizer), and ask torchao's numeric debugger
// how far each node's output drifts from the float model's, on images it was never trained on.
pt.manual_seed(0);
const batches = pt.calibration_batches({ n: 256, batch_size: 32 });        // 4 classes, 8 batches
const held = pt.calibration_batches({ n: 288, batch_size: 32 }).at(-1);    // samples 256..287: held out
state.gm = kit.export_zoo('tiny');
pt.move_exported_model_to_train(state.gm);
new pt.TrainLoop(state.gm, new pt.optim.SGD(state.gm.parameters(), { lr: 0.05, momentum: 0.9 }), { batches }).run(24);
pt.move_exported_model_to_eval(state.gm);
const accuracy = pt.evaluate_accuracy(state.gm, [held]);
state.data = { calibration: batches.slice(0, 2).map((b) => b.x), inputs: held.x };
state.quantizer_for = (keep_float) => keep_float.reduce((q, layer) => q.set_module_name_qconfig(layer, null),
  new pt.X86InductorQuantizer().set_global(pt.get_default_x86_inductor_quantization_config()));

pt.generate_numeric_debug_handle(state.gm);                  // meta.custom.numeric_debug_handle on every op
const float_model = state.gm.clone();
pt.fold_bn(float_model);                                     // the reference, with BN folded as prepare folds it
const converted = pt.convert_pt2e(kit.calibrate(pt.prepare_pt2e(state.gm, state.quantizer_for([])), state.data.calibration));
const ref = pt.prepare_for_propagation_comparison(float_model), act = pt.prepare_for_propagation_comparison(converted);
ref.forward(held.x);
act.forward(held.x);
const cmp = pt.compare_results(pt.extract_results_from_loggers(ref), pt.extract_results_from_loggers(act));
show.view('graph', { title: t('graph_title'), ...converted.graph_view(), show_params: false,
  metric: { name: 'SQNR', unit: 'dB', values: pt.sqnr_by_node(converted, cmp) } });
const ops = [...cmp.values()].sort((a, b) => a.handle - b.handle);
show.table(['handle', t('node'), 'SQNR (dB)'], ops.map((s) => [s.handle, s.ref_node_name, s.results[0].sqnr.toFixed(2)]));
const last = ops.at(-1).results[0].sqnr;
const lowest = ops.reduce((k, s, i) => (s.results[0].sqnr < ops[k].results[0].sqnr ? i : k), 0);
reveal(['start', 'middle', 'end'][Math.min(2, Math.floor((3 * lowest) / ops.length))]);
check(accuracy >= 90, t('trained', { accuracy: accuracy.toFixed(1) }));
state.model_sqnr = pt.sqnr(converted.forward(held.x), float_model.forward(held.x));   // compute_sqnr(actual, ref)
check(Math.abs(state.model_sqnr - last) < 1e-3, t('last_is_output', { sqnr: last.toFixed(2) }));
