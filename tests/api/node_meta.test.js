// node_meta.test.js — what node objects carry beyond op and target: `kind` (engine/graph/targets.h
// node_kind) on exported, prepared and converted graphs, static and dynamic; and meta.custom (torchao's
// node.meta["custom"]) written from JS and carried through prepare_pt2e / convert_pt2e / clone.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();

function exported(name) {
  pt.manual_seed(0);
  const m = pt.get_model(name);
  return { gm: pt.export(m, [pt.randn([2, ...m.input_shape])]), x: () => pt.randn([2, ...m.input_shape]) };
}
function quantize(name, config) {
  const { gm, x } = exported(name);
  const prepared = pt.prepare_pt2e(gm, new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config(config)));
  prepared.forward(x());
  return { gm, prepared, converted: pt.convert_pt2e(prepared) };
}
const byKind = (g, kind) => g.nodes.filter((n) => n.kind === kind).map((n) => n.name);
const kindOf = (g) => Object.fromEntries(g.nodes.map((n) => [n.name, n.kind]));

test('node kinds on a static conv_relu: placeholder, get_attr, op, observer, quantize, dequantize, output', () => {
  const { gm, prepared, converted } = quantize('conv_relu', { is_per_channel: true });
  assert.deepEqual(kindOf(gm), {
    x: 'placeholder', conv_weight: 'get_attr', conv_bias: 'get_attr', conv2d: 'op', relu: 'op', output: 'output',
  });
  const observers = byKind(prepared, 'observer');
  assert.deepEqual(observers, pt.observer_nodes(prepared));
  assert.equal(observers.length, 3);  // x, the weight, relu's output
  assert.ok(prepared.nodes.every((n) => (n.kind === 'observer') === (n.op === 'call_module')));
  assert.deepEqual(byKind(converted, 'observer'), []);
  const q = converted.nodes.filter((n) => n.kind === 'quantize');
  const dq = converted.nodes.filter((n) => n.kind === 'dequantize');
  assert.deepEqual([...byKind(converted, 'quantize'), ...byKind(converted, 'dequantize')].sort(), [...pt.qdq_nodes(converted)].sort());
  // x and relu's output are quantized at run time; the weight's quantize was folded into an int8 constant.
  assert.deepEqual(q.map((n) => n.target), Array(2).fill('quantized_decomposed.quantize_per_tensor.default'));
  assert.deepEqual(dq.map((n) => n.target).sort(), [
    'quantized_decomposed.dequantize_per_channel.default',
    'quantized_decomposed.dequantize_per_tensor.default',
    'quantized_decomposed.dequantize_per_tensor.default',
  ]);
  const k = kindOf(converted);
  assert.equal(k.quantize_per_channel_default, 'get_attr');  // the folded weight keeps its quantize node's name (torchao constant_fold.py replace_node_with_constant)
  assert.equal(k.conv2d, 'op');
  assert.equal(k.relu, 'op');
  assert.equal(k.output, 'output');
  assert.equal(byKind(converted, 'choose_qparams').length, 0);
});

test('node kinds on a dynamic linear: choose_qparams, its getitems as ops, the .tensor quantize / dequantize', () => {
  const { converted } = quantize('linear_sigmoid', { is_dynamic: true });
  const choose = converted.nodes.filter((n) => n.kind === 'choose_qparams');
  assert.equal(choose.length, 1);
  assert.equal(choose[0].target, 'quantized_decomposed.choose_qparams.tensor');
  assert.deepEqual(choose[0].users.map((u) => converted.node(u).kind), ['op', 'op']);  // getitem 0 / 1
  const q = converted.nodes.filter((n) => n.kind === 'quantize').map((n) => n.target);
  assert.ok(q.includes('quantized_decomposed.quantize_per_tensor.tensor'), q.join());
  const dq = converted.nodes.filter((n) => n.kind === 'dequantize').map((n) => n.target);
  assert.ok(dq.includes('quantized_decomposed.dequantize_per_tensor.tensor'), dq.join());
});

test('meta.custom set after export rides through prepare, convert and clone where torchao carries it', () => {
  const { gm, x } = exported('linear_sigmoid');
  assert.deepEqual(gm.node('linear').meta.custom, {});
  gm.set_meta_custom('linear', 'numeric_debug_handle', 7).set_meta_custom(gm.node('linear'), 'tag', 'fc');
  gm.set_meta_custom('linear', 'weight', 0.5).set_meta_custom('linear', 'seen', true).set_meta_custom('linear', 'drop', 1);
  gm.set_meta_custom('linear', 'drop', null);
  const custom = { numeric_debug_handle: 7, seen: true, tag: 'fc', weight: 0.5 };
  assert.deepEqual(gm.node('linear').meta.custom, custom);

  const prepared = pt.prepare_pt2e(gm, new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config()));
  assert.deepEqual(prepared.node('linear').meta.custom, custom);
  const [outObs] = prepared.node('linear').users;
  assert.equal(prepared.node(outObs).kind, 'observer');
  assert.deepEqual(prepared.node(outObs).meta.custom, custom, 'the output observer carries the node\'s');
  for (const o of pt.observer_nodes(prepared).filter((o) => o !== outObs)) assert.deepEqual(prepared.node(o).meta.custom, {}, o);
  const copy = prepared.clone();
  assert.deepEqual(copy.node('linear').meta.custom, custom);
  assert.deepEqual(copy.node(outObs).meta.custom, custom);

  prepared.forward(x());
  const converted = pt.convert_pt2e(prepared);
  assert.deepEqual(converted.node('linear').meta.custom, custom);
  const [q] = converted.node('linear').users;
  const [dq] = converted.node(q).users;
  assert.deepEqual([converted.node(q).kind, converted.node(dq).kind], ['quantize', 'dequantize']);
  assert.deepEqual(converted.node(q).meta.custom, custom);
  assert.deepEqual(converted.node(dq).meta.custom, custom);
  const carried = converted.nodes.filter((n) => Object.keys(n.meta.custom).length).map((n) => n.name);
  assert.deepEqual(carried.sort(), ['linear', q, dq].sort());
  assert.deepEqual(converted.clone().node(dq).meta.custom, custom);
  assert.deepEqual(gm.node('linear').meta.custom, custom, 'prepare_pt2e worked on a copy');
});

test('set_meta_custom: typed errors for a bad node, key or value', () => {
  const { gm } = exported('conv_relu');
  assert.throws(() => gm.set_meta_custom('nope', 'k', 1), (e) => e.name === 'ValueError' && /nope/.test(e.message));
  assert.throws(() => gm.set_meta_custom('relu', 3, 1), (e) => e.name === 'TypeError' && /key/.test(e.message));
  assert.throws(() => gm.set_meta_custom('relu', 'k', { a: 1 }), (e) => e.name === 'TypeError' && /'k'/.test(e.message));
  assert.throws(() => gm.set_meta_custom('relu', 'k', undefined), (e) => e.name === 'TypeError');
  assert.throws(() => gm.set_meta_custom(42, 'k', 1), (e) => e.name === 'TypeError' && /node/.test(e.message));
  assert.deepEqual(gm.node('relu').meta.custom, {});
  gm.set_meta_custom('relu', 'big', 2 ** 60);
  assert.equal(gm.node('relu').meta.custom.big, 2 ** 60);  // not a safe integer: kept as a double
});
