// qat.test.js — the public JS API of the course's second half: the data (data.js: torch.randperm and
// DataLoader's shuffled order against torch 1.13, tests/golden/data/shuffle, written by
// tests/golden/gen_data.py; the synthetic image set; accuracy), the QAT flow's switches (qat.js: gm.apply with
// disable_observer / disable_fake_quant, freeze_bn_stats, a TrainLoop over a DataLoader, then convert), and
// torchao's numeric debugger with M05's layer experiments (debugger.js) on tiny; bad input raises typed
// errors and leaves the model usable.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();

// tests/golden/data/shuffle.{json,bin}: float32 tensors by name (indices are exact in float32).
function golden(name) {
  const base = new URL(`../golden/data/${name}`, import.meta.url);
  const meta = JSON.parse(readFileSync(new URL(`${base}.json`)));
  const bin = readFileSync(new URL(`${base}.bin`));
  const floats = new Float32Array(bin.buffer, bin.byteOffset, bin.byteLength / 4);
  const byName = Object.fromEntries(meta.tensors.map((t) => [t.name, t]));
  return (n) => Array.from(floats.slice(byName[n].offset, byName[n].offset + byName[n].shape.reduce((a, b) => a * b, 1)));
}
const shuffle = golden('shuffle');

test('pt.randperm after pt.manual_seed is torch.randperm on the default generator, bit for bit', () => pt.scope(() => {
  for (const seed of [0, 1, 42]) {
    for (const n of [1, 3, 10, 1000]) {
      pt.manual_seed(seed);
      const p = pt.randperm(n);
      assert.equal(p.dtype, 'int32', 'the engine\'s integer tensors are int32 (torch gives int64)');
      assert.deepEqual(p.tolist(), shuffle(`randperm.seed${seed}.n${n}`), `seed ${seed}, n ${n}`);
    }
  }
}));

test('DataLoader(shuffle, seed) yields torch 1.13\'s order epoch after epoch; len() counts the batches', () => pt.scope(() => {
  for (const [n, b] of [[10, 4], [12, 4], [7, 7]]) {
    const idx = Array.from({ length: n }, (_, i) => i);
    const data = { x: pt.tensor(idx, [n, 1]), labels: pt.tensor(idx, [n], 'int32') };
    const loader = new pt.DataLoader(data, { batch_size: b, shuffle: true, seed: 3 });
    assert.equal(loader.length, Math.ceil(n / b));
    for (let epoch = 0; epoch < 3; epoch++) {
      const batches = [...loader];
      assert.equal(batches.length, loader.length);
      assert.deepEqual(batches.flatMap((batch) => batch.labels.tolist()), shuffle(`loader.n${n}.b${b}.epoch${epoch}`), `n ${n}, epoch ${epoch}`);
      assert.deepEqual(batches[0].x.tolist(), batches[0].labels.tolist(), 'x and labels stay paired');
    }
  }
  const plain = new pt.DataLoader({ x: pt.randn([5, 2]), labels: pt.tensor([0, 1, 2, 3, 0], [5], 'int32') }, { batch_size: 2, drop_last: true });
  assert.deepEqual(plain.epoch().map((bt) => bt.labels.tolist()), [[0, 1], [2, 3]]);
}));

test('synthetic_images: deterministic train / test splits, labels i % num_classes, accuracy in percent', () => pt.scope(() => {
  const a = pt.synthetic_images('train', 40), b = pt.synthetic_images('train', 40);
  assert.deepEqual(a.x.shape, [40, 3, 16, 16]);
  assert.equal(a.labels.dtype, 'int32');
  assert.deepEqual(a.x.tolist(), b.x.tolist(), 'the same call gives the same bits');
  assert.deepEqual(a.labels.tolist().slice(0, 12), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1], 'M06 default: 10 classes');
  const t = pt.synthetic_images('test', 40);
  assert.notDeepEqual(t.x.tolist(), a.x.tolist(), 'the test split is drawn apart from the train split');
  const four = pt.synthetic_images('test', 8, { num_classes: 4, noise: 0.05 });
  assert.deepEqual(four.labels.tolist(), [0, 1, 2, 3, 0, 1, 2, 3]);
  const logits = pt.tensor([2, 1, 0, 0, 3, 1, 5, 0, 0], [3, 3]);   // predictions 0, 1, 0
  assert.ok(Math.abs(pt.accuracy(logits, pt.tensor([0, 1, 2], [3], 'int32')) - 200 / 3) < 1e-9);
}));

test('data: bad input gets typed errors', () => pt.scope(() => {
  assert.throws(() => pt.synthetic_images('valid', 8), pt.ValueError);
  assert.throws(() => pt.synthetic_images('train', 0), pt.ValueError);
  assert.throws(() => pt.synthetic_images('train', 8, { num_classes: 11 }), pt.ValueError);
  assert.throws(() => pt.synthetic_images('train', 8, { classes: 4 }), pt.TypeError);
  assert.throws(() => pt.randperm(-1), pt.RuntimeError);   // torch: "Trying to create tensor with negative dimension"
  assert.throws(() => pt.get_model('tiny', { num_classes: 2.5 }), pt.ValueError);
  const d = pt.synthetic_images('train', 8);
  assert.throws(() => new pt.DataLoader(d, { batch_size: 0 }), pt.ValueError);
  assert.throws(() => new pt.DataLoader([d.x, d.labels]), pt.TypeError);
  assert.throws(() => new pt.DataLoader({ x: d.x, labels: pt.tensor([0, 1], [2], 'int32') }), pt.ValueError);
  assert.throws(() => pt.accuracy(pt.randn([4, 3]), pt.tensor([0, 1, 2], [3], 'int32')), pt.ValueError);
  assert.throws(() => pt.accuracy(pt.randn([3, 3]), pt.tensor([0, 1, 2], [3])), pt.TypeError);
}));

function prepareTinyQat() {
  pt.manual_seed(0);
  const m = pt.get_model('tiny', { num_classes: 10 });
  const exported = pt.export(m, [pt.randn([4, ...m.input_shape])]);
  const q = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true, is_qat: true }));
  return pt.move_exported_model_to_train(pt.prepare_qat_pt2e(exported, q));
}

test('QAT flow: apply(disable_observer) / freeze_bn_stats between TrainLoop slices, then eval and convert', () => pt.scope(() => {
  const prepared = prepareTinyQat();
  const seen = [];
  prepared.apply((mod) => seen.push(mod));
  assert.ok(seen.length > 0 && seen.every((mod) => mod instanceof pt.FakeQuantizeBase), 'QAT configs insert fake quantizes');
  const train = pt.synthetic_images('train', 128);
  const loader = new pt.DataLoader(train, { batch_size: 32, shuffle: true, seed: 0 });
  const opt = new pt.optim.SGD(prepared.parameters(), { lr: 0.05, momentum: 0.9 });
  const loop = new pt.TrainLoop(prepared, opt, { loader });
  const first = loop.run(4);
  assert.equal(first.length, 4);
  assert.equal(loop.epoch, 1, 'four batches of 32 are one epoch');

  const flags = (name) => seen.map((mod) => mod.buffer(name).item());
  assert.equal(prepared.apply(pt.disable_observer), prepared);
  assert.ok(flags('observer_enabled').every((f) => f === 0) && flags('fake_quant_enabled').every((f) => f === 1));
  const scales = seen.map((mod) => mod.scale.tolist());
  assert.equal(pt.freeze_bn_stats(prepared), prepared);
  const bn = () => prepared.state_dict().filter((e) => /running_mean/.test(e.name)).map((e) => e.tensor.tolist());
  const stats = bn();
  loop.run(4);
  assert.deepEqual(seen.map((mod) => mod.scale.tolist()), scales, 'observers off: scale and zero point stay');
  assert.deepEqual(bn(), stats, 'frozen batch norms keep their running statistics');

  prepared.apply(pt.disable_fake_quant);
  assert.ok(flags('fake_quant_enabled').every((f) => f === 0));
  const x = pt.synthetic_images('test', 8).x;
  pt.move_exported_model_to_eval(prepared);
  const off = prepared.forward(x).tolist();
  prepared.apply(pt.enable_fake_quant);
  const on = prepared.forward(x).tolist();
  assert.notDeepEqual(on, off, 'fake quant on changes the output');
  prepared.apply(pt.enable_observer);
  assert.ok(flags('observer_enabled').every((f) => f === 1), 'observers back on');

  const converted = pt.convert_pt2e(prepared);
  assert.ok(converted.nodes.some((n) => /quantize_per_tensor/.test(n.target)));
  const acc = pt.evaluate_accuracy(converted, new pt.DataLoader(pt.synthetic_images('test', 64), { batch_size: 32 }));
  assert.ok(acc >= 0 && acc <= 100);

  assert.throws(() => prepared.apply('disable_observer'), pt.TypeError);
  assert.throws(() => new pt.TrainLoop(prepared, opt, {}), pt.TypeError);
  assert.throws(() => new pt.TrainLoop(prepared, opt, { loader: [] }), pt.TypeError);
  assert.throws(() => pt.freeze_bn_stats({}), pt.TypeError);
}));

// What M05 compares on: tiny (4 classes), X86InductorQuantizer, calibrated on 128 images, 32 held-out images.
function tinySetup() {
  pt.manual_seed(0);
  const m = pt.get_model('tiny');
  const exported = pt.export(m, [pt.randn([4, ...m.input_shape])]);
  const calibration = [...new pt.DataLoader(pt.synthetic_images('train', 128, { num_classes: 4, noise: 0.05, seed: 2024 }), { batch_size: 32 })].map((b) => b.x);
  const data = { calibration, inputs: pt.synthetic_images('test', 32, { num_classes: 4, noise: 0.05 }).x };
  const quantizerFor = (keep_float) => keep_float.reduce((q, layer) => q.set_module_name_qconfig(layer, null),
    new pt.X86InductorQuantizer().set_global(pt.get_default_x86_inductor_quantization_config()));
  return { exported, data, quantizerFor };
}

test('numeric debugger: handles in meta.custom, loggers, compare_results against itself is exact', () => pt.scope(() => {
  const { exported, data } = tinySetup();
  pt.generate_numeric_debug_handle(exported);
  const handles = exported.nodes.filter((n) => n.op === 'call_function').map((n) => n.meta.custom[pt.NUMERIC_DEBUG_HANDLE_KEY]);
  assert.ok(handles.every(Number.isInteger));
  assert.equal(new Set(handles).size, handles.length, 'unique');
  const a = pt.prepare_for_propagation_comparison(exported);
  const b = pt.prepare_for_propagation_comparison(exported);
  assert.ok(a.nodes.some((n) => n.op === 'call_module' && /_logger\d+$/.test(n.name)));
  pt.move_exported_model_to_eval(a); pt.move_exported_model_to_eval(b);
  a.forward(data.inputs); b.forward(data.inputs);
  const ra = pt.extract_results_from_loggers(a);
  assert.equal(ra.get(handles[0]).node_name, 'conv2d');
  assert.deepEqual(ra.get(handles[0]).stats[0].shape, [32, 16, 16, 16]);
  const same = pt.compare_results(ra, pt.extract_results_from_loggers(b));
  assert.equal(same.size, ra.size);
  for (const s of same.values()) {
    assert.equal(s.results[0].sqnr, Infinity);
    assert.equal(s.results[0].mse_loss, 0);
  }
  assert.throws(() => pt.compare_results(ra, [...ra]), pt.TypeError);
  assert.throws(() => pt.generate_numeric_debug_handle(null), pt.TypeError);
}));

test('M05 on tiny: per-node SQNR for the graph view; the top-ranked layer kept float beats keeping any other', () => pt.scope(() => {
  const { exported, data, quantizerFor } = tinySetup();
  const c = pt.quantize_and_compare(exported, quantizerFor([]), data);
  assert.ok(Number.isFinite(c.model_sqnr) && c.model_sqnr > 20);
  assert.ok(c.nodes.size >= 10);
  const values = pt.sqnr_by_node(c.quantized, c.nodes);
  const pool = c.reference.nodes.find((n) => n.name === 'max_pool2d').meta.custom.numeric_debug_handle;
  const sharing = c.quantized.nodes.filter((n) => n.meta.custom?.numeric_debug_handle === pool);
  assert.ok(sharing.length >= 2, 'the op and the q / dq convert made of it');
  for (const n of sharing) assert.equal(values[n.name], c.nodes.get(pool).results[0].sqnr);
  assert.ok(c.quantized.graph_view(values).nodes.length > 0);

  const layers = pt.layer_names(exported);
  assert.deepEqual(layers, ['conv1', 'conv2', 'conv3', 'conv4', 'fc']);
  const alone = pt.quantize_one_layer_alone(exported, quantizerFor, layers, data);
  const kept = pt.keep_one_layer_float(exported, quantizerFor, layers, data);
  const rank = pt.rank_by_sensitivity(alone);
  assert.deepEqual([...rank].sort(), [...layers].sort());
  const top = kept.find((p) => p.layer === rank[0]);
  for (const p of kept) if (p.layer !== rank[0]) assert.ok(top.model_sqnr > p.model_sqnr, `${rank[0]} ${top.model_sqnr} vs ${p.layer} ${p.model_sqnr}`);
  assert.ok(top.model_sqnr > c.model_sqnr);
  const curve = pt.sqnr_vs_layers_kept_float(exported, quantizerFor, rank.slice(0, 2), data);
  assert.deepEqual(curve.map((p) => p.kept_float.length), [0, 1, 2]);
  assert.ok(Math.abs(curve[1].model_sqnr - top.model_sqnr) < 1e-9);

  assert.throws(() => pt.keep_one_layer_float(exported, quantizerFor, ['conv9'], data), pt.ValueError);
  assert.throws(() => pt.keep_one_layer_float(exported, () => 'x86', layers, data), pt.TypeError);
  assert.throws(() => pt.keep_one_layer_float(exported, () => { throw new pt.ValueError('no quantizer'); }, layers, data), pt.ValueError);
  assert.throws(() => pt.quantize_and_compare(exported, quantizerFor([]), { calibration: [], inputs: data.inputs }), pt.ValueError);
  assert.throws(() => pt.quantize_and_compare(exported, quantizerFor([]), { inputs: data.inputs }), pt.TypeError);
  assert.throws(() => pt.rank_by_sensitivity(kept.map((p) => p.model_sqnr)), pt.TypeError);
  assert.ok(Number.isFinite(pt.quantize_and_compare(exported, quantizerFor([]), data).model_sqnr), 'still usable after the errors');
}));
