// C. Forgot .eval()? The same stem with its batch norm in training mode (move_exported_model_to_train on a copy
// of the exported graph: batch_norm(training=True)), prepared with the same quantizer beside the eval graph.
const { gm } = state;
const trainGm = pt.move_exported_model_to_train(gm.clone());
const bnTraining = (g) => g.nodes.filter((n) => n.target === 'aten.batch_norm.default').map((n) => n.args[5]);
const prep = (g) => pt.prepare_pt2e(g, kit.get_xnnpack_quantizer({ is_per_channel: true }));
const prepared = prep(gm), preparedTrain = prep(trainGm);
const rows = (g) => pt.observer_placement_table(g).rows;
show.table([t('graph'), t('bn_training'), 'batch_norm', t('observers')], [
  ['eval', String(bnTraining(gm)), pt.count_ops(prepared).batch_norm ?? 0, rows(prepared).length],
  ['train', String(bnTraining(trainGm)), pt.count_ops(preparedTrain).batch_norm ?? 0, rows(preparedTrain).length],
]);
const w = (g) => Array.from(g.state_dict().find((e) => e.name === 'conv.weight').tensor.data());
check(bnTraining(trainGm).join() === 'true' && (pt.count_ops(preparedTrain).batch_norm ?? 0) === 0, t('train_bn_folded'));
check(JSON.stringify(rows(preparedTrain)) === JSON.stringify(rows(prepared)) && JSON.stringify(w(preparedTrain)) === JSON.stringify(w(prepared)), t('train_same_as_eval'));
check(preparedTrain.node('conv2d').users.join() === 'relu', t('train_fusion_kept'));
