// kit.js — M10's grader for the validate() exercise: on each zoo model, the learner's quantizer (the VPU's annotate,
// their validate) against pt.VPUQuantizer's own verdict. The same verdict, and for a refusal a NotImplementedError
// that names the same node and its target; every message says which of the three and what was expected.
const ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
const vpu = () => new pt.VPUQuantizer().set_global(pt.get_vpu_quantization_config());
const verdict = (gm, q) => { try { pt.prepare_pt2e(gm, q); return null; } catch (e) { return e; } };
const named = (e) => /node (\S+) \(([^)]+)\)/.exec(e?.message ?? '');

function grade(Q, name) {
  if (typeof Q !== 'function') throw new pt.TypeError('state.MyVPUQuantizer is not set: define the class in the exercise cell');
  const gm = ex(name);
  const want = verdict(gm, vpu()), got = verdict(gm, new Q());
  const [, node, target] = named(want) ?? [];
  let problem = null;
  if (want && !got) problem = t('accepted_but', { node, target, why: want.message.replace(/^.*cannot run on the VPU: /, '') });
  else if (!want && got) problem = t('rejected_but', { error: `${got.name}: ${got.message}` });
  else if (want && !(got instanceof pt.NotImplementedError)) problem = t('wrong_type', { type: got.name, message: got.message });
  else if (want && !(got.message.includes(node) && got.message.includes(target))) problem = t('wrong_node', { node, target, message: got.message });
  const short = (e) => (e ? `${e.name}: ${named(e)?.[1] ?? '?'}` : '✓');
  return {
    ok: problem === null,
    message: problem ? `${name}: ${problem}` : t('same_verdict', { name, verdict: want ? t('refused_at', { node }) : t('runs') }),
    row: [name, short(want), short(got), problem ? '✗' : '✓'],
  };
}

return { models: pt.model_names(), grade };
