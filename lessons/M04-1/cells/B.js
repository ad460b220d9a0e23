// B. The same network exported in train mode (move_exported_model_to_train on a copy: every batch_norm has
// training=True and normalizes with the batch's own statistics), prepared with the same quantizer.
const { gm, prepared, x, y } = state;
const trainGm = pt.move_exported_model_to_train(gm.clone());
const preparedTrain = pt.prepare_pt2e(trainGm, kit.get_xnnpack_quantizer({ is_per_channel: true }));
const flags = trainGm.nodes.filter((n) => kit.is_op(n, 'batch_norm')).map((n) => n.args[5]);
const yTrain = trainGm.forward(x).data(), yPrepared = preparedTrain.forward(x).data(), size = Math.max(...y.map(Math.abs));
const toEval = kit.max_abs_diff(yPrepared, y), toTrain = kit.max_abs_diff(yPrepared, yTrain);
show.table([t('graph'), 'batch_norm', t('vs_eval'), t('vs_train')], [
  [t('train_export'), pt.count_ops(trainGm).batch_norm, kit.max_abs_diff(yTrain, y).toExponential(2), '—'],
  [t('train_prepared'), pt.count_ops(preparedTrain).batch_norm ?? 0, toEval.toExponential(2), toTrain.toExponential(2)]]);
const w = (g) => kit.state_dict(g)['conv1.weight'];

check(flags.length === 4 && flags.every((f) => f === true) && (pt.count_ops(preparedTrain).batch_norm ?? 0) === 0, t('train_folded'));
check(kit.max_abs_diff(w(preparedTrain), w(prepared)) === 0 && toEval <= 1e-5 * size, t('eval_semantics'));
check(kit.max_abs_diff(yTrain, y) > 1e-2 * size, t('batch_stats_differ'));
reveal(toEval < toTrain ? 'eval' : 'train');
