// Reference solution.
const vpu = state.vpu();
const RUNS = ['conv2d', 'linear', 'relu', 'add', 'cat', 'max_pool2d', 'adaptive_avg_pool2d', 'mean', 'flatten'];
const FUSES_RELU = ['conv2d', 'linear', 'add'];
class MyVPUQuantizer extends pt.Quantizer {
  annotate(gm) { return vpu.annotate(gm); }
  validate(gm) {
    const refuse = (n, why) => { throw new pt.NotImplementedError(`node ${n.name} (${n.target}) cannot run on the VPU: ${why}`); };
    for (const n of gm.nodes) {
      if (n.kind !== 'op') continue;
      const op = state.opName(n);
      if (!RUNS.includes(op)) refuse(n, `no unit for ${op}`);
      if (op === 'relu') {
        const p = gm.node(n.args[0].node);
        if (!FUSES_RELU.includes(state.opName(p)) || p.users.length !== 1) refuse(n, 'relu runs only fused into the op before it');
      }
      if (op === 'add') {
        const [a, b] = n.args.slice(0, 2).map((x) => gm.node(x.node).meta.shape.join('x'));
        if (a !== b) refuse(n, `it broadcasts ${a} with ${b}`);
      }
    }
  }
}
state.MyVPUQuantizer = MyVPUQuantizer;
const r = kit.grade(MyVPUQuantizer, 'linear_sigmoid');   // the grading cell's rules, on one model
check(r.ok, r.message);
