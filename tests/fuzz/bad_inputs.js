// bad_inputs.js — the bad inputs docs/bad-inputs.md lists, tried through the public API in Node: each row is the input as
// a learner would write it and what the engine answers, as it answers it now. `node tests/fuzz/bad_inputs.js` prints
// the table that docs/bad-inputs.md holds between its two `<!-- bad-inputs -->` marks; tests/api/bad_inputs.test.js
// checks the two agree, so the page never says what the engine no longer does. After every row the canary runs.
import { canary } from './canary.js';

// [what, the input (code run with `pt` in scope)]
export const CASES = [
  ['huge tensor: 4 GiB of float32 (2^32 bytes overflowed wasm32\'s size_t)', 'pt.randn([2 ** 30])'],
  ['huge tensor: the product of the dimensions', 'pt.randn([65536, 16385])'],
  ['huge tensor: one byte past 2^31 - 1', 'pt.tensor([], [2 ** 31], "int8")'],
  ['huge tensor: the shape check passes, the heap cannot hold it', 'pt.randn([2 ** 29 - 1])'],
  ['a dimension that is not an exact integer', 'pt.randn([1e20])'],
  ['a negative dimension', 'pt.randn([2, -3])'],
  ['a fractional dimension', 'pt.randn([2.5])'],
  ['a NaN dimension', 'pt.randn([NaN])'],
  ['a shape that is not a list', 'pt.randn("3")'],
  ['data that does not fill the shape', 'pt.tensor([1, 2, 3], [2])'],
  ['a fraction for an integer dtype', 'pt.tensor([1.5], [1], "int8")'],
  ['a value past the dtype\'s range', 'pt.tensor([300], [1], "int8")'],
  ['an unknown dtype', 'pt.tensor([1], [1], "complex64")'],
  ['a number where a name is expected (a buffer name)', 'new pt.MinMaxObserver().buffer(5)'],
  ['a number where a name is expected (a node name)', 'pt.export(pt.get_model("conv_relu"), [pt.randn([1, 3, 8, 8])]).observer(3)'],
  ['NaN data, then qparams', 'const o = new pt.MinMaxObserver(); o.forward(pt.tensor([NaN, 1], [2])); o.calculate_qparams()'],
  ['+Inf data, then qparams', 'const o = new pt.MinMaxObserver(); o.forward(pt.tensor([Infinity, 1], [2])); o.calculate_qparams()'],
  ['an empty tensor, then qparams', 'const o = new pt.MinMaxObserver(); o.forward(pt.randn([0])); o.calculate_qparams()'],
  ['a channel axis past the input\'s dims', 'new pt.PerChannelMinMaxObserver({ ch_axis: 5 }).forward(pt.randn([2, 3]))'],
  ['an int8 tensor into a float observer', 'new pt.HistogramObserver().forward(pt.tensor([1, 2], [2], "int8"))'],
  ['an inverted range', 'new pt.MinMaxObserver({ dtype: "int8", quant_min: 5, quant_max: 1 })'],
  ['a range wider than the dtype', 'pt.calculate_qmin_qmax(0, 300, "int8")'],
  ['a qscheme the class does not take', 'new pt.MinMaxObserver({ qscheme: "per_channel_affine" })'],
  ['an unknown keyword', 'new pt.MinMaxObserver({ epsilon: 1e-5 })'],
  ['a misspelt option of a model (num_class for num_classes)', 'pt.get_model("tiny", { num_class: 3 })'],
  ['a misspelt field of a spec', 'new pt.QuantizationSpec({ dtype: "int8", observer_or_fake_quant_ctr: pt.MinMaxObserver, quantmin: 0 })'],
  ['convert_pt2e with an option it does not have', 'pt.convert_pt2e(pt.prepare_pt2e(pt.export(pt.get_model("mlp"), [pt.randn([2, 16])]), new pt.XNNPACKQuantizer()), { fold_quantise: false })'],
  ['a loss keyword the engine does not take (torch\'s deprecated size_average)', 'const g = pt.export(pt.get_model("mlp"), [pt.randn([2, 16])]).train(); pt.nn.functional.cross_entropy(g.forward(pt.randn([2, 16])), [0, 1], { size_average: true })'],
  ['a reduction that is no reduction', 'const g = pt.export(pt.get_model("mlp"), [pt.randn([2, 16])]).train(); pt.nn.functional.cross_entropy(g.forward(pt.randn([2, 16])), [0, 1], { reduction: "avg" })'],
  ['label smoothing past 1', 'const g = pt.export(pt.get_model("mlp"), [pt.randn([2, 16])]).train(); pt.nn.functional.cross_entropy(g.forward(pt.randn([2, 16])), [0, 1], { label_smoothing: 1.5 })'],
  ['per-sample losses backward without a cotangent', 'const g = pt.export(pt.get_model("mlp"), [pt.randn([2, 16])]).train(); pt.nn.functional.cross_entropy(g.forward(pt.randn([2, 16])), [0, 1], { reduction: "none" }).backward()'],
  ['too many histogram bins', 'new pt.HistogramObserver({ bins: 2 ** 40 })'],
  ['a scale of 0', 'pt.quantize_per_tensor(pt.randn([4]), 0, 0, -128, 127, "int8")'],
  ['a NaN scale', 'pt.quantize_per_tensor(pt.randn([4]), NaN, 0, -128, 127, "int8")'],
  ['a zero point outside the range', 'pt.quantize_per_tensor(pt.randn([4]), 0.1, 500, -128, 127, "int8")'],
  ['an axis out of range', 'pt.quantize_per_channel(pt.randn([2, 3]), [0.1, 0.1], [0, 0], 4, -128, 127, "int8")'],
  ['per-channel qparams of the wrong length', 'pt.quantize_per_channel(pt.randn([2, 3]), [0.1], [0], 0, -128, 127, "int8")'],
  ['NaN data into choose_qparams', 'pt.choose_qparams(pt.tensor([NaN, 1], [2]), -128, 127, 1e-5, "int8")'],
  ['an unknown model', 'pt.get_model("resnet9000")'],
  ['inputs of the wrong shape', 'pt.export(pt.get_model("conv_relu"), [pt.randn([1, 2])])'],
  ['a graph run on a list whose length lies (a Proxy: 2^32 - 1 elements, none there)', 'pt.export(pt.get_model("conv_relu"), [pt.randn([1, 3, 8, 8])]).forward(new Proxy([], { get: (t, k) => (k === "length" ? 2 ** 32 - 1 : undefined) }))'],
  ['a list of inputs with holes', 'pt.export(pt.get_model("conv_relu"), new Array(2))'],
  ['a backend that is no name', 'pt.lower(null, Object.create(null))'],
  ['a count past 2^53 (torch.randperm)', 'pt.randperm(1e20)'],
  ['a count as a BigInt (a Python int)', 'pt.randperm(3n).shape'],
  ['an op call past the work bound (2^35 multiply-accumulates: engine/core/op_budget.h)', 'pt.export(pt.get_model("residual", { ch: 2048 }), [pt.randn([4, 2048, 16, 16])])'],
  ['a prepared graph run on the wrong shape', 'const m = pt.get_model("conv_relu"); const g = pt.prepare_pt2e(pt.export(m, [pt.randn([1, 3, 8, 8])]), new pt.XNNPACKQuantizer()); g.forward(pt.randn([1, 2]))'],
  ['an annotation naming a node that does not exist', 'const g = pt.export(pt.get_model("conv_relu"), [pt.randn([1, 3, 8, 8])]); pt.annotate_output_qspec(g, "nope", null)'],
  ['a shared spec pointing at an edge that does not exist', 'const g = pt.export(pt.get_model("conv_relu"), [pt.randn([1, 3, 8, 8])]); pt.annotate_output_qspec(g, "relu", new pt.SharedQuantizationSpec(["relu", "x"]))'],
  ['a spec with an inverted range', 'new pt.QuantizationSpec({ dtype: "int8", observer_or_fake_quant_ctr: pt.MinMaxObserver, quant_min: 5, quant_max: 1 })'],
  ['a spec whose dtype is not a dtype', 'new pt.QuantizationSpec({ dtype: 8, observer_or_fake_quant_ctr: pt.MinMaxObserver })'],
  ['a learner\'s quantizer whose annotate throws', 'class Q extends pt.Quantizer { annotate() { throw new Error("my bug") } }; pt.prepare_pt2e(pt.export(pt.get_model("conv_relu"), [pt.randn([1, 3, 8, 8])]), new Q())'],
  ['a learner\'s quantizer whose annotate throws a string', 'class Q extends pt.Quantizer { annotate() { throw "oops" } }; pt.prepare_pt2e(pt.export(pt.get_model("conv_relu"), [pt.randn([1, 3, 8, 8])]), new Q())'],
  ['a learner\'s quantizer that re-enters prepare_pt2e', 'class Q extends pt.Quantizer { annotate(gm) { return pt.prepare_pt2e(gm, this) } }; pt.prepare_pt2e(pt.export(pt.get_model("conv_relu"), [pt.randn([1, 3, 8, 8])]), new Q())'],
  ['a learner\'s derive_qparams_fn returning garbage', 'const g = pt.export(pt.get_model("conv_relu"), [pt.randn([1, 3, 8, 8])]); class Q extends pt.Quantizer { annotate(gm) { pt.annotate_output_qspec(gm, "relu", new pt.DerivedQuantizationSpec({ derived_from: ["conv2d"], derive_qparams_fn: () => 42, dtype: "int32", quant_min: -(2 ** 31), quant_max: 2 ** 31 - 1 })); pt.annotate_output_qspec(gm, "conv2d", new pt.QuantizationSpec({ dtype: "int8", qscheme: "per_tensor_affine", observer_or_fake_quant_ctr: pt.MinMaxObserver })) } }; const p = pt.prepare_pt2e(g, new Q()); p.forward(pt.randn([1, 3, 8, 8])); pt.convert_pt2e(p)'],
  ['a learner\'s observer class returning an infinite scale', 'class P2 extends pt.MinMaxObserver { calculate_qparams() { return { scale: [Infinity], zero_point: [0] } } }; const c = pt.get_vpu_quantization_config(); c.weight = new pt.QuantizationSpec({ dtype: "int8", quant_min: -127, quant_max: 127, qscheme: "per_tensor_symmetric", observer_or_fake_quant_ctr: P2 }); const p = pt.prepare_pt2e(pt.export(pt.get_model("mlp"), [pt.randn([2, 16])]), new pt.VPUQuantizer().set_global(c)); p.forward(pt.randn([2, 16])); pt.convert_pt2e(p)'],
  ['scales that are no powers of two into the VPU\'s shifts', 'const p = pt.prepare_pt2e(pt.export(pt.get_model("mlp"), [pt.randn([2, 16])]), new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config())); p.forward(pt.randn([2, 16])); pt.simulate_vpu(pt.convert_pt2e(p))'],
  ['a method on a freed object', 'const t = pt.randn([2]); t.delete(); t.data()'],
  ['freeing twice', 'const t = pt.randn([2]); t.delete(); t.delete(); "no error (the second delete does nothing)"'],
  ['an engine object constructed by hand', 'new pt.Tensor([1, 2])'],
  ['a train loop asked for a fractional number of steps', 'const g = pt.export(pt.get_model("tiny"), [pt.randn([2, 3, 16, 16])]); new pt.TrainLoop(g, new pt.optim.SGD(g.parameters(), { lr: 0.1 }), { batches: pt.calibration_batches({ n: 2, batch_size: 2 }) }).run(1.5)'],
];

export function tryCase(pt, code) {
  let out;
  try {
    const v = pt.scope(() => new Function('pt', `"use strict"; ${code.includes('return') ? code : code.replace(/;?\s*([^;]+)$/, '; return ($1)')}`)(pt));
    const said = v instanceof pt.Tensor ? `Tensor(shape=[${v.shape}], dtype=${v.dtype})`  // its values vary; its kind does not
      : typeof v === 'string' ? v : Array.isArray(v) ? `[${v}]` : String(v);
    out = `no error: ${said}`;
  } catch (e) {
    out = `${e?.name ?? typeof e}: ${String(e?.message ?? e).replace(/\s+/g, ' ')}`;
  }
  canary(pt);
  return out.length > 240 ? `${out.slice(0, 237)}...` : out;
}

const cellText = (s) => s.replace(/\|/g, '\\|');

export function badInputsTable(pt) {
  const rows = CASES.map(([what, code]) => `| ${cellText(what)} | \`${cellText(code)}\` | ${cellText(tryCase(pt, code))} |`);
  return ['| bad input | tried as | the engine answers |', '|---|---|---|', ...rows].join('\n');
}

if (process.argv[1] && (await import('node:url')).fileURLToPath(import.meta.url) === (await import('node:path')).resolve(process.argv[1])) {
  const { loadEngine } = await import('../../web/api/index.js');
  console.log(badInputsTable(await loadEngine()));
}
