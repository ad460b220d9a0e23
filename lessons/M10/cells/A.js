// A. The VPU's rules written as a quantizer: VPUQuantizer on the residual block, prepared and calibrated.
pt.manual_seed(0);
state.opName = (n) => (n?.kind === 'op' ? String(n.target).split('.')[1] : null);   // 'aten.relu.default' -> 'relu'
state.vpu = () => new pt.VPUQuantizer().set_global(pt.get_vpu_quantization_config());
// Calibration inputs: the image set for the 3-channel image models, randn of the input shape for residual and mlp.
state.calibration = pt.calibration_batches({ n: 64, batch_size: 16 });
state.inputs = (name, count) => {
  const shape = pt.get_model(name).input_shape;
  return shape.join() === '3,16,16' ? state.calibration.slice(0, count).map((b) => b.x) : Array.from({ length: count }, () => pt.randn([16, ...shape]));
};
state.vpuConverted = (name) => {
  const prepared = pt.prepare_pt2e(kit.export_zoo(name), state.vpu());
  kit.calibrate(prepared, state.inputs(name, 4));
  return pt.convert_pt2e(prepared);
};
const prepared = pt.prepare_pt2e(kit.export_zoo('residual'), state.vpu());
kit.calibrate(prepared, state.inputs('residual', 4));
const placement = kit.table(pt.observer_placement_table(prepared));
// Which observers do the add's two inputs (the conv's output and the block's input x) read? One instance may sit
// behind several observer nodes, so compare the instances, not the node names.
const byName = Object.fromEntries(prepared.nodes.map((n) => [n.name, n]));
const add = prepared.nodes.find((n) => kit.is_op(n, 'add'));
const inputs = add.args.map((a) => a.node).filter((n) => byName[n]?.kind === 'observer');
const distinct = prepared.observer(inputs[0]).is(prepared.observer(inputs[1])) ? 1 : 2;
reveal(String(distinct));
const output = byName[byName[add.users[0]].users[0]];   // after the fused relu: the model's output, Q3.12
show.text(t('add_observers', { names: inputs.join(', '), distinct, out: prepared.observer(output.name).config.type }));
const types = new Set(placement.rows.map((r) => r[1]));
check([...types].every((ty) => ['PowerOfTwoMinMaxObserver', 'FixedQParamsObserver', 'DerivedObserverOrFakeQuantize'].includes(ty)),
  t('only_vpu_observers', { types: [...types].join(', ') }));
check(distinct === 1, t('add_one_observer', { distinct }));
