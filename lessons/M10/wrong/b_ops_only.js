// Wrong: checks the list of ops (rule 1) only: a relu that is not fused (conv_relu_add) and an add that
// broadcasts (cat_pool) pass.
const vpu = state.vpu();
const RUNS = ['conv2d', 'linear', 'relu', 'add', 'cat', 'max_pool2d', 'adaptive_avg_pool2d', 'mean', 'flatten'];
class MyVPUQuantizer extends pt.Quantizer {
  annotate(gm) { return vpu.annotate(gm); }
  validate(gm) {
    for (const n of gm.nodes)
      if (n.kind === 'op' && !RUNS.includes(state.opName(n))) throw new pt.NotImplementedError(`node ${n.name} (${n.target}) cannot run on the VPU`);
  }
}
state.MyVPUQuantizer = MyVPUQuantizer;
const r = kit.grade(MyVPUQuantizer, 'linear_sigmoid');
check(r.ok, r.message);
