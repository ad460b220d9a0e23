// D. QAT: train the fake-quantized model (a low learning rate: it starts from the trained weights). After step 20
// the batch norms' statistics are frozen; after step 30 the observers stop, so the scales stay put while the weights settle.
pt.move_exported_model_to_train(state.prepared);
const loop = new pt.TrainLoop(state.prepared, new pt.optim.SGD(state.prepared.parameters(), { lr: 0.01, momentum: 0.9 }),
  { loader: new pt.DataLoader(state.train, { batch_size: 32, shuffle: true, seed: 1 }) });
const curves = { loss: [], steps: [], accuracy: [], marks: [{ x: 20, label: 'freeze_bn_stats' }, { x: 30, label: 'disable_observer' }] };
const loss_chart = show.view('line', kit.loss_view(t('qat_loss'), curves));
const accuracy_chart = show.view('line', kit.accuracy_view(t('qat_accuracy'), curves));
const bn = () => state.prepared.state_dict().find((e) => /running_mean/.test(e.name)).tensor.data().slice();
const scales = () => { const s = []; state.prepared.apply((m) => s.push(...m.scale.data())); return s; };
const at = {};
for (let step = 10; step <= 40; step += 10) {
  curves.loss.push(...loop.run(10));
  if (step === 20) { pt.freeze_bn_stats(state.prepared); at.frozen = bn(); }
  if (step === 30) { state.prepared.apply(pt.disable_observer); at.stopped = scales(); }
  curves.steps.push(step);
  curves.accuracy.push(kit.converted_accuracy(state.prepared, state.test));
  loss_chart.update(kit.loss_view(t('qat_loss'), curves));
  accuracy_chart.update(kit.accuracy_view(t('qat_accuracy'), curves));
}
check(bn().every((v, i) => v === at.frozen[i]), t('bn_frozen'));
check(scales().every((v, i) => v === at.stopped[i]), t('scales_stopped'));
