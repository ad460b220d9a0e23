// pt2e.test.js — the public JS API of engine/pt2e: configs, quantizers, a quantizer written in JS,
// annotations from JS, prepare_pt2e and its errors. Structure numbers come from the seeds:
// M01-2 (residual block: 4 HistogramObserver + 2 PerChannelMinMaxObserver replace 2 batch_norm;
// CatPoolNet leaves cat and max_pool2d unannotated) and M03 (a relu-output quantizer gives 1 / 2 / 4
// observers on conv_relu / residual / tiny).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();
const exported = (name, opts) => {
  const m = pt.get_model(name, opts);
  return pt.export(m, [pt.randn([2, ...m.input_shape])]);
};
const act = () => new pt.QuantizationSpec({
  dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }),
});

// The seed M03 exercise: ten lines of JS.
class ReluOutputQuantizer extends pt.Quantizer {
  annotate(gm) {
    for (const node of gm.nodes) {
      if (node.op !== 'call_function' || node.target !== 'aten.relu.default') continue;
      gm.annotate(node, new pt.QuantizationAnnotation({ output_qspec: act(), _annotated: true }));
    }
    return gm;
  }
  validate() {}
}

test('a relu-output quantizer written in JS gives 1 / 2 / 4 observers on conv_relu / residual / tiny', () => {
  pt.manual_seed(0);
  const counts = ['conv_relu', 'residual', 'tiny'].map((name) => pt.observer_nodes(pt.prepare_pt2e(exported(name), new ReluOutputQuantizer())).length);
  assert.deepEqual(counts, [1, 2, 4]);
});

test('XNNPACKQuantizer on the residual block: the op changes of seed M01-2', () => {
  pt.manual_seed(0);
  const gm = exported('residual', { ch: 8 });
  const q = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
  const prepared = pt.prepare_pt2e(gm, q);
  const changed = pt.diff_ops(gm, prepared).filter((r) => r.delta !== 0).map((r) => [r.op, r.delta]);
  assert.deepEqual(changed, [['<module:HistogramObserver>', 4], ['<module:PerChannelMinMaxObserver>', 2], ['batch_norm', -2]]);
  assert.deepEqual(prepared.node('conv2d').users, ['relu'], 'conv2d feeds relu directly (conv+relu is one pattern)');
  const obsX = prepared.observer('activation_post_process_0');
  assert.equal(obsX.config.type, 'HistogramObserver');
  assert.ok(obsX instanceof pt.HistogramObserver);
  assert.ok(!obsX.is(prepared.observer('activation_post_process_2')));
  assert.throws(() => prepared.observer('conv2d'), (e) => e.name === 'ValueError' && /not an observer/.test(e.message));
  assert.equal(pt.count_ops(gm).batch_norm, 2, 'prepare_pt2e leaves its input as it was');
  for (let i = 0; i < 2; i++) prepared.forward(pt.randn([2, 8, 16, 16]));
  const { scale, zero_point } = obsX.calculate_qparams();  // the graph's own instance saw the calibration
  const converted = pt.convert_pt2e(prepared);
  const delta = Object.fromEntries(pt.diff_ops(prepared, converted).filter((r) => r.delta !== 0).map((r) => [r.op, r.delta]));
  assert.deepEqual(delta, { '<module:HistogramObserver>': -4, '<module:PerChannelMinMaxObserver>': -2,
    dequantize_per_channel: 2, dequantize_per_tensor: 5, quantize_per_tensor: 4 });
  const qx = converted.nodes.find((n) => n.target.startsWith('quantized_decomposed.quantize_per_tensor') && n.args[0].node === 'x');
  assert.equal(qx.users.length, 2, "x's quantize feeds two dequantizes (DuplicateDQPass)");
  assert.deepEqual(qx.args.slice(1, 3), [scale[0], zero_point[0]], "convert bakes in x's observer's qparams");
  const x = pt.randn([2, 8, 16, 16]);
  assert.ok(pt.sqnr(gm.forward(x), converted.forward(x)) > 20, 'the converted graph computes nearly what the float one does');
});

test('the torchao XNNPACKQuantizer leaves cat and max_pool2d of CatPoolNet unannotated', () => {
  const gm = exported('cat_pool');
  new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true })).annotate(gm);
  assert.deepEqual([...pt.unannotated_ops(gm)].sort(), ['cat', 'max_pool2d']);
  const conv = gm.annotation(gm.nodes.find((n) => n.target === 'aten.conv2d.default'));
  assert.equal(conv._annotated, true);
  assert.equal(conv.input_qspec_map.length, 3, 'input, weight and bias edges');
});

test('configs carry the observer classes of get_symmetric_quantization_config', () => {
  const ctr = (c) => c.input_activation.observer_or_fake_quant_ctr.name;
  assert.equal(ctr(pt.get_symmetric_quantization_config()), 'HistogramObserver');
  assert.equal(ctr(pt.get_symmetric_quantization_config({ is_qat: true })), 'FusedMovingAvgObsFakeQuantize');
  assert.equal(ctr(pt.get_symmetric_quantization_config({ is_dynamic: true })), 'PlaceholderObserver');
  const w = pt.get_symmetric_quantization_config({ is_per_channel: true }).weight;
  assert.deepEqual([w.observer_or_fake_quant_ctr.name, w.quant_min, w.quant_max, w.qscheme], ['PerChannelMinMaxObserver', -127, 127, 'per_channel_symmetric']);
  assert.equal(pt.get_default_x86_inductor_quantization_config().input_activation.dtype, 'uint8');
});

test("a learner's error inside annotate reaches the cell typed, and the engine keeps working", () => {
  class Broken extends pt.Quantizer { annotate() { throw new pt.ValueError('my rule is wrong'); } validate() {} }
  const gm = exported('conv_relu');
  assert.throws(() => pt.prepare_pt2e(gm, new Broken()), (e) => e.name === 'ValueError' && /my rule is wrong/.test(e.message));
  class NoAnnotate extends pt.Quantizer {}
  assert.throws(() => pt.prepare_pt2e(gm, new NoAnnotate()), (e) => e.name === 'TypeError' && /annotate/.test(e.message));
  assert.throws(() => pt.prepare_pt2e(gm, {}), (e) => e.name === 'TypeError' && /quantizer/.test(e.message));
  assert.equal(pt.observer_nodes(pt.prepare_pt2e(gm, new ReluOutputQuantizer())).length, 1);
});

test('bad annotations get typed errors as torchao raises', () => {
  const gm = exported('conv_relu');
  assert.throws(() => pt.annotate_output_qspec(gm, 'nope', act()), (e) => e.name === 'ValueError' && /nope/.test(e.message));
  assert.throws(() => new pt.QuantizationSpec({ dtype: 'int8', quant_min: 5, quant_max: -5, observer_or_fake_quant_ctr: pt.MinMaxObserver }),
    (e) => e.name === 'ValueError');
  // A SharedQuantizationSpec pointing to a later edge: its observer does not exist yet when prepare reaches it.
  class SharesForward extends pt.Quantizer {
    annotate(g) {
      const relu = g.nodes.find((n) => n.target === 'aten.relu.default');
      const conv = g.nodes.find((n) => n.target === 'aten.conv2d.default');
      g.annotate(conv, new pt.QuantizationAnnotation({ input_qspec_map: [[conv.args[0].node, new pt.SharedQuantizationSpec(relu)]], _annotated: true }));
      g.annotate(relu, new pt.QuantizationAnnotation({ output_qspec: act(), _annotated: true }));
    }
    validate() {}
  }
  assert.throws(() => pt.prepare_pt2e(gm, new SharesForward()), (e) => ['RuntimeError', 'ValueError'].includes(e.name));
});

// ---- QAT conv-bn (issue #5): prepare_qat_pt2e fuses conv -> bn as torchao's _fuse_conv_bn_qat, convert
// folds it back (_fold_conv_bn_qat); move_exported_model_to_train / _eval flip batch norm's training flag.
const qatQuantizer = () => new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true, is_qat: true }));
const targets = (gm) => gm.nodes.map((n) => n.target);
const count = (gm, target) => targets(gm).filter((t) => t === target).length;
const byName = (gm) => Object.fromEntries(gm.nodes.map((n) => [n.name, n]));

test('prepare_qat_pt2e on stem: conv(fq(x), fq(w * bn_w / sqrt(rv + 1e-5))) / sf -> batch_norm(training) -> relu -> fq', () => {
  pt.manual_seed(0);
  const gm = exported('stem');
  const prepared = pt.prepare_qat_pt2e(gm, qatQuantizer());
  const nodes = byName(prepared);
  const bn = prepared.nodes.find((n) => n.target === 'aten.batch_norm.default');
  assert.equal(bn.args[5], true);
  const div = nodes[bn.args[0].node];
  assert.equal(div.target, 'aten.div.Tensor');
  const conv = nodes[div.args[0].node];
  assert.equal(conv.target, 'aten.conv2d.default');
  const wfq = nodes[conv.args[1].node];
  assert.equal(wfq.op, 'call_module');
  const mul = nodes[wfq.args[0].node];
  assert.equal(mul.target, 'aten.mul.Tensor');
  assert.equal(nodes[mul.args[0].node].target, 'conv.weight');
  const sf = nodes[nodes[mul.args[1].node].args[0].node];
  const add = nodes[nodes[sf.args[1].node].args[0].node];
  assert.equal(add.target, 'aten.add.Tensor');
  assert.equal(nodes[add.args[0].node].target, 'bn.running_var');
  assert.equal(add.args[1], 1e-5);
  assert.equal(pt.observer_nodes(prepared).length, 3);
  assert.equal(count(gm, 'aten.mul.Tensor'), 0, 'the exported graph is left alone');
});

test('move_exported_model_to_train / _eval flip batch_norm training in place; train mode updates running stats', () => {
  pt.manual_seed(0);
  const gm = exported('stem');
  const bnArgs = () => gm.nodes.find((n) => n.target === 'aten.batch_norm.default').args;
  const rm = () => gm.state_dict().find((e) => e.name === 'bn.running_mean').tensor.tolist();
  assert.equal(bnArgs()[5], false);
  const before = rm();
  const x = pt.randn([4, 3, 16, 16]);
  gm.forward(x);
  assert.deepEqual(rm(), before, 'eval forward keeps the running stats');
  assert.equal(pt.move_exported_model_to_train(gm), gm);
  assert.equal(bnArgs()[5], true);
  gm.forward(x);
  assert.notDeepEqual(rm(), before, 'train forward updates the running stats');
  pt.move_exported_model_to_eval(gm);
  pt.move_exported_model_to_eval(gm);
  assert.equal(bnArgs()[5], false);
  assert.throws(() => pt.move_exported_model_to_train({}), pt.errors.TypeError);
});

test('QAT flow: calibrate in train mode, eval, convert: no batch_norm, int8 weight -> dequantize_per_channel -> conv', () => {
  pt.manual_seed(0);
  const gm = exported('tiny');
  pt.move_exported_model_to_train(gm);
  for (let i = 0; i < 30; i++) gm.forward(pt.randn([8, 3, 16, 16]));  // "pretrained" BN statistics
  pt.move_exported_model_to_eval(gm);
  const prepared = pt.prepare_qat_pt2e(gm, qatQuantizer());
  assert.equal(count(prepared, 'aten.batch_norm.default'), 4);
  for (let i = 0; i < 6; i++) prepared.forward(pt.randn([8, 3, 16, 16]));
  pt.move_exported_model_to_eval(prepared);
  const converted = pt.convert_pt2e(prepared);
  for (const t of ['aten.batch_norm.default', 'aten.mul.Tensor', 'aten.div.Tensor', 'aten.sqrt.default']) {
    assert.equal(count(converted, t), 0, t);
  }
  const nodes = byName(converted);
  const convs = converted.nodes.filter((n) => n.target === 'aten.conv2d.default');
  assert.equal(convs.length, 4);
  for (const conv of convs) {
    const dq = nodes[conv.args[1].node];
    assert.equal(dq.target, 'quantized_decomposed.dequantize_per_channel.default');
    assert.equal(nodes[dq.args[0].node].op, 'get_attr');
    assert.equal(nodes[conv.args[2].node].op, 'get_attr', 'folded bias');
  }
  // Same ops as a converted PTQ graph.
  const ptq = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
  const ptqPrepared = pt.prepare_pt2e(gm, ptq);
  ptqPrepared.forward(pt.randn([8, 3, 16, 16]));
  assert.deepEqual(pt.count_ops(converted), pt.count_ops(pt.convert_pt2e(ptqPrepared)));
  const x = pt.randn([8, 3, 16, 16]);
  const s = pt.sqnr(prepared.forward(x), converted.forward(x));
  assert.ok(s > 25, `converted vs prepared (eval) SQNR ${s} dB`);
});

// ExecuTorch backends/xnnpack/quantizer/xnnpack_quantizer_utils.py `_do_annotate_conv`: the `conv` annotator skips a
// conv whose single user is a relu (for `conv_relu` to take it), and a dynamic config runs only the dynamic patterns
// (xnnpack_quantizer.py `SUPPORTED_PATTERNS`: linear, conv, conv_transpose) — so under a dynamic config a conv feeding
// only a relu stays float, while a conv with a second user (conv_relu_add: relu and add) is labelled alone.
test('ExecuTorch dynamic config: a conv whose only user is relu stays float, a conv with two users is quantized alone', () => {
  const config = pt.executorch.get_symmetric_quantization_config({ is_per_channel: true, is_dynamic: true });
  const prepare = (name) => pt.prepare_pt2e(exported(name), new pt.executorch.XNNPACKQuantizer().set_global(config));
  assert.equal(pt.observer_nodes(prepare('conv_relu')).length, 0);
  const p = prepare('conv_relu_add');
  const conv = p.nodes.find((n) => n.target === 'aten.conv2d.default');
  assert.deepEqual(conv.users.sort(), ['add', 'relu']);
  const inputs = conv.args.slice(0, 2).map((a) => p.node(a.node));
  assert.deepEqual(inputs.map((n) => p.observer(n.name).constructor.name), ['PlaceholderObserver', 'PerChannelMinMaxObserver']);
  assert.equal(pt.observer_nodes(p).length, 2);
  assert.equal(p.annotation('relu'), null);
});

test('convert_pt2e takes torch\'s positional booleans or their names in an options object, and nothing else', () => pt.scope(() => {
  const prepared = () => {
    const p = pt.prepare_pt2e(pt.export(pt.get_model('mlp'), [pt.randn([2, 16])]), new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config()));
    p.forward(pt.randn([2, 16]));
    return p;
  };
  const ops = (g) => JSON.stringify(pt.count_ops(g));
  const reference = ops(pt.convert_pt2e(prepared(), true));
  assert.notEqual(reference, ops(pt.convert_pt2e(prepared())), 'the reference representation is another graph');
  assert.equal(ops(pt.convert_pt2e(prepared(), { use_reference_representation: true })), reference);
  assert.equal(ops(pt.convert_pt2e(prepared(), false, false)), ops(pt.convert_pt2e(prepared(), { fold_quantize: false })));
  assert.throws(() => pt.convert_pt2e(prepared(), 'yes'), (e) => e instanceof pt.TypeError && /use_reference_representation' must be a bool/.test(e.message));
  assert.throws(() => pt.convert_pt2e(prepared(), { reference: true }), (e) => e instanceof pt.TypeError && /unexpected keyword argument 'reference'/.test(e.message));
}));
