// views.test.js — what the views take and check without a canvas (web/bindings/bind_views.cpp): the
// graph view's data as gm.graph_view() gives it (node kinds and layers, read back by the view), the
// view kinds, and the controls every view has, checked in C++ alone (web/views/view_content.h): a
// histogram's draggable range, a view without controls. The drawing itself is the e2e test's.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';
import { integerPictureView } from '../../web/app/view_data.js';

const pt = await loadEngine();
const M = pt.module;

// A binding call, with the engine's typed error raised as the API raises it.
function call(fn, ...args) {
  const out = fn(...args);
  const err = M.take_error();
  if (err) throw new pt.errors[err.kind](err.message);
  return out;
}

function stages() {
  return pt.scope(() => {
    pt.manual_seed(0);
    const model = pt.get_model('conv_relu');
    const gm = pt.export(model, [pt.randn([2, ...model.input_shape])]);
    const prepared = pt.prepare_pt2e(gm, new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config()));
    prepared.forward(pt.randn([2, ...model.input_shape]));
    const converted = pt.convert_pt2e(prepared);
    return [['export', gm], ['prepare_pt2e', prepared], ['convert_pt2e', converted]].map(([title, g]) => ({ title, ...g.graph_view() }));
  });
}

test('graph_view nodes carry their node kind and layer; the graph view reads them back', () => {
  const [exported, prepared, converted] = stages();
  const kind = (s, name) => s.nodes.find((n) => n.name === name)?.kind;
  assert.equal(kind(exported, 'x'), 'placeholder');
  assert.equal(kind(exported, 'conv2d'), 'op');
  assert.equal(kind(exported, 'output'), 'output');
  assert.ok(exported.nodes.some((n) => n.kind === 'get_attr' && n.op === 'get_attr'));
  assert.ok(prepared.nodes.filter((n) => n.is_observer).every((n) => n.kind === 'observer'));
  assert.ok(converted.nodes.some((n) => n.kind === 'quantize' && /quantize_per_tensor/.test(n.target)));
  assert.ok(converted.nodes.some((n) => n.kind === 'dequantize'));
  for (const s of [exported, prepared, converted]) {
    const layer = new Map(s.nodes.map((n) => [n.name, n.layer]));
    assert.ok(s.edges.every((e) => layer.get(e.from) < layer.get(e.to)), `${s.title}: every edge goes down a layer`);
  }
  const spec = { view: 'graph', stages: [exported, prepared, converted], show_params: false, focus: ['conv2d'], hops: 2 };
  assert.deepEqual(call(M.spec_controls, spec, undefined), [], 'a graph view has no controls');
});

test('graph view data made by hand: layers are found, a cycle or layers that do not rise are named', () => {
  const node = (name, extra = {}) => ({ name, op: 'call_function', target: 'aten.relu.default', label: 'relu', ...extra });
  const spec = (nodes, edges) => ({ view: 'graph', nodes, edges });
  assert.deepEqual(call(M.spec_controls, spec([node('a'), node('b')], [{ from: 'a', to: 'b' }]), undefined), []);
  assert.throws(() => call(M.spec_controls, spec([node('a'), node('b')], [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }]), undefined),
    (e) => e.name === 'ValueError' && /cycle/.test(e.message));
  assert.throws(() => call(M.spec_controls, spec([node('a', { layer: 1 }), node('b', { layer: 1 })], [{ from: 'a', to: 'b' }]), undefined),
    (e) => e.name === 'ValueError' && /layer 1 to layer 1/.test(e.message));
  assert.throws(() => call(M.spec_controls, spec([node('a', { kind: 'nope' })], []), undefined),
    (e) => e.name === 'ValueError' && /kind must be one of placeholder, get_attr, op, observer/.test(e.message));
});

test("a stage's changed nodes must be nodes of that stage", () => {
  const [gm, prepared] = stages();
  const added = prepared.nodes.map((n) => n.name).filter((name) => !gm.nodes.some((m) => m.name === name));
  assert.ok(added.length > 0);
  const spec = (changed) => ({ view: 'graph', stages: [gm, { ...prepared, changed }] });
  assert.deepEqual(call(M.spec_controls, spec(added), undefined), []);
  assert.throws(() => call(M.spec_controls, spec(['no_such_node']), undefined),
    (e) => e.name === 'ValueError' && /stage 1's 'changed' names 'no_such_node', which is not a node of that stage/.test(e.message));
  assert.throws(() => call(M.spec_controls, spec('x'), undefined), (e) => e.name === 'TypeError' && /changed/.test(e.message));
});

test('view kinds: an unknown one is a ValueError listing the known ones', () => {
  call(M.check_view_kind, { view: 'histogram' });
  assert.throws(() => call(M.check_view_kind, { view: 'pie' }), (e) => e.name === 'ValueError' && /unknown view 'pie'; known: histogram, line, bar, graph/.test(e.message));
  assert.throws(() => call(M.check_view_kind, undefined), (e) => e.name === 'ValueError' && /unknown view undefined/.test(e.message));
});

test('controls: a draggable histogram range is checked in C++ before the view is drawn', () => {
  const values = [-2, -0.5, 0, 0.25, 1, 3];
  const spec = { view: 'histogram', lo: -3, hi: 3, counts: [1, 2, 2, 1], values,
    range: { min: -2, max: 3, label: 'MinMaxObserver', draggable: true }, quant: { quant_min: -128, quant_max: 127 } };
  assert.deepEqual(call(M.spec_controls, spec, undefined), [{ name: 'range', value: [-2, 3], fields: ['range.min', 'range.max'] }]);
  assert.deepEqual(call(M.spec_controls, spec, { range: [-0.5, 1.5] })[0].value, [-0.5, 1.5]);
  for (const [bad, kind, text] of [
    [{ range: [2, 1] }, 'ValueError', /'range' must be finite with min < max/],
    [{ range: [0, NaN] }, 'ValueError', /'range'/],
    [{ range: [0] }, 'ValueError', /'range' must be \[min, max\], got 1 numbers/],
    [{ range: ['a', 1] }, 'TypeError', /range\[0\] is not a number/],
    [{ bins: [1, 2] }, 'ValueError', /no control 'bins'/],
    [null, 'TypeError', /controls must be an object/]]) {
    assert.throws(() => call(M.spec_controls, spec, bad), (e) => e.name === kind && text.test(e.message), JSON.stringify(bad));
  }
  const fixed = { ...spec, range: { min: -2, max: 3 } };
  assert.deepEqual(call(M.spec_controls, fixed, undefined), [], 'a range that is not draggable is no control');
  assert.throws(() => call(M.spec_controls, fixed, { range: [0, 1] }), (e) => e.name === 'ValueError' && /no control 'range'/.test(e.message));
  assert.throws(() => call(M.spec_controls, { ...spec, quant: { quant_min: 1, quant_max: 127 } }, undefined),
    (e) => e.name === 'ValueError' && /'quant.quant_min'/.test(e.message));
});

test('controls: a view without controls has none and rejects any', () => {
  const line = { view: 'line', series: [{ name: 'min_val', y: [1, 2, 3] }] };
  assert.deepEqual(call(M.spec_controls, line, undefined), []);
  assert.throws(() => call(M.spec_controls, line, { range: [0, 1] }), (e) => e.name === 'ValueError' && /this view has no controls, but 'range' was given/.test(e.message));
  assert.deepEqual(call(M.spec_controls, line, {}), [], 'no controls given: nothing to reject');
});

// The integer picture (web/views/integer_picture_data.h): pt.integer_picture results for every element of a lowered
// linear, stepped through by the control "element"; the readout is the chosen element's numbers.
function integerPicture() {
  return pt.scope(() => {
    pt.manual_seed(0);
    const gm = pt.export(pt.get_model('mlp'), [pt.randn([2, 16])]);
    const prepared = pt.prepare_pt2e(gm, new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config()));
    prepared.forward(pt.randn([8, 16]));
    const lowered = pt.lower(pt.convert_pt2e(prepared), 'xnnpack');
    const x = pt.randn([2, 16]);
    const pics = Array.from({ length: 8 }, (_, i) => pt.integer_picture(lowered, 'linear_1', x, { index: i }));
    const fields = ['inputs', 'weights', 'products', 'accumulator', 'bias', 'accumulator_with_bias', 'multiplier', 'fixed_multiplier', 'shift', 'scaled', 'output'];
    return { view: 'integer_picture', node: pics[0].node, requantization: pics[0].requantization, input_zero_point: pics[0].input_zero_point,
      output_zero_point: pics[0].output_zero_point, qmin: pics[0].qmin, qmax: pics[0].qmax,
      elements: pics.map((p) => ({ coords: p.output_coords, ...Object.fromEntries(fields.map((f) => [f, p[f]])), reference: p.output })) };
  });
}

test('integer picture: the element control steps through the elements, checked in C++', () => {
  const spec = integerPicture();
  assert.deepEqual(call(M.spec_controls, spec, undefined), [{ name: 'element', value: [0], fields: ['element'] }]);
  assert.deepEqual(call(M.spec_controls, spec, { element: [7] })[0].value, [7]);
  for (const [bad, text] of [[{ element: [8] }, /'element' must be \[i\] with i an integer in 0..7/], [{ element: [1.5] }, /integer/],
    [{ range: [0, 1] }, /the integer picture has the control 'element', not 'range'/]]) {
    assert.throws(() => call(M.spec_controls, spec, bad), (e) => e.name === 'ValueError' && text.test(e.message), JSON.stringify(bad));
  }
  const ragged = { ...spec, elements: [{ ...spec.elements[0], weights: spec.elements[0].weights.slice(1) }] };
  assert.throws(() => call(M.spec_controls, ragged, undefined), (e) => e.name === 'ValueError' && /elements\[0\] has 32 inputs, 31 weights/.test(e.message));
  assert.throws(() => call(M.spec_controls, { ...spec, elements: [] }, undefined), (e) => e.name === 'ValueError' && /1 to 4096 elements/.test(e.message));
  assert.throws(() => call(M.spec_controls, { ...spec, requantization: 'double' }, undefined), (e) => e.name === 'ValueError' && /'requantization'/.test(e.message));
  assert.throws(() => call(M.spec_controls, { ...spec, elements: [{ ...spec.elements[0], accumulator: 'x' }] }, undefined),
    (e) => e.name === 'TypeError' && /elements\[0\]\.accumulator must be a number/.test(e.message));
});

// The X86 path's float output stage (f32_output): conv_relu lowered for x86 ends in a conv whose relu is fused into its
// float output. Its pictures, made a spec by view_data.js, carry the op's own floats; the C++ checks take the spec.
test('integer picture: a float-output conv (f32_output) is a spec of floats, the lowered model\'s own', () => {
  const { spec, y } = pt.scope(() => {
    pt.manual_seed(0);
    const m = pt.get_model('conv_relu');
    const prepared = pt.prepare_pt2e(pt.export(m, pt.example_inputs(4)), new pt.X86InductorQuantizer().set_global(pt.get_default_x86_inductor_quantization_config()));
    for (const { x } of pt.calibration_batches({ n: 16, batch_size: 4 })) prepared.forward(x);
    const lowered = pt.lower(pt.convert_pt2e(prepared), 'x86');
    const x = pt.example_inputs(1)[0];
    const pics = Array.from({ length: 8 }, (_, i) => pt.integer_picture(lowered, 'conv2d', x, { index: i * 97 }));
    return { spec: integerPictureView(pics), y: lowered.forward(x).data() };
  });
  assert.deepEqual([spec.requantization, spec.relu], ['f32_output', true]);
  spec.elements.forEach((e, i) => assert.equal(e.output_f32, y[i * 97], `element ${i * 97}: the picture's float is the lowered model's output`));
  assert.deepEqual(call(M.spec_controls, spec, { element: [7] })[0].value, [7]);
  const bad = (change, name, text) => assert.throws(() => call(M.spec_controls, { ...spec, ...change }, undefined),
    (e) => e.name === name && text.test(e.message), JSON.stringify(Object.keys(change)));
  const first = spec.elements[0];
  bad({ requantization: 'double' }, 'ValueError', /'requantization' must be one of 'fp32', 'fixed_point', 'shift', 'shift_even', 'f32_output', got 'double'/);
  bad({ requantization: 'fp32' }, 'ValueError', /'relu' applies to the float output stage \(f32_output\) only/);
  bad({ relu: 'yes' }, 'TypeError', /relu must be a boolean/);
  bad({ elements: [{ ...first, output_f32: undefined }] }, 'ValueError', /elements\[0\] needs a finite bias_f32 and output_f32/);
  bad({ elements: [{ ...first, reference: 'x' }] }, 'TypeError', /elements\[0\]\.reference must be a number/);
  assert.deepEqual(call(M.spec_controls, { ...spec, elements: [{ ...first, reference: first.output_f32 + 0.5 }] }, undefined)[0].value, [0],
    'a float reference is taken for a float output');
});

test("graph view partition: delegated and float nodes must be the graph's, each listed once", () => {
  const [, , converted] = stages();
  const names = converted.nodes.filter((n) => n.op === 'call_function').map((n) => n.name);
  const spec = (partition) => ({ view: 'graph', stages: [converted], partition });
  const good = { backend: 'xnnpack', delegated: names.slice(1), float: [{ name: names[0], reason: 'a boundary quantize' }] };
  assert.deepEqual(call(M.spec_controls, spec(good), undefined), []);
  assert.throws(() => call(M.spec_controls, spec({ ...good, delegated: [...good.delegated, 'nope'] }), undefined),
    (e) => e.name === 'ValueError' && /partition.delegated names 'nope', which is in no stage/.test(e.message));
  assert.throws(() => call(M.spec_controls, spec({ ...good, delegated: names }), undefined),
    (e) => e.name === 'ValueError' && new RegExp(`partition lists '${names[0]}' twice`).test(e.message));
  assert.throws(() => call(M.spec_controls, spec({ delegated: 'conv2d' }), undefined), (e) => e.name === 'TypeError' && /delegated/.test(e.message));
});
