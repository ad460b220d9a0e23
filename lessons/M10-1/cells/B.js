// B. The integer-only simulation of every model the VPU accepts against its fake-quant graph, element by element.
const rows = [];
let differing = 0, elements = 0;
for (const name of ['conv_relu', 'stem', 'residual', 'tiny', 'mlp']) {
  const { converted, sim } = name === 'tiny' ? state.tiny : (() => { const c = state.convert(name); return { converted: c, sim: pt.simulate_vpu(c) }; })();
  const x = name === 'tiny' || name === 'conv_relu' || name === 'stem' ? state.held : state.inputs(name, 1)[0];
  const want = converted.forward(x).data(), got = sim.forward(x).data();
  const wb = new Uint32Array(want.buffer, want.byteOffset, want.length), gb = new Uint32Array(got.buffer, got.byteOffset, got.length);
  let same = 0;
  for (let i = 0; i < wb.length; i += 1) same += wb[i] === gb[i];
  differing += wb.length - same;
  elements += wb.length;
  const info = sim.delegation_info;
  rows.push([name, info.num_delegated_nodes, info.num_non_delegated_nodes, wb.length, same]);
  check(same === wb.length && wb.length === gb.length, t('bit_exact', { name, same, n: wb.length }));
}
reveal(differing === 0 ? 'none' : differing < elements / 1000 ? 'few' : 'many');
show.table([t('model'), t('integer_ops'), t('float_nodes'), t('elements'), t('bit_exact_col')], rows);
kit.draw(state.tiny.sim, t('sim_graph'), { stage: 'simulate_vpu' });
const floatOps = state.tiny.sim.nodes.filter((n) => n.kind === 'op').map((n) => n.name);
check(floatOps.length === 0, t('integer_only', { ops: floatOps.join(', ') || '—' }));
