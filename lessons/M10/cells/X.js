// Exercise: make validate() reject what the VPU cannot run.
// Your quantizer labels the graph as the VPU's does (annotate below is given); write validate(gm) so that it throws
// a pt.NotImplementedError for the first node the VPU cannot run, with a message that names the node and its
// target ("node sigmoid (aten.sigmoid.default) ..."), and returns quietly for a graph the VPU runs. The VPU runs:
//   1. these ops only: conv2d, linear, relu, add, cat, max_pool2d, adaptive_avg_pool2d, mean (dim), flatten
//      (n.kind === 'op' for an op node; n.target is 'aten.<op>.<overload>');
//   2. relu only fused: its input is a conv2d, linear or add whose ONLY user is this relu;
//   3. add only element by element: both inputs have the same shape (gm.node(name).meta.shape).
// Tools: gm.nodes, gm.node(name), n.args (inputs as { node: 'name' }), n.users (names), state.opName(n) ('relu', ...).
const vpu = state.vpu();
class MyVPUQuantizer extends pt.Quantizer {
  annotate(gm) { return vpu.annotate(gm); }
  validate(gm) {
    // TODO: rules 1–3
  }
}
state.MyVPUQuantizer = MyVPUQuantizer;
const r = kit.grade(MyVPUQuantizer, 'linear_sigmoid');   // the grading cell's rules, on one model
check(r.ok, r.message);
