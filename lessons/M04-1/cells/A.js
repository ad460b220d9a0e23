// A. TinyConvNet (four conv → bn) with statistics of its own; fold_bn folds every BN, and prepare_pt2e does the same
// before it places observers. Op counts, then the outputs on a batch of the image set, before and after.
pt.manual_seed(0);
const model = pt.get_model('tiny');                              // four conv(bias=False) → bn, a residual add, linear
const batches = pt.calibration_batches({ n: 64, batch_size: 16 });
const gm = pt.export(model, [batches[0].x]);
kit.set_bn_statistics(gm);
const folded = gm.clone();
pt.fold_bn(folded);                                              // torchao's _fuse_conv_bn_
const prepared = pt.prepare_pt2e(gm, kit.get_xnnpack_quantizer({ is_per_channel: true }));
kit.table(pt.diff_ops(gm, folded), 'export', 'fold_bn');
kit.table(pt.diff_ops(folded, prepared), 'fold_bn', 'prepare_pt2e');

const x = batches[1].x, y = gm.forward(x).data(), size = Math.max(...y.map(Math.abs));
const diffs = { fold_bn: kit.max_abs_diff(y, folded.forward(x).data()), prepare_pt2e: kit.max_abs_diff(y, prepared.forward(x).data()) };
show.table([t('graph'), t('max_abs_diff'), t('relative')], Object.entries(diffs).map(([k, d]) => [k, d.toExponential(2), (d / size).toExponential(2)]));
const w = kit.state_dict(gm), wf = kit.state_dict(folded);
const moved = Math.max(...['conv1', 'conv2', 'conv3', 'conv4'].map((c) => kit.max_abs_diff(w[`${c}.weight`], wf[`${c}.weight`]) / Math.max(...w[`${c}.weight`].map(Math.abs))));
Object.assign(state, { gm, prepared, x, y });

const bn = (g) => pt.count_ops(g).batch_norm ?? 0;
check(bn(gm) === 4 && bn(folded) === 0 && bn(prepared) === 0 && pt.count_ops(folded).conv2d === pt.count_ops(gm).conv2d, t('four_gone'));
check(pt.observer_nodes(folded).length === 0 && pt.observer_nodes(prepared).length > 0, t('observers_after_fold'));
check(moved > 0.1, t('weights_moved', { moved: (100 * moved).toFixed(0) }));
check(Object.values(diffs).every((d) => d <= 1e-5 * size), t('same_outputs'));
reveal(Math.max(...Object.values(diffs)) === 0 ? 'zero' : Math.max(...Object.values(diffs)) <= 1e-5 * size ? 'rounding' : 'visible');
