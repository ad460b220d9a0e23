// A. Two XNNPACKQuantizers on the same model: torchao's test copy (M01–M03) and ExecuTorch's, which the XNNPACK
// delegate ships with. Each converted graph is lowered for XNNPACK; the tables list what stayed float and why.
pt.manual_seed(0);
const gm = kit.export_zoo('cat_pool');                    // two conv → relu branches, cat, max_pool2d, conv, + mean
const [calibration, held] = [pt.calibration_batches({ n: 64, batch_size: 32 }), pt.calibration_batches({ n: 96, batch_size: 32 }).at(-1).x];
const quantizers = {
  torchao: new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true })),
  executorch: new pt.executorch.XNNPACKQuantizer().set_global(pt.executorch.get_symmetric_quantization_config({ is_per_channel: true })),
};
const lowered = {}, converted = {};
for (const [name, q] of Object.entries(quantizers)) {
  converted[name] = pt.convert_pt2e(kit.calibrate(pt.prepare_pt2e(gm, q), calibration));
  lowered[name] = pt.to_edge_transform_and_lower(converted[name], { partitioner: [new pt.XnnpackPartitioner()] });
  const floatOps = lowered[name].delegation_info.nodes.filter((n) => !n.delegated && n.reason && !/boundary/.test(n.reason));
  show.table([name, t('stays_float_because')], floatOps.map((n) => [n.name, n.reason]));
}
Object.assign(state, { gm, held, converted: converted.executorch, lowered: lowered.executorch.exported_program() });

const delegatedOps = (info) => new Set(info.nodes.filter((n) => n.delegated && !/quantize/.test(n.target)).map((n) => n.target.split('.')[1]));
const [ao, et] = [delegatedOps(lowered.torchao.delegation_info), delegatedOps(lowered.executorch.delegation_info)];
const gained = [...et].filter((op) => !ao.has(op)).sort();
check(gained.includes('cat') && gained.includes('max_pool2d'), t('cat_pool_gained'));
check([...ao].every((op) => et.has(op)), t('nothing_lost'));
check(pt.count_ops(converted.executorch).quantize_per_tensor > pt.count_ops(converted.torchao).quantize_per_tensor, t('more_quantize'));
reveal(gained.join(',') === 'cat,max_pool2d' ? 'cat_pool' : gained.length ? 'other' : 'none');
