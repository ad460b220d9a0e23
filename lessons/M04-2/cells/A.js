// A. TinyConvNet prepared for PTQ and for QAT with the same XNNPACK config (is_qat: fake quantizes instead of observers).
// Walking back from each batch_norm of the QAT graph: batch_norm(div(conv2d(x, fake_quant(mul(w, scale))), scale)).
pt.manual_seed(0);
const model = pt.get_model('tiny');                              // four conv(bias=False) → bn
const batches = pt.calibration_batches({ n: 64, batch_size: 16 });
const gm = pt.export(model, [batches[0].x]);
kit.set_bn_statistics(gm);
const ptq = pt.prepare_pt2e(gm, kit.get_xnnpack_quantizer({ is_per_channel: true }));
const qat = pt.prepare_qat_pt2e(gm, kit.get_xnnpack_quantizer({ is_per_channel: true, is_qat: true }));
const arg = (n, i) => qat.node(n.args[i].node);
const chains = qat.nodes.filter((n) => kit.is_op(n, 'batch_norm')).map((bn) => {
  const div = arg(bn, 0), conv = arg(div, 0), fq = arg(conv, 1), mul = arg(fq, 0);
  return { bn, div, conv, fq, mul, w: arg(mul, 0), scale: [arg(arg(mul, 1), 0), arg(arg(div, 1), 0)] };
});
show.table(['weight', '× scale', 'fake quant', 'conv', '÷ scale', 'batch_norm', 'training'],
  chains.map((c) => [c.w.target, c.mul.name, c.fq.name, c.conv.name, c.div.name, c.bn.name, String(c.bn.args[5])]));
const first = chains[0], ptqConv = ptq.nodes.find((n) => kit.is_op(n, 'conv2d'));   // conv1 in each graph
kit.draw_stages(t('stages'), [[ptq, 'prepare_pt2e'], [qat, 'prepare_qat_pt2e']], { focus: [ptqConv.name, ...['mul', 'fq', 'conv', 'div', 'bn'].map((k) => first[k].name)] });
Object.assign(state, { qat, batches, chains });

const bn = (g) => pt.count_ops(g).batch_norm ?? 0;
check(bn(ptq) === 0 && bn(qat) === pt.count_ops(qat).conv2d, t('ptq_folds_qat_keeps'));
check(chains.every((c) => kit.is_op(c.div, 'div') && kit.is_op(c.conv, 'conv2d') && c.fq.kind === 'observer' && kit.is_op(c.mul, 'mul') && c.w.op === 'get_attr'), t('chain'));
check(chains.every((c) => c.scale[0].name === c.scale[1].name && kit.is_op(c.scale[0], 'div')), t('one_scale'));
check(chains.every((c) => c.bn.args[5] === true && c.conv.args[2] === null), t('training_true'));
reveal(bn(qat));
