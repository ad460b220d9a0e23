// Wrong: the inputs share, but the output gets an observer of its own.
class CatQuantizer extends pt.Quantizer {
  annotate(gm) {
    for (const n of gm.nodes) {
      if (state.isOp(n, 'relu')) gm.annotate(n, new pt.QuantizationAnnotation({ output_qspec: state.act(), _annotated: true }));
    }
    for (const n of gm.nodes) {
      if (!state.isOp(n, 'cat')) continue;
      const [first, ...rest] = n.args[0].map((a) => a.node);
      const shared = new pt.SharedQuantizationSpec([first, n.name]);
      gm.annotate(n, new pt.QuantizationAnnotation({
        input_qspec_map: [[first, state.act()], ...rest.map((r) => [r, shared])],
        output_qspec: state.act(),
        _annotated: true,
      }));
    }
    return gm;
  }
  validate(gm) {}
}
state.CatQuantizer = CatQuantizer;
const p = pt.prepare_pt2e(state.ex('cat_pool'), new CatQuantizer());
show.text(p.code);
check(pt.observer_nodes(p).length > 0, { en: 'state.CatQuantizer runs and inserts observers (the grading cell checks the scales)', 'zh-TW': 'state.CatQuantizer 可以執行並插入 observer（scale 由評分 cell 檢查）' });
