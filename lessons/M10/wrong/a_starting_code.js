// Wrong: the starting code — validate() accepts every graph, so a model with a sigmoid passes.
const vpu = state.vpu();
class MyVPUQuantizer extends pt.Quantizer {
  annotate(gm) { return vpu.annotate(gm); }
  validate(gm) {}
}
state.MyVPUQuantizer = MyVPUQuantizer;
const r = kit.grade(MyVPUQuantizer, 'linear_sigmoid');
check(r.ok, r.message);
