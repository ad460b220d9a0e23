// zoo_sqnr.test.js — every zoo model under the torchao XNNPACKQuantizer's configurations prepares,
// calibrates, converts and runs through the public JS API; prints the SQNR table docs/status.md shows
// (the ExecuTorch / X86 rows come from tests/engine/pt2e/test_executorch_x86_sqnr.cpp).
// Procedure: manual_seed(0), get_model, export on randn inputs, prepare_pt2e, 4 calibration batches,
// convert_pt2e, SQNR of the converted output against the exported float graph on a held-out batch.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/api/index.js';

const pt = await loadEngine();
const configs = [
  ['PTQ per-tensor', {}],
  ['PTQ per-channel', { is_per_channel: true }],
  ['dynamic per-channel', { is_per_channel: true, is_dynamic: true }],
];
const rows = [];

for (const name of pt.model_names()) {
  for (const [label, opts] of configs) {
    test(`${name} under XNNPACKQuantizer ${label} prepares, calibrates, converts and runs`, () => pt.scope(() => {
      pt.manual_seed(0);
      const model = pt.get_model(name);
      const batch = () => pt.randn([4, ...model.input_shape]);
      const gm = pt.export(model, [batch()]);
      const q = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config(opts));
      const prepared = pt.prepare_pt2e(gm, q);
      for (let i = 0; i < 4; i++) prepared.forward(batch());
      const converted = pt.convert_pt2e(prepared);
      const x = batch();
      const ref = gm.forward(x);
      const out = converted.forward(x);
      assert.deepEqual(out.shape, ref.shape);
      const db = pt.sqnr(ref, out);
      const observers = pt.observer_nodes(prepared).length;
      const qdq = pt.qdq_nodes(converted).length;
      rows.push(`| ${name} | XNNPACKQuantizer (torchao) | ${label} | ${observers} | ${qdq} | ${Number.isFinite(db) ? db.toFixed(2) : 'inf (identical)'} |`);
      assert.ok(observers > 0 || opts.is_dynamic, 'a static config places observers');
      assert.ok(db > 15, `SQNR ${db} dB: int8 should stay well above 15 dB on these models`);
    }));
  }
}

test.after(() => {
  console.log(['| model | quantizer | config | observers | q/dq nodes | SQNR vs fp32 (dB) |', '|---|---|---|---|---|---|', ...rows].join('\n'));
});
