// B. Train the QAT graph four steps on the image set (SGD). In train mode every batch_norm normalizes with its batch's
// statistics and moves its running mean / var toward them (momentum 0.1); in eval mode a forward leaves them alone.
const { qat, batches } = state;
pt.move_exported_model_to_train(qat);
const opt = new pt.optim.SGD(qat.parameters(), { lr: 0.01, momentum: 0.9 });
const loop = new pt.TrainLoop(qat, opt, { batches });
const history = [kit.state_dict(qat)];
for (let step = 0; step < 4; step++) { loop.run(1); history.push(kit.state_dict(qat)); }
show.view('line', { title: t('running_mean'), series: [0, 1, 2, 3].map((c) => ({ name: `bn1.running_mean[${c}]`, y: history.map((h) => h['bn1.running_mean'][c]) })), x_label: 'step', y_label: 'running mean' });
const stats = ['bn1', 'bn2', 'bn3', 'bn4'].flatMap((b) => [`${b}.running_mean`, `${b}.running_var`]);
show.table([t('buffer'), t('moved')], stats.map((k) => [k, kit.max_abs_diff(history[0][k], history[4][k]).toExponential(2)]));
pt.move_exported_model_to_eval(qat);
qat.forward(batches[3].x);
const afterEval = kit.state_dict(qat);

check(history.slice(1).every((h, s) => stats.every((k) => kit.max_abs_diff(h[k], history[s][k]) > 0)), t('every_step_moves'));
check(kit.max_abs_diff(history[4]['conv1.weight'], history[0]['conv1.weight']) > 0, t('weights_train'));
check(stats.every((k) => kit.max_abs_diff(afterEval[k], history[4][k]) === 0), t('eval_keeps'));
