// C. Three settings that look reasonable. Does each change anything?
const opt = (f) => { try { return { p: pt.prepare_pt2e(state.ex('mlp'), f()) }; } catch (e) { return { err: `${e.name}: ${e.message}` }; } };
const cases = [
  ["torchao XNNPACKQuantizer().set_operator_type('aten.linear.default', cfg)", () => new pt.XNNPACKQuantizer().set_operator_type('aten.linear.default', state.xnnCfg)],
  ["executorch XNNPACKQuantizer().set_operator_type('aten.linear.default', cfg)", () => new pt.executorch.XNNPACKQuantizer().set_operator_type('aten.linear.default', state.xnnCfg)],
  ["X86: set_global(PTQ) + set_function_type_qconfig(F.linear, QAT)", () => new pt.X86InductorQuantizer().set_global(state.x86Cfg).set_function_type_qconfig('torch.nn.functional.linear', pt.get_default_x86_inductor_quantization_config({ is_qat: true }))],
  ["X86: set_global(PTQ)", () => new pt.X86InductorQuantizer().set_global(state.x86Cfg)],
  ["torchao XNNPACKQuantizer().set_module_name('fc2', None)", () => new pt.XNNPACKQuantizer().set_module_name('fc2', null)],
];
const res = cases.map(([label, f]) => ({ label, ...opt(f) }));
const types = (r) => (r.p ? pt.observer_placement_table(r.p).rows.map((x) => x[1]).sort().join(',') : null);
show.table(['quantizer', ctx.tr({ en: 'observers', 'zh-TW': 'observer 數' }), ctx.tr({ en: 'observer classes / error', 'zh-TW': 'observer 類別／錯誤' })],
  res.map((r) => [r.label, r.p ? pt.observer_nodes(r.p).length : '—', r.err ?? [...new Set(types(r).split(','))].join(', ')]));
check(res[0].p && pt.observer_nodes(res[0].p).length === 0 && res[1].p && pt.observer_nodes(res[1].p).length > 0,
  { en: 'torchao copy: set_operator_type is stored but never read (no observer, no error); ExecuTorch honours it', 'zh-TW': 'torchao 版：set_operator_type 有存起來，但從來沒被讀（沒有 observer、也沒有錯誤）；ExecuTorch 版會照做' });
check(types(res[2]) === types(res[3]) && !types(res[2]).includes('FakeQuantize'),
  { en: 'mixing a QAT config into a PTQ quantizer: the setter is skipped (torchao only warns); the result equals the global config alone', 'zh-TW': '在 PTQ 的 Quantizer 裡混入 QAT 設定：這個設定被跳過（torchao 只印警告）；結果和只有全域設定相同' });
check(!!res[4].err, { en: 'XNNPACK refuses a None config per module name, where X86 accepts it (section B)', 'zh-TW': 'XNNPACK 不接受依 module 名稱給 None 設定，X86 則接受（B 段）' });
