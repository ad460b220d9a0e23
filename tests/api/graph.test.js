// graph.test.js — the public JS API of engine/graph: zoo, export, node inspection, running, BN
// folding, report tables and typed errors naming the node. Structure numbers come from seed M01-2
// (the residual block: 2 batch_norm, 2 conv2d, 2 relu, 1 add).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();

function residual() {
  pt.manual_seed(0);
  const model = pt.get_model('residual', { ch: 8 });
  return pt.export(model, [pt.randn([4, 8, 16, 16])]);
}

test('the zoo lists the lesson models', () => {
  for (const name of ['conv_relu', 'stem', 'residual', 'cat_pool', 'tiny']) assert.ok(pt.model_names().includes(name), name);
});

test('the residual block exports with torch.export names and op counts', () => {
  const gm = residual();
  const nodes = gm.nodes;
  const names = nodes.map((n) => n.name);
  for (const n of ['x', 'conv1_weight', 'conv2_weight', 'conv2d', 'conv2d_1', 'relu', 'relu_1', 'add']) assert.ok(names.includes(n), n);
  const counts = pt.count_ops(gm);
  assert.deepEqual([counts.batch_norm, counts.conv2d, counts.relu, counts.add], [2, 2, 2, 1]);
  const conv = gm.node('conv2d');
  assert.equal(conv.op, 'call_function');
  assert.equal(conv.target, 'aten.conv2d.default');
  assert.deepEqual(conv.args[0], { node: 'x' });
  assert.deepEqual(conv.meta.shape, [4, 8, 16, 16]);
  assert.equal(conv.meta.nn_module_stack[0].fqn, 'conv1');
  assert.ok(gm.node('x').users.includes('add'), 'x feeds the add (skip connection)');
  assert.match(gm.code, /conv2d_1/);
});

test('fold_bn removes every batch_norm and keeps the output', () => {
  const gm = residual();
  const folded = gm.clone();
  assert.equal(pt.fold_bn(folded), 2);
  const rows = pt.diff_ops(gm, folded);
  assert.deepEqual(rows.find((r) => r.op === 'batch_norm'), { op: 'batch_norm', a: 2, b: 0, delta: -2 });
  const x = pt.randn([2, 8, 16, 16]);
  const a = gm.forward(x).data();
  const b = folded.forward(x).data();
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1e-3, Math.abs(a[i])));
  // Folding changes the output by float32 rounding only: no more than torch's own CPU paths change it on the same
  // model and input (tests/golden/gen_fold_change.py: oneDNN and im2col + sgemm; the larger, 10 % headroom for the
  // order of the sums).
  const torch = JSON.parse(readFileSync(new URL('../golden/models/fold_change.json', import.meta.url), 'utf8')).residual_default_bn;
  assert.ok(worst <= 1.1 * Math.max(torch.mkldnn, torch.native), `relative change ${worst}, torch's ${torch.mkldnn} / ${torch.native}`);
});

test('graph_view gives layered nodes and edges for the frontend', () => {
  const gm = residual();
  const v = gm.graph_view({ conv2d: 41.5 });
  assert.equal(v.nodes.length, gm.nodes.length);
  assert.ok(v.edges.some((e) => e.from === 'x' && e.to === 'add'));
  assert.equal(v.nodes.find((n) => n.name === 'conv2d').value, 41.5);
  assert.ok(v.nodes.find((n) => n.name === 'relu_1').layer > v.nodes.find((n) => n.name === 'conv2d').layer);
  // Values that are no numbers (the JS fuzzer's find: an object without a primitive value) are typed errors
  // naming the entry, raised before the engine reads them.
  assert.throws(() => gm.graph_view({ conv2d: Object.create(null) }), (e) => e instanceof pt.errors.TypeError && /values\["conv2d"\]/.test(e.message));
  assert.throws(() => gm.graph_view([1, 2]), (e) => e instanceof pt.errors.TypeError && /'values'/.test(e.message));
  assert.equal(gm.graph_view(null).nodes.length, gm.nodes.length);
  // A data helper's count given as such an object: a ValueError naming the argument.
  assert.throws(() => pt.synthetic_images('train', Object.create(null)), (e) => e instanceof pt.errors.ValueError && /'n'/.test(e.message));
});

test('data helpers: example_inputs and calibration_batches', () => {
  const [x] = pt.example_inputs(4);
  assert.deepEqual(x.shape, [4, 3, 16, 16]);
  const batches = pt.calibration_batches({ n: 10, batch_size: 4 });
  assert.deepEqual(batches.map((b) => b.x.shape[0]), [4, 4, 2]);
  assert.equal(batches[0].labels.dtype, 'int32');
  assert.deepEqual(Array.from(batches[2].labels.data()), [0, 1], 'label i % 4: samples 8 and 9');
  const again = pt.calibration_batches({ n: 10, batch_size: 4 });
  assert.deepEqual(Array.from(again[1].x.data()), Array.from(batches[1].x.data()), 'deterministic');
  const longer = pt.calibration_batches({ n: 12, batch_size: 6 });
  assert.deepEqual(Array.from(longer[0].x.data()).slice(0, 4 * 768), Array.from(batches[0].x.data()), 'sample i does not depend on n or batch_size');
  assert.throws(() => pt.calibration_batches({ n: 0, batch_size: 4 }), (e) => e.name === 'ValueError' && /'n'/.test(e.message));
  assert.throws(() => pt.calibration_batches({ n: 4 }), (e) => e.name === 'ValueError' && /'batch_size'/.test(e.message));
});

test('bad input: typed errors naming the model, the node or the argument', () => {
  assert.throws(() => pt.get_model('resnet50'), (e) => e.name === 'ValueError' && /resnet50/.test(e.message));
  assert.throws(() => pt.get_model('residual', { ch: -1 }), (e) => e.name === 'ValueError' && /'ch'/.test(e.message));
  const gm = residual();
  assert.throws(() => gm.forward(pt.randn([4, 3, 16, 16])), (e) => /conv2d/.test(e.message));
  assert.throws(() => pt.export({}, []), (e) => e.name === 'TypeError');
  assert.throws(() => pt.diff_ops(gm, 3), (e) => e.name === 'TypeError' && /'b'/.test(e.message));
  assert.throws(() => gm.node('nope'), (e) => e.name === 'ValueError');
  assert.equal(gm.forward(pt.randn([1, 8, 16, 16])).shape[0], 1, 'still runs after the errors');
});
