// annotate_semantics.test.js — what writing an annotation from JS does, against torchao v0.18.0:
// gm.annotate(node, a) is Python's node.meta["quantization_annotation"] = a (a new object, flags its own);
// annotate_input_qspec_map / annotate_output_qspec (torchao quantizer/utils.py) and
// _mark_nodes_as_annotated (the backend quantizers' utils) edit the object already on the node; and
// ComposableQuantizer (quantizer/composable_quantizer.py, _record_and_validate_annotations) raises when
// a later quantizer replaced an earlier one's annotation object.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();
const exported = (name) => {
  const m = pt.get_model(name);
  return pt.export(m, [pt.randn([2, ...m.input_shape])]);
};
const act = () => new pt.QuantizationSpec({
  dtype: 'int8', quant_min: -128, quant_max: 127, qscheme: 'per_tensor_affine',
  observer_or_fake_quant_ctr: pt.HistogramObserver.with_args({ eps: 2 ** -12 }),
});
const relu = (gm) => gm.nodes.find((n) => n.target === 'aten.relu.default');
const conv = (gm) => gm.nodes.find((n) => n.target === 'aten.conv2d.default');

test('gm.annotate replaces the annotation, flags included (Python\'s node.meta[...] = QuantizationAnnotation(...))', () => {
  const gm = exported('conv_relu');
  const c = conv(gm), x = c.args[0].node;
  gm.annotate(c, new pt.QuantizationAnnotation({ output_qspec: act(), _annotated: true, allow_implicit_sharing: false }));
  gm.annotate(c, new pt.QuantizationAnnotation({ input_qspec_map: [[x, act()]] }));
  const a = gm.annotation(c);
  assert.equal(a.output_qspec, null);              // the first object's output spec went with it
  assert.deepEqual(a.input_qspec_map.map(([n]) => n), [x]);
  assert.equal(a._annotated, false);               // QuantizationAnnotation's defaults, not the old flags
  assert.equal(a.allow_implicit_sharing, true);
});

test('annotate_input_qspec_map / annotate_output_qspec / mark_nodes_as_annotated edit the annotation in place (torchao quantizer/utils.py)', () => {
  const gm = exported('conv_relu');
  const c = conv(gm), x = c.args[0].node;
  gm.annotate(c, new pt.QuantizationAnnotation({ input_qspec_map: [[x, act()]], allow_implicit_sharing: false }));
  pt.annotate_output_qspec(gm, c, act());
  let a = gm.annotation(c);
  assert.deepEqual(a.input_qspec_map.map(([n]) => n), [x]);   // kept
  assert.equal(a.output_qspec.kind, 'QuantizationSpec');
  assert.equal(a._annotated, false);                               // the helpers leave the flags alone
  assert.equal(a.allow_implicit_sharing, false);
  pt.mark_nodes_as_annotated(gm, [c, relu(gm)]);
  a = gm.annotation(c);
  assert.equal(a._annotated, true);
  assert.equal(a.output_qspec.kind, 'QuantizationSpec');           // same object: its specs are still there
  assert.equal(a.allow_implicit_sharing, false);
  const r = gm.annotation(relu(gm));                               // a node with none gets an empty, claimed one
  assert.deepEqual([r.input_qspec_map, r.output_qspec, r._annotated], [[], null, true]);
  assert.throws(() => pt.mark_nodes_as_annotated(gm, [c, 'nope']), (e) => e.name === 'ValueError' && /nope/.test(e.message));
  assert.throws(() => pt.mark_nodes_as_annotated(gm, c), (e) => e.name === 'TypeError');
});

// Two quantizers on conv_relu: the first labels relu's output; the second touches the same node.
class LabelRelu extends pt.Quantizer {
  annotate(gm) { gm.annotate(relu(gm), new pt.QuantizationAnnotation({ output_qspec: act() })); }
  validate() {}
}
class ReplaceRelu extends pt.Quantizer {   // a new object on a node an earlier quantizer annotated
  annotate(gm) { gm.annotate(relu(gm), new pt.QuantizationAnnotation({ output_qspec: act(), _annotated: true })); }
  validate() {}
}
class ClaimRelu extends pt.Quantizer {     // torchao's way to claim it: the same object, marked
  annotate(gm) { pt.mark_nodes_as_annotated(gm, [relu(gm)]); }
  validate() {}
}

test('ComposableQuantizer raises when a later quantizer replaced an annotation (composable_quantizer.py _record_and_validate_annotations)', () => {
  const q = new pt.ComposableQuantizer([new LabelRelu(), new ReplaceRelu()]);
  assert.throws(() => pt.prepare_pt2e(exported('conv_relu'), q),
    (e) => e.name === 'RuntimeError' && e.message.includes('Quantizer ReplaceRelu has changed annotations on node relu'));
});

test('ComposableQuantizer accepts a later quantizer that edits the annotation in place', () => {
  const prepared = pt.prepare_pt2e(exported('conv_relu'), new pt.ComposableQuantizer([new LabelRelu(), new ClaimRelu()]));
  assert.equal(pt.observer_nodes(prepared).length, 1);   // relu's output, as LabelRelu asked
});

test('ComposableQuantizer keeps its record across calls, as torchao\'s _graph_annotations (set in __init__)', () => {
  // The same graph annotated twice: LabelRelu's second object replaces its first, which the record still holds.
  const q = new pt.ComposableQuantizer([new LabelRelu()]);
  pt.scope(() => {
    const gm = exported('conv_relu');
    q.annotate(gm);
    assert.throws(() => q.annotate(gm),
      (e) => e.name === 'RuntimeError' && e.message.includes('Quantizer LabelRelu has changed annotations on node relu'));
    // A new graph's nodes are other objects: the same quantizer prepares it.
    assert.equal(pt.observer_nodes(pt.prepare_pt2e(exported('conv_relu'), q)).length, 1);
  });
  assert.throws(() => pt.prepare_pt2e(exported('conv_relu'), { __proto__: pt.ComposableQuantizer.prototype, quantizers: [], describe: () => ({ type: 'ComposableQuantizer', quantizers: [], record: 3 }) }),
    (e) => e.name === 'TypeError' && /record/.test(e.message));
});
