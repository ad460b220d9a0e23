// Wrong: refuses the right graphs, but with a ValueError whose message names neither the node nor its target.
const vpu = state.vpu();
const RUNS = ['conv2d', 'linear', 'relu', 'add', 'cat', 'max_pool2d', 'adaptive_avg_pool2d', 'mean', 'flatten'];
class MyVPUQuantizer extends pt.Quantizer {
  annotate(gm) { return vpu.annotate(gm); }
  validate(gm) {
    for (const n of gm.nodes) {
      if (n.kind !== 'op') continue;
      const op = state.opName(n);
      const p = op === 'relu' ? gm.node(n.args[0].node) : null;
      const broadcast = op === 'add' && gm.node(n.args[0].node).meta.shape.join() !== gm.node(n.args[1].node).meta.shape.join();
      if (!RUNS.includes(op) || (p && (!['conv2d', 'linear', 'add'].includes(state.opName(p)) || p.users.length !== 1)) || broadcast)
        throw new pt.ValueError('unsupported graph');
    }
  }
}
state.MyVPUQuantizer = MyVPUQuantizer;
const r = kit.grade(MyVPUQuantizer, 'linear_sigmoid');
check(r.ok, r.message);
