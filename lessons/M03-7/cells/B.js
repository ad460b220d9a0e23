// B. Two X86 configs: the default (uint8 activations on [0, 255]) and reduce_range ([0, 127]).
// Which config does each linear of the MLP get, for a few combinations of setters?
const def = state.x86Cfg, rr = pt.get_default_x86_inductor_quantization_config({ reduce_range: true });
const name = (c) => (c.input_activation.quant_max === def.input_activation.quant_max ? 'default' : 'reduce_range');
const setups = [
  ['set_global(reduce_range)', () => new pt.X86InductorQuantizer().set_global(rr)],
  ["+ set_function_type_qconfig(F.linear, default)", () => new pt.X86InductorQuantizer().set_global(rr).set_function_type_qconfig('torch.nn.functional.linear', def)],
  ["+ set_module_name_qconfig('fc2', reduce_range)", () => new pt.X86InductorQuantizer().set_global(rr).set_function_type_qconfig('torch.nn.functional.linear', def).set_module_name_qconfig('fc2', rr)],
  ["+ set_module_name_qconfig('fc1', None)", () => new pt.X86InductorQuantizer().set_global(rr).set_function_type_qconfig('torch.nn.functional.linear', def).set_module_name_qconfig('fc2', rr).set_module_name_qconfig('fc1', null)],
];
const seen = [];
const rows = setups.map(([label, make]) => {
  const p = pt.prepare_pt2e(kit.export_zoo('mlp'), make());
  const per = {};
  for (const n of p.nodes.filter((x) => kit.is_op(x, 'linear'))) {
    const fqn = n.meta.nn_module_stack.at(-1).fqn, s = p.annotation(n)?.input_qspec_map?.[0]?.[1] ?? null;
    per[fqn] = s ? name({ input_activation: s }) : 'fp32';
  }
  seen.push(per);
  return [label, per.fc1, per.fc2];
});
show.table(['X86InductorQuantizer()', 'fc1', 'fc2'], rows);
check(seen[0].fc1 === 'reduce_range' && seen[0].fc2 === 'reduce_range', t('global_only_both_layers'));
check(seen[1].fc1 === 'default' && seen[1].fc2 === 'default', t('an_operator_type_config'));
check(seen[2].fc2 === 'reduce_range' && seen[2].fc1 === 'default', t('a_module_name_config'));
check(seen[3].fc1 === 'fp32' && seen[3].fc2 === seen[2].fc2, t('a_none_config_keeps'));
