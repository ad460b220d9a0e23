// qat.js — the switches of torchao's QAT flow on a prepared model, with torchao's names:
//   const prepared = pt.prepare_qat_pt2e(exported, quantizer);   // fake quantizes (pt2e.js)
//   pt.move_exported_model_to_train(prepared);
//   ... train (train.js: pt.TrainLoop) ...
//   prepared.apply(pt.disable_observer);     // prepared_model.apply(torchao.quantization.pt2e.disable_observer)
//   pt.freeze_bn_stats(prepared);            // the QAT tutorial's "Freezing BN": batch norms keep their statistics
//   pt.move_exported_model_to_eval(prepared); const quantized = pt.convert_pt2e(prepared);
// gm.apply(fn) is nn.Module.apply over the observer / fake-quantize modules prepare_pt2e inserted: fn gets each
// distinct instance once (the object gm.observer(node) gives; like it, freed with the enclosing pt.scope). disable_observer / enable_observer /
// disable_fake_quant / enable_fake_quant switch a fake quantize and leave any other module alone, as
// torchao's do (engine/pt2e/qat_flow.h). freeze_bn_stats sets every batch norm's `training` argument to False
// (the flag move_exported_model_to_eval sets; the engine's graphs have no dropout, so nothing else differs);
// in place, returns the model.
export function installQat(pt, M, tools) {
  const { call } = tools;
  const E = pt.errors;
  pt.GraphModule.prototype.apply = function apply(fn) {
    if (typeof fn !== 'function') throw new E.TypeError('apply(): argument \'fn\' must be a function');
    for (const h of call((g) => M.observer_instances(g), this.handle)) fn(pt.wrapObserver(h));
    return this;
  };
  const onFakeQuantize = (method) => (mod) => {
    if (mod instanceof pt.FakeQuantizeBase) mod[method]();
  };
  pt.disable_observer = onFakeQuantize('disable_observer');
  pt.enable_observer = onFakeQuantize('enable_observer');
  pt.disable_fake_quant = onFakeQuantize('disable_fake_quant');
  pt.enable_fake_quant = onFakeQuantize('enable_fake_quant');
  pt.freeze_bn_stats = (gm) => { call(M.freeze_bn_stats, pt.gmArg('freeze_bn_stats', gm)); return gm; };
}
