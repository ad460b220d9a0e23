// C. Three settings that look reasonable. Does each change anything?
const opt = (f) => { try { return { p: pt.prepare_pt2e(kit.export_zoo('mlp'), f()) }; } catch (e) { return { err: `${e.name}: ${e.message}` }; } };
const cases = [
  ["torchao XNNPACKQuantizer().set_operator_type('aten.linear.default', cfg)", () => new pt.XNNPACKQuantizer().set_operator_type('aten.linear.default', state.xnnCfg)],
  ["executorch XNNPACKQuantizer().set_operator_type('aten.linear.default', cfg)", () => new pt.executorch.XNNPACKQuantizer().set_operator_type('aten.linear.default', state.xnnCfg)],
  ["X86: set_global(PTQ) + set_function_type_qconfig(F.linear, QAT)", () => new pt.X86InductorQuantizer().set_global(state.x86Cfg).set_function_type_qconfig('torch.nn.functional.linear', pt.get_default_x86_inductor_quantization_config({ is_qat: true }))],
  ["X86: set_global(PTQ)", () => new pt.X86InductorQuantizer().set_global(state.x86Cfg)],
  ["torchao XNNPACKQuantizer().set_module_name('fc2', None)", () => new pt.XNNPACKQuantizer().set_module_name('fc2', null)],
];
const res = cases.map(([label, f]) => ({ label, ...opt(f) }));
const types = (r) => (r.p ? pt.observer_placement_table(r.p).rows.map((x) => x[1]).sort().join(',') : null);
show.table(['quantizer', t('observers'), t('observer_classes_error')],
  res.map((r) => [r.label, r.p ? pt.observer_nodes(r.p).length : '—', r.err ?? [...new Set(types(r).split(','))].join(', ')]));
check(res[0].p && pt.observer_nodes(res[0].p).length === 0 && res[1].p && pt.observer_nodes(res[1].p).length > 0,
  t('torchao_copy_set_operator'));
check(types(res[2]) === types(res[3]) && !types(res[2]).includes('FakeQuantize'),
  t('mixing_a_qat_config'));
check(!!res[4].err, t('xnnpack_refuses_a_none'));
