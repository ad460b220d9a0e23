// lower.test.js — the public JS API of engine/lower: pt.lower(converted, 'xnnpack' | 'x86') and ExecuTorch's
// spelling pt.to_edge_transform_and_lower(..., { partitioner: [new pt.XnnpackPartitioner()] }); the lowered
// graph's output against the converted graph's, the delegation report as data, typed errors naming the node.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();

function converted(model, quantizer) {
  pt.manual_seed(0);
  const m = pt.get_model(model);
  const gm = pt.export(m, pt.example_inputs(4));
  const prepared = pt.prepare_pt2e(gm, quantizer);
  for (const { x } of pt.calibration_batches({ n: 16, batch_size: 4 })) prepared.forward(x);
  return pt.convert_pt2e(prepared);
}

const xnnpack = () => new pt.executorch.XNNPACKQuantizer().set_global(pt.executorch.get_symmetric_quantization_config({ is_per_channel: true }));
const x86 = () => new pt.X86InductorQuantizer().set_global(pt.get_default_x86_inductor_quantization_config());

test('lowering tiny for XNNPACK: int8 ops, the report, the output within one step of the q/dq graph', () => {
  const c = converted('tiny', xnnpack());
  const lowered = pt.lower(c, 'xnnpack');
  const info = lowered.delegation_info;
  assert.equal(info.num_delegated_subgraphs, 1);
  assert.equal(info.num_non_delegated_nodes, 2);
  assert.ok(info.num_delegated_nodes > 30);
  const conv = info.nodes.find((n) => n.name === 'conv2d');
  assert.deepEqual([conv.delegated, conv.lowered_as, conv.reason], [true, 'conv2d', null]);
  const kinds = lowered.nodes.filter((n) => n.kind === 'delegate').map((n) => n.target);
  assert.equal(kinds.filter((t) => t === 'int8.conv2d').length, 4);
  const x = pt.example_inputs(4)[0];
  const a = c.forward(x).data(), b = lowered.forward(x).data();
  const scale = c.nodes.filter((n) => n.kind === 'dequantize').at(-1).args[1];
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= scale * 1.0001, `element ${i}`);
});

test('the integer picture of one conv output: codes, int32 accumulator, requantized code', () => {
  const c = converted('conv_relu', xnnpack());
  const lowered = pt.lower(c, 'xnnpack');
  const x = pt.example_inputs(1)[0];
  const p = pt.integer_picture(lowered, 'conv2d', x, { index: 17 });
  assert.equal(p.inputs.length, 27);
  assert.equal(p.products.reduce((a, b) => a + b, 0), p.accumulator);
  assert.equal(p.accumulator_with_bias, p.accumulator + p.bias);
  assert.equal(p.requantization, 'fp32');
  const expected = Math.min(Math.max(Math.round(p.scaled) + p.output_zero_point, p.qmin), p.qmax);
  assert.ok(Math.abs(p.output - expected) <= 1);
  assert.throws(() => pt.integer_picture(lowered, 'nope', x), pt.ValueError);
});

test('integer_picture with { indices }: an array from one run of the graph, each equal to its single-index picture', () => {
  const c = converted('tiny', xnnpack());
  const lowered = pt.lower(c, 'xnnpack');
  const x = pt.example_inputs(2)[0];
  const indices = [17, 0, 300, 5, 17];  // any order, a repeat
  const pictures = pt.integer_picture(lowered, 'conv2d', x, { indices });
  assert.ok(Array.isArray(pictures));
  assert.equal(pictures.length, indices.length);
  pictures.forEach((p, i) => assert.deepEqual(p, pt.integer_picture(lowered, 'conv2d', x, { index: indices[i] }), `indices[${i}]`));
  assert.notDeepEqual(pictures[0], pictures[1]);
  assert.deepEqual(pt.integer_picture(lowered, 'conv2d', x, { indices: [] }), []);
  // The X86 path's float output stage (tiny's linear): each picture's float is the lowered model's output there.
  const lx = pt.lower(converted('tiny', x86()), 'x86');
  const y = lx.forward(x).data();
  const all = pt.integer_picture(lx, 'linear', x, { indices: Array.from(y, (_, i) => i) });
  assert.equal(all.length, y.length);
  all.forEach((p, i) => {
    assert.equal(p.float_output, true);
    assert.equal(p.output_f32, y[i], `element ${i}`);
    assert.deepEqual(p, pt.integer_picture(lx, 'linear', x, { index: i }));
  });
});

test('integer_picture: typed errors naming index / indices, and the module keeps working', () => {
  const c = converted('conv_relu', xnnpack());
  const lowered = pt.lower(c, 'xnnpack');
  const x = pt.example_inputs(1)[0];
  const bad = (options, type, text) => assert.throws(() => pt.integer_picture(lowered, 'conv2d', x, options),
    (e) => e instanceof type && text.test(e.message), String(text));
  bad({ index: 1, indices: [1] }, pt.ValueError, /give 'index' or 'indices', not both/);
  bad({ indices: 3 }, pt.TypeError, /argument 'indices' must be a list, got number/);
  bad({ indices: '0,1' }, pt.TypeError, /argument 'indices' must be a list, got string/);
  bad({ indices: [0, 1.5] }, pt.TypeError, /argument 'indices\[1\]' must be an integer, got 1\.5/);
  bad({ indices: [0, '2'] }, pt.TypeError, /argument 'indices\[1\]' must be an integer, got "2"/);
  bad({ indices: [0, , 2] }, pt.TypeError, /argument 'indices\[1\]' must be an integer, got undefined/);  // a hole
  bad({ indices: [0, 2n] }, pt.TypeError, /argument 'indices\[1\]' must be an integer/);
  bad({ indices: [0, 2 ** 60] }, pt.ValueError, /argument 'indices\[1\]' \(1152921504606847000\) is outside any output/);
  bad({ indices: [0, 1, 1e6] }, pt.ValueError, /index 1000000 \(indices\[2\]\) is outside the output \[1, 8, 16, 16\]/);
  bad({ indices: [0, -1] }, pt.ValueError, /index -1 \(indices\[1\]\) is outside the output/);
  bad({ indices: new Array(4097).fill(0) }, pt.ValueError, /argument 'indices' has 4097 elements \(at most 4096\)/);
  bad({ index: 1.5 }, pt.TypeError, /argument 'index' must be an integer, got 1\.5/);
  bad({ index: 1e6 }, pt.ValueError, /index 1000000 is outside the output/);
  bad(5, pt.TypeError, /argument 'options' must be an object of options/);
  assert.equal(pt.integer_picture(lowered, 'conv2d', x, { indices: new Array(4096).fill(3) }).length, 4096);
  assert.equal(pt.integer_picture(lowered, 'conv2d', x).output_coords.join(), '0,0,0,0');  // neither: element 0
});

test('the binding behind integer_picture stands behind its checks: exact integer lists only, typed errors', () => {
  const M = pt.module;
  const call = (...args) => {
    const out = M.integer_pictures(...args);
    const err = M.take_error();
    if (err) throw new pt.errors[err.kind](err.message);
    return out;
  };
  const lowered = pt.lower(converted('conv_relu', xnnpack()), 'xnnpack');
  const xs = [pt.example_inputs(1)[0].handle];
  const bad = (indices, name, text) => assert.throws(() => call(lowered.handle, 'conv2d', xs, indices),
    (e) => e.name === name && text.test(e.message), String(text));
  bad(3, 'TypeError', /indices must be a list of integers, got number/);
  bad([0, 'a'], 'TypeError', /indices: element 1 is not a number/);
  bad([0, 0.5], 'TypeError', /indices: element 1 \(0\.5\d*\) is not an integer/);
  bad([2 ** 60], 'ValueError', /indices: element 0 \(\d+\.\d+\) is too large to be exact/);
  bad([0, 5000], 'ValueError', /index 5000 \(indices\[1\]\) is outside the output/);
  assert.equal(call(lowered.handle, 'conv2d', xs, [3, 4]).length, 2);
  assert.equal(M.max_integer_pictures, 4096);
});

test('ExecuTorch spelling and the x86 backend; fixed-point requantization', () => {
  const c = converted('tiny', xnnpack());  // the helper's inputs are the image set's: 3 channels
  const et = pt.to_edge_transform_and_lower(c, { partitioner: [new pt.XnnpackPartitioner({ requantization: 'fixed_point' })] });
  assert.ok(et.exported_program().nodes.some((n) => n.kind === 'delegate'));
  assert.ok(et.delegation_info.num_delegated_nodes > 0);
  const cx = converted('tiny', x86());
  const lx = pt.lower(cx, 'x86');
  assert.ok(lx.nodes.some((n) => n.target === 'int8.conv2d'));
  // tiny's linear feeds the model's output, which X86InductorQuantizer leaves float: it runs as an int8 linear
  // with the float output stage (torchao's x86 Inductor passes: onednn qlinear_pointwise, output dtype float32).
  const fc = lx.delegation_info.nodes.find((n) => n.name === 'linear');
  assert.deepEqual([fc.delegated, fc.lowered_as, fc.reason], [true, 'linear', null]);
  assert.equal(lx.nodes.find((n) => n.name === 'linear').target, 'int8.linear');
  const x = pt.example_inputs(2)[0];
  const p = pt.integer_picture(lx, 'linear', x, { index: 1 });
  assert.deepEqual([p.float_output, p.requantization, p.relu], [true, 'f32_output', false]);
  assert.equal(p.output_f32, Math.fround(Math.fround(p.accumulator * p.multiplier) + p.bias_f32));
  assert.equal(p.output_f32, lx.forward(x).data()[1]);
});

test('bad input: typed errors naming the node, and the module keeps working', () => {
  const c = converted('conv_relu', xnnpack());
  assert.throws(() => pt.lower(c, 'x86'), (e) => e instanceof pt.ValueError && /node conv2d/.test(e.message) && /uint8/.test(e.message));
  assert.throws(() => pt.lower(c, 'vpu'), pt.ValueError);
  assert.throws(() => pt.lower(c, 'xnnpack', { requantization: 'shift' }), (e) => e instanceof pt.ValueError && /node conv2d/.test(e.message));
  pt.manual_seed(0);
  const gm = pt.export(pt.get_model('conv_relu'), pt.example_inputs(2));
  assert.throws(() => pt.lower(gm), (e) => e instanceof pt.ValueError && /convert_pt2e/.test(e.message));
  assert.throws(() => pt.to_edge_transform_and_lower(c, { partitioner: [] }), pt.ValueError);
  assert.ok(pt.lower(c).nodes.length > 0);
});
