// kit.js — M10-1's grader for the power-of-two observer: the learner's class alone against the engine's
// PowerOfTwoMinMaxObserver on tensors chosen to separate the ways of rounding (a maximum exactly on a power-of-two
// boundary, nothing but zeros, one sign only), then plugged into the VPU's config as every activation and weight
// observer: the converted graph must carry the same scales as with the engine's class, and its integer simulation
// must equal its fake-quant graph bit for bit. Each message names what differs and what the rule asks.
const KW = { dtype: 'int8', qscheme: 'per_tensor_symmetric', quant_min: -128, quant_max: 127, eps: 2 ** -12 };
const fmt = (s) => (s > 0 && Number.isInteger(Math.log2(s)) ? `2^${Math.log2(s)}` : String(s));
const list = (v) => (v instanceof pt.Tensor ? Array.from(v.data()) : typeof v === 'number' ? [v] : Array.from(v ?? []));

// [label, values]: each a case the rounding rules tell apart.
const tensors = [
  ['randn · 0.01', () => Array.from(pt.randn([500]).data(), (v) => v * 0.01)],
  ['randn · 3.7', () => Array.from(pt.randn([500]).data(), (v) => v * 3.7)],
  ['randn · 100', () => Array.from(pt.randn([500]).data(), (v) => v * 100)],
  ['max = 127 · 2^-3', () => [-1, 0.5, 127 / 8]],   // exactly on the boundary: 2^-3 fits, nothing to round up
  ['max = 127 · 2^-3 + ε', () => [-1, 0.5, 127 / 8 + 1 / 64]],
  [t('zeros'), () => [0, 0, 0]],
  [t('negatives'), () => [-5.5, -0.25, -3]],
];

function qparamsOf(Cls, values) {
  const obs = new Cls(KW);
  try {
    const x = pt.tensor(Float32Array.from(values));
    obs.forward(x);
    x.delete();
    const r = obs.calculate_qparams();
    return { scale: list(r?.scale), zero_point: list(r?.zero_point) };
  } finally { obs.delete?.(); }
}

function why(got, want, amax) {
  const [s] = got.scale;
  if (got.scale.length !== 1 || got.zero_point.length !== 1) return t('one_each', { n: got.scale.length, m: got.zero_point.length });
  if (got.zero_point[0] !== 0) return t('zero_point', { zp: got.zero_point[0] });
  if (!(s > 0) || !Number.isInteger(Math.log2(s))) return t('not_power', { s, log: Math.log2(s).toFixed(3) });
  if (amax / s > 127) return t('clips', { amax, s: fmt(s), q: (amax / s).toFixed(2) });
  if (s > want) return t('not_smallest', { s: fmt(s), half: fmt(s / 2), amax, q: (amax / (s / 2)).toFixed(2) });
  if (s < want) return t('below_eps', { s: fmt(s), want: fmt(want) });
  return null;
}

function gradeAlone(Cls, [label, draw]) {
  if (typeof Cls !== 'function') throw new pt.TypeError('state.PowerOfTwoObserver is not set: define the class in the exercise cell');
  const values = draw();
  const want = qparamsOf(pt.PowerOfTwoMinMaxObserver, values);
  let got, problem;
  try { got = qparamsOf(Cls, values); problem = why(got, want.scale[0], Math.max(0, ...values.map(Math.abs))); } catch (e) { problem = `${e.name}: ${e.message}`; }
  return { ok: !problem, message: problem ? `${label}: ${problem}` : t('alone_ok', { label, s: fmt(want.scale[0]) }),
    row: [label, fmt(want.scale[0]), got ? fmt(got.scale[0]) : '—', problem ? '✗' : '✓'] };
}

// The VPU's config with `Cls` as the observer of every activation and weight spec.
function configWith(Cls) {
  const c = pt.get_vpu_quantization_config();
  const spec = (s) => new pt.QuantizationSpec({ dtype: s.dtype, quant_min: s.quant_min, quant_max: s.quant_max, qscheme: s.qscheme, observer_or_fake_quant_ctr: Cls.with_args({ eps: 2 ** -12 }) });
  return { ...c, input_activation: spec(c.input_activation), output_activation: spec(c.output_activation), weight: spec(c.weight) };
}
function convert(name, config) {
  pt.manual_seed(0);
  const m = pt.get_model(name);
  const prepared = pt.prepare_pt2e(pt.export(m, [pt.randn([2, ...m.input_shape])]), new pt.VPUQuantizer().set_global(config));
  for (const b of pt.calibration_batches({ n: 32, batch_size: 16 })) prepared.forward(m.input_shape.join() === '3,16,16' ? b.x : pt.randn([16, ...m.input_shape]));
  return pt.convert_pt2e(prepared);
}
const scales = (g) => g.nodes.filter((n) => n.kind === 'dequantize').map((n) => [n.name, n.args[1]]);

function gradePlugged(Cls, name) {
  if (typeof Cls !== 'function') throw new pt.TypeError('state.PowerOfTwoObserver is not set: define the class in the exercise cell');
  const label = t('plugged', { name });
  let problem = null;
  try {
    const want = scales(convert(name, pt.get_vpu_quantization_config()));
    const converted = convert(name, configWith(Cls));
    const got = new Map(scales(converted));
    for (const [node, s] of want) {
      if (got.get(node) !== s) { problem = t('scale_differs', { node, got: fmt(got.get(node)), want: fmt(s) }); break; }
    }
    if (!problem) {
      const sim = pt.simulate_vpu(converted);
      const m = pt.get_model(name);
      const x = pt.randn([8, ...m.input_shape]);
      const a = converted.forward(x).data(), b = sim.forward(x).data();
      if (!a.every((v, i) => Object.is(v, b[i]))) problem = t('not_bit_exact');
    }
  } catch (e) { problem = `${e.name}: ${e.message}`; }
  return { ok: !problem, message: problem ? `${label}: ${problem}` : t('plugged_ok', { name }), row: [label, t('same_scales'), problem ? t('differs') : t('same_scales'), problem ? '✗' : '✓'] };
}

return { tensors, gradeAlone, gradePlugged };
