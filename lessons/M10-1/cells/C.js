// C. What the simulation refuses, each with a typed error naming the node.
const attempt = (label, f) => { try { f(); return [label, '—', t('accepted')]; } catch (e) { return [label, e.name, e.message]; } };
const prepared = pt.prepare_pt2e(kit.export_zoo('conv_relu'), new pt.VPUQuantizer().set_global(state.vpuConfig()));
kit.calibrate(prepared, state.inputs('conv_relu', 2));
const xnn = pt.prepare_pt2e(kit.export_zoo('conv_relu'), kit.get_xnnpack_quantizer());
kit.calibrate(xnn, state.inputs('conv_relu', 2));
const vpuAnnotate = new pt.VPUQuantizer().set_global(state.vpuConfig());
class NoValidate extends pt.Quantizer { annotate(gm) { return vpuAnnotate.annotate(gm); } validate() {} }
const sig = pt.prepare_pt2e(kit.export_zoo('linear_sigmoid'), new NoValidate());
kit.calibrate(sig, state.inputs('linear_sigmoid', 1));
const rows = [
  attempt(t('case_prepared'), () => pt.simulate_vpu(prepared)),
  attempt(t('case_xnnpack'), () => pt.simulate_vpu(pt.convert_pt2e(xnn))),
  attempt(t('case_sigmoid'), () => pt.simulate_vpu(pt.convert_pt2e(sig))),
];
show.table([t('case'), t('error'), t('message')], rows);
check(rows[0][1] === 'ValueError' && /convert_pt2e/.test(rows[0][2]), t('refuses_prepared'));
check(rows[1][1] === 'ValueError' && /node conv2d/.test(rows[1][2]) && /power of two/.test(rows[1][2]), t('refuses_non_power'));
check(rows[2][1] === 'NotImplementedError' && /node sigmoid/.test(rows[2][2]), t('refuses_float'));
