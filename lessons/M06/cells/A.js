// A. Train TinyConvNet (ten classes) in float on the synthetic image set; the charts grow as it trains.
pt.manual_seed(0);
state.train = pt.synthetic_images('train', 1024);                   // 10 classes, noise 0.3
state.test = new pt.DataLoader(pt.synthetic_images('test', 256), { batch_size: 256 }).epoch();
state.gm = pt.export(pt.get_model('tiny', { num_classes: 10 }), [pt.randn([2, 3, 16, 16])]);
pt.move_exported_model_to_train(state.gm);
const loader = new pt.DataLoader(state.train, { batch_size: 32, shuffle: true });
const curves = { loss: [], steps: [], accuracy: [], marks: [{ x: 100, label: 'lr 0.01' }] };
const loss_chart = show.view('line', kit.loss_view(t('float_loss'), curves));
const accuracy_chart = show.view('line', kit.accuracy_view(t('float_accuracy'), curves));
for (const [steps, lr] of [[100, 0.1], [20, 0.01]]) {                 // then a tenth of the rate, to settle
  const loop = new pt.TrainLoop(state.gm, new pt.optim.SGD(state.gm.parameters(), { lr, momentum: 0.9 }), { loader });
  for (let k = 0; k < steps; k += 10) {
    curves.loss.push(...loop.run(10));                               // ten SGD steps: forward, loss, backward, step
    curves.steps.push(curves.loss.length);
    curves.accuracy.push(kit.accuracy(state.gm, state.test));
    loss_chart.update(kit.loss_view(t('float_loss'), curves));
    accuracy_chart.update(kit.accuracy_view(t('float_accuracy'), curves));
  }
}
pt.move_exported_model_to_eval(state.gm);
state.float_accuracy = curves.accuracy.at(-1);
reveal(state.float_accuracy);
check(state.float_accuracy >= 90, t('float_goal', { accuracy: state.float_accuracy.toFixed(1) }));
check(curves.loss.slice(-10).reduce((a, b) => a + b) < curves.loss.slice(0, 10).reduce((a, b) => a + b) / 4, t('loss_falls'));
